// support/strings.hpp: the shared ASCII string helpers, and the exact byte sets each trim strips
// (the copies they replaced differed in that, so each set has its own name).
#include <doctest/doctest.h>

#include <cctype>
#include <string_view>

#include "support/strings.hpp"

using namespace planlint;

static_assert(is_digit('7') && !is_digit('a'));
static_assert(trim("  x ") == "x");
static_assert(iequals("Content-Length", "content-length"));

TEST_CASE("strings: character classes match <cctype> in the C locale for every byte") {
  for (int i = 0; i < 256; ++i) {
    const char c = static_cast<char>(i);
    CAPTURE(i);
    CHECK(is_digit(c) == (std::isdigit(i) != 0));
    CHECK(is_space(c) == (std::isspace(i) != 0));
    CHECK(ascii_lower(c) == static_cast<char>(std::tolower(i)));
    CHECK(ascii_upper(c) == static_cast<char>(std::toupper(i)));
  }
  CHECK(is_blank('\t'));
  CHECK_FALSE(is_blank('\r'));
  CHECK(is_blank_or_newline('\n'));
  CHECK_FALSE(is_blank_or_newline('\v'));
}

TEST_CASE("strings: each trim strips its own set") {
  const std::string_view s = "\v\f \t\r\n x y \n\r\t \f\v";
  CHECK(trim(s) == "x y");
  CHECK(trim_spaces("  \tx y\t  ") == "\tx y\t");
  CHECK(trim_blank_or_newline(s) == "\v\f \t\r\n x y \n\r\t \f\v");
  CHECK(trim_blank_or_newline(" \t\r\nx y\n\r\t ") == "x y");
  CHECK(ltrim_blank(" \t\rx ") == "\rx ");
  CHECK(rtrim_blank(" x\r\t ") == " x\r");
  CHECK(rtrim_blank_cr(" x\t\r \r") == " x");
  CHECK(trim("   ").empty());
  CHECK(trim_spaces("").empty());
}

TEST_CASE("strings: case folding and comparisons are ASCII-only") {
  CHECK(to_lower("SELECT a_B1 \xC3\x89") == "select a_b1 \xC3\x89");
  CHECK(to_upper("select a_b1 \xC3\xA9") == "SELECT A_B1 \xC3\xA9");
  CHECK(iequals("DISTINCT", "distinct"));
  CHECK_FALSE(iequals("distinct", "distinc"));
  CHECK_FALSE(iequals("\xC3\x89", "\xC3\xA9"));
  CHECK(istarts_with("Photon does not support", "PHOTON DOES"));
  CHECK_FALSE(istarts_with("Pho", "Photon"));
  CHECK(all_digits("0123456789"));
  CHECK_FALSE(all_digits(""));
  CHECK_FALSE(all_digits("12a"));
}
