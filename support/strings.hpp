// Small ASCII string helpers shared by the readers, the model and lint/: one definition each
// instead of a local copy per file. Byte-wise and locale-free: a byte >= 0x80 is never a letter,
// a digit or blank space (the same answers as <cctype> in the "C" and UTF-8 locales). Prefix and
// suffix tests: std::string_view::starts_with / ends_with.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace planlint {

constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
// Space or tab.
constexpr bool is_blank(char c) { return c == ' ' || c == '\t'; }
// Space, tab, CR or LF (not \v or \f).
constexpr bool is_blank_or_newline(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
// What std::isspace answers in the "C" locale: space, \t, \n, \v, \f, \r.
constexpr bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c; }
constexpr char ascii_upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - ('a' - 'A')) : c; }

// Non-empty and every byte a digit.
constexpr bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_digit(c)) return false;
  return true;
}

// Case-insensitive (ASCII) equality.
constexpr bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}
// Case-insensitive (ASCII) prefix test.
constexpr bool istarts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

inline std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}
inline std::string to_upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_upper(c);
  return out;
}

// Without leading and trailing is_space bytes (std::isspace in the "C" locale).
constexpr std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}
// Without leading and trailing spaces (only ' ').
constexpr std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}
// Without leading and trailing spaces, tabs, CRs and LFs.
constexpr std::string_view trim_blank_or_newline(std::string_view s) {
  while (!s.empty() && is_blank_or_newline(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank_or_newline(s.back())) s.remove_suffix(1);
  return s;
}
// Without leading spaces and tabs.
constexpr std::string_view ltrim_blank(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  return s;
}
// Without trailing spaces and tabs.
constexpr std::string_view rtrim_blank(std::string_view s) {
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}
// Without trailing spaces, tabs and CRs (a line read from a CRLF text).
constexpr std::string_view rtrim_blank_cr(std::string_view s) {
  while (!s.empty() && (is_blank(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace planlint
