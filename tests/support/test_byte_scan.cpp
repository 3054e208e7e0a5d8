// support/byte_scan.hpp: find_by_key gives std::string_view::find's answer for every needle, key
// byte and start offset (the repair passes rely on that: their `may_apply` checks must be false
// only where the pass would change nothing).
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <string_view>

#include "support/byte_scan.hpp"

using namespace planlint;

TEST_CASE("byte_scan: find_by_key agrees with find on hand-made cases") {
  const std::string_view plan = "+- Project [a#1 <- b]  // note <-- c //> d //| e  //  ";
  for (std::string_view needle : {" <-", " <--", " <- ", "  // ", " //>", " //|", "//", " ", "<", "e", "  //  ", "zz"})
    for (std::size_t key = 0; key < needle.size(); ++key)
      for (std::size_t from = 0; from <= plan.size() + 1; ++from) {
        CAPTURE(needle);
        CAPTURE(key);
        CAPTURE(from);
        CHECK(find_by_key(plan, needle, key, from) == plan.find(needle, from));
      }
  CHECK(find_by_key("", " <-", 1) == std::string_view::npos);
  CHECK(find_by_key(" <", " <-", 1) == std::string_view::npos);        // the key byte too near the end
  CHECK(find_by_key("-<- <-", " <-", 1) == 3);                          // a key byte without the match first
  CHECK(find_by_key("abc", "", 0, 1) == std::string_view("abc").find("", 1));  // empty needle: find's answer
}

TEST_CASE("byte_scan: find_by_key agrees with find on random texts of few letters") {
  std::mt19937 rng(37);
  const std::string_view alphabet = " <-/|>a";
  for (int round = 0; round < 2000; ++round) {
    std::string text(rng() % 40, ' '), needle(1 + rng() % 4, ' ');
    for (char& c : text) c = alphabet[rng() % alphabet.size()];
    for (char& c : needle) c = alphabet[rng() % alphabet.size()];
    const std::size_t key = rng() % needle.size();
    const std::size_t from = rng() % (text.size() + 2);
    CAPTURE(text);
    CAPTURE(needle);
    CAPTURE(key);
    CAPTURE(from);
    REQUIRE(find_by_key(text, needle, key, from) == std::string_view(text).find(needle, from));
  }
}
