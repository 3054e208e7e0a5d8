// support/byte_scan.hpp: find_by_key gives std::string_view::find's answer for every needle, key
// byte and start offset (the repair passes rely on that: their `may_apply` checks must be false
// only where the pass would change nothing).
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <thread>

#include "support/byte_scan.hpp"
#include "support/name_cache.hpp"

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

TEST_CASE("byte_scan: find_by_pair agrees with find, across its 16-byte compares and 64-byte turns") {
  // Texts of few letters up to 300 bytes (so matches and half matches fall on every side of the
  // 16-byte and 64-byte edges), every pair of the needle, random start offsets.
  std::mt19937 rng(3737);
  const std::string_view alphabet = "pln:ai";
  std::size_t found = 0;
  for (int round = 0; round < 4000; ++round) {
    std::string text(rng() % 300, ' '), needle(1 + rng() % 5, ' ');
    for (char& c : text) c = alphabet[rng() % alphabet.size()];
    for (char& c : needle) c = alphabet[rng() % alphabet.size()];
    const std::size_t k = rng() % (needle.size() + 1);  // k + 1 >= size: find's own answer
    const std::size_t from = rng() % (text.size() + 2);
    const std::size_t want = std::string_view(text).find(needle, from);
    found += want != std::string_view::npos;
    CAPTURE(text);
    CAPTURE(needle);
    CAPTURE(k);
    CAPTURE(from);
    REQUIRE(find_by_pair(text, needle, k, from) == want);
  }
  CHECK(found > 1000);
}

TEST_CASE("byte_scan: find_by_pair finds `planlint:` at every offset, the only one among near misses") {
  const std::string_view mark = "planlint:";
  for (std::size_t size = mark.size(); size < 200; ++size)
    for (std::size_t at = 0; at + mark.size() <= size; ++at) {
      // Near misses everywhere else: `nl` pairs without the word around them, and `planlint` cut short.
      std::string text(size, 'x');
      for (std::size_t p = 0; p + 1 < size; p += 7) text.replace(p, 2, "nl");
      if (size > 30) text.replace(size - 12, 8, "planlint");
      text.replace(at, mark.size(), mark);
      const std::size_t want = std::string_view(text).find(mark);
      CAPTURE(size);
      CAPTURE(at);
      REQUIRE(find_by_pair(text, mark, 3) == want);
      REQUIRE(find_by_pair(text, mark, 3, want + 1) == std::string_view(text).find(mark, want + 1));
    }
  CHECK(find_by_pair(std::string(1000, 'n') + "l", mark, 3) == std::string_view::npos);
  CHECK(find_by_pair("planlint", mark, 3) == std::string_view::npos);  // too short for the whole word
  CHECK(find_by_pair("planlint:", mark, 3) == 0);
  CHECK(find_by_pair("planlint:", mark, 3, 1) == std::string_view::npos);
  CHECK(find_by_pair("planlint:", mark, 3, 10) == std::string_view::npos);  // from past the end
}

TEST_CASE("byte_scan: same_short_bytes agrees with memcmp for every length to 56 and every differing byte") {
  // The operator-name cache (facts_names.cpp) and the detail-key lookup (facts_explain.cpp) compare
  // with it; its loads overlap, so a difference at any place must be seen, and no byte past n read.
  for (std::size_t n = 0; n <= 56; ++n) {
    std::string a(n, 'x'), b(n, 'x');
    for (std::size_t i = 0; i < n; ++i) a[i] = b[i] = static_cast<char>('a' + (i * 7) % 26);
    // Exactly n bytes on the heap for each: ASan reports a read past them.
    auto pa = std::make_unique<char[]>(n), pb = std::make_unique<char[]>(n);
    if (n) std::memcpy(pa.get(), a.data(), n);
    if (n) std::memcpy(pb.get(), b.data(), n);
    CHECK(planlint::same_short_bytes(pa.get(), pb.get(), n));
    for (std::size_t i = 0; i < n; ++i) {
      pb[i] ^= 0x20;
      CHECK_MESSAGE(!planlint::same_short_bytes(pa.get(), pb.get(), n), "n=" << n << " differing at " << i);
      pb[i] ^= 0x20;
    }
  }
}

