// A bound on JSON nesting, checked on the text before nlohmann parses it: a value nested
// 100,000 deep is built, copied, dumped and destroyed recursively, which overflows the stack.
#pragma once

#include <cstddef>
#include <string_view>

namespace planlint {

// True when `body` nests arrays or objects deeper than `limit` (strings skipped). Checked before
// parsing, so that no deeply nested value is ever built, copied or destroyed recursively.
inline bool nests_deeper_than(std::string_view body, std::size_t limit) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

}  // namespace planlint
