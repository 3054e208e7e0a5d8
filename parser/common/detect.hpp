// Helpers for the readers' detect() (parser/registry/reader.hpp).
#pragma once

#include <string_view>

namespace planlint {

// The first line of `head` that has content: after a UTF-8 byte-order mark and blank space
// (spaces, tabs, line breaks), up to the end of that line. Empty when `head` is blank.
inline std::string_view first_content_line(std::string_view head) {
  std::size_t i = 0;
  if (head.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) ++i;
  std::size_t eol = head.find('\n', i);
  return head.substr(i, eol == std::string_view::npos ? std::string_view::npos : eol - i);
}

}  // namespace planlint