TEST_CASE("byte_scan: word_run_end ends where a byte-by-byte test ends, for every byte and length") {
  // bare_attribute (facts_names.cpp, extra bytes _ . `) and the expression reader's names
  // (expr_fast.cpp, _ $) use it: its 16-byte compares and its byte-wise tail must agree.
  auto word = [](unsigned char c, std::string_view extra) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           extra.find(static_cast<char>(c)) != std::string_view::npos;
  };
  auto reference = [&](const char* b, std::size_t q, std::size_t n, std::string_view extra) {
    while (q < n && word(static_cast<unsigned char>(b[q]), extra)) ++q;
    return q;
  };
  // Every byte value as the one stop, at every place of runs of every length to 40 (across one,
  // two and three 16-byte looks and the tail), from several starts; the buffer exactly n bytes.
  for (std::size_t n = 0; n <= 40; ++n) {
    auto buf = std::make_unique<char[]>(n + 1);  // never empty; only [0, n) is passed
    for (std::size_t i = 0; i < n; ++i) buf[i] = "aZ9_.`$m"[i % 8];
    for (std::size_t q : {std::size_t{0}, std::size_t{1}, std::size_t{5}}) {
      if (q > n) continue;
      CHECK(word_run_end<'_', '.', '`'>(buf.get(), q, n) == reference(buf.get(), q, n, "_.`"));
      CHECK(word_run_end<'_', '$'>(buf.get(), q, n) == reference(buf.get(), q, n, "_$"));
      for (std::size_t at = q; at < n; ++at) {
        const char keep = buf[at];
        for (int c = 0; c < 256; ++c) {
          buf[at] = static_cast<char>(c);
          const std::size_t a = word_run_end<'_', '.', '`'>(buf.get(), q, n);
          const std::size_t b = word_run_end<'_', '$'>(buf.get(), q, n);
          if (a != reference(buf.get(), q, n, "_.`") || b != reference(buf.get(), q, n, "_$")) {
            FAIL_CHECK("n=" << n << " q=" << q << " byte " << c << " at " << at);
          }
        }
        buf[at] = keep;
      }
    }
  }
  // The runs stop where they differ: `.` and '`' end an identifier, `$` ends an attribute name.
  const std::string_view s = "ab.c$d`e#";
  CHECK(word_run_end<'_', '.', '`'>(s.data(), 0, s.size()) == 4);
  CHECK(word_run_end<'_', '$'>(s.data(), 0, s.size()) == 2);
  CHECK(word_run_end<'_', '$'>(s.data(), 3, s.size()) == 6);
}

namespace {
int g_computed = 0;  // calls of the uncached function below
struct Echo {
  std::size_t size = 0;
  char first = 0, last = 0;
};
Echo echo_uncached(std::string_view n) {
  ++g_computed;
  return {n.size(), n.empty() ? '\0' : n.front(), n.empty() ? '\0' : n.back()};
}
Echo echo(std::string_view n) { return cached_by_name<Echo, 8, echo_uncached>(n); }
}  // namespace

TEST_CASE("name_cache: a repeated name is answered from the cache, colliding names each get their own answer") {
  // classify_operator and name_facts keep their answers here: an answer given for the wrong name
  // would misclassify an operator, a cache that never hits would cost ~200 instructions each.
  g_computed = 0;
  auto check = [](std::string_view n, int computed_after) {
    const Echo e = echo(n);
    CHECK(e.size == n.size());
    if (!n.empty()) CHECK((e.first == n.front() && e.last == n.back()));
    CHECK_MESSAGE(g_computed == computed_after, n);
  };
  check("Project", 1);
  check("Project", 1);  // cached
  check("Filter", 2);
  check("Project", 2);
  // "aXbYc" and "aZbWc" share a slot (same length, first, middle and last bytes): the second
  // replaces the first, and neither is ever given the other's answer.
  check("aXbYc", 3);
  check("aZbWc", 4);
  check("aZbWc", 4);
  const std::string first = "aXbYc";
  const Echo e = echo(first);
  CHECK(g_computed == 5);
  CHECK(e.first == 'a');
  // The same bytes from another buffer hit; a name differing only inside (not hashed) does not.
  const std::string copy = "Filter";
  check(copy, 5);
  check("Filtor", 6);
  // Longer than the slot's 8 bytes, or empty: worked out every time.
  check("BroadcastHashJoin", 7);
  check("BroadcastHashJoin", 8);
  check("", 9);
  check("", 10);
  // Per thread: another thread works the name out once for itself.
  int other = 0;
  std::thread t([&] {
    const int before = g_computed;
    echo("Project");
    echo("Project");
    other = g_computed - before;
  });
  t.join();
  CHECK(other == 1);
  check("Project", 11);  // this thread's own answer is still there
}
