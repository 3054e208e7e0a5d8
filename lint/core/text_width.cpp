#include "lint/core/text_width.hpp"

#include <utf8proc.h>

namespace planlint {

namespace {

// The next code point at `i`: its byte length and columns (an invalid byte: 1 byte, 1 column).
struct Step {
  std::size_t bytes = 1, columns = 1;
};

Step step(std::string_view s, std::size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return {1, 1};  // ASCII: the common case without a call
  utf8proc_int32_t cp = -1;
  utf8proc_ssize_t n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(s.data() + i),
                                        static_cast<utf8proc_ssize_t>(s.size() - i), &cp);
  if (n <= 0 || cp < 0) return {1, 1};
  int w = utf8proc_charwidth(cp);
  return {static_cast<std::size_t>(n), static_cast<std::size_t>(w < 0 ? 1 : w)};
}

}  // namespace

std::size_t display_width(std::string_view s) {
  std::size_t cols = 0;
  for (std::size_t i = 0; i < s.size();) {
    Step st = step(s, i);
    cols += st.columns;
    i += st.bytes;
  }
  return cols;
}

std::string fit_columns(std::string_view s, std::size_t width, std::string_view ellipsis) {
  if (display_width(s) <= width) return std::string(s);
  std::size_t room = width > display_width(ellipsis) ? width - display_width(ellipsis) : 0;
  std::size_t cols = 0, i = 0;
  while (i < s.size()) {
    Step st = step(s, i);
    if (cols + st.columns > room) break;
    cols += st.columns;
    i += st.bytes;
  }
  // Zero-width code points after the cut belong to the character before it.
  while (i < s.size()) {
    Step st = step(s, i);
    if (st.columns != 0) break;
    i += st.bytes;
  }
  return std::string(s.substr(0, i)) + std::string(ellipsis);
}

}  // namespace planlint
