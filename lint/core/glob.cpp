#include "lint/core/glob.hpp"

#include <string>

namespace planlint {

namespace {

// Matches a character class starting at p[pi] == '['; sets `next` after the closing ']'.
bool match_class(std::string_view p, std::size_t pi, char c, std::size_t& next, bool& ok) {
  std::size_t i = pi + 1;
  bool negate = i < p.size() && (p[i] == '!' || p[i] == '^');
  if (negate) ++i;
  bool found = false;
  bool first = true;
  while (i < p.size() && (p[i] != ']' || first)) {
    first = false;
    char lo = p[i];
    if (i + 2 < p.size() && p[i + 1] == '-' && p[i + 2] != ']') {
      if (c >= lo && c <= p[i + 2]) found = true;
      i += 3;
    } else {
      if (c == lo) found = true;
      ++i;
    }
  }
  if (i >= p.size()) return false;  // no closing ']': treat '[' literally
  next = i + 1;
  ok = found != negate;
  return true;
}

// Iterative matcher with backtracking for the last `*` and the last `**`.
bool match(std::string_view p, std::string_view s) {
  std::size_t pi = 0, si = 0;
  std::size_t star_p = std::string_view::npos, star_s = 0;    // last `*` (no '/')
  std::size_t dstar_p = std::string_view::npos, dstar_s = 0;  // last `**`
  while (si < s.size()) {
    if (pi < p.size()) {
      if (p.compare(pi, 2, "**") == 0) {
        pi += 2;
        if (pi < p.size() && p[pi] == '/') ++pi;  // `**/` also matches zero folders
        dstar_p = pi;
        dstar_s = si;
        star_p = std::string_view::npos;
        continue;
      }
      if (p[pi] == '*') {
        star_p = ++pi;
        star_s = si;
        continue;
      }
      if (p[pi] == '?' && s[si] != '/') {
        ++pi;
        ++si;
        continue;
      }
      if (p[pi] == '[' && s[si] != '/') {
        std::size_t next = 0;
        bool ok = false;
        if (match_class(p, pi, s[si], next, ok)) {
          if (ok) {
            pi = next;
            ++si;
            continue;
          }
        } else if (s[si] == '[') {
          ++pi;
          ++si;
          continue;
        }
      } else if (p[pi] != '?' && p[pi] != '[' && p[pi] == s[si]) {
        ++pi;
        ++si;
        continue;
      }
    }
    if (star_p != std::string_view::npos && s[star_s] != '/') {  // let the `*` take one more char
      pi = star_p;
      si = ++star_s;
      continue;
    }
    if (dstar_p != std::string_view::npos) {
      pi = dstar_p;
      si = ++dstar_s;
      star_p = std::string_view::npos;
      continue;
    }
    return false;
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view path) {
  if (pattern.substr(0, 2) == "./") pattern.remove_prefix(2);
  if (!pattern.empty() && pattern[0] == '/') pattern.remove_prefix(1);
  if (path.substr(0, 2) == "./") path.remove_prefix(2);
  if (!pattern.empty() && pattern.back() == '/') pattern.remove_suffix(1);
  if (pattern.find('/') == std::string_view::npos) {
    std::size_t slash = path.rfind('/');
    std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    // `*.ext` (the default include list): a name (no `/`) ending in the literal tail.
    if (pattern.size() > 1 && pattern[0] == '*' && pattern.find_first_of("*?[", 1) == std::string_view::npos)
      return name.ends_with(pattern.substr(1));
    return match(pattern, name);
  }
  return match(pattern, path);
}

}  // namespace planlint
