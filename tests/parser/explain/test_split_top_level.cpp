// split_top_level (parser/explain/explain_ops.cpp) reads sixteen bytes at a time, or 32 (AVX2,
// `split_wide`) for a text of 32 bytes or more: it must split exactly where a plain byte-by-byte
// reading does, on hand-made lists and on random texts of the bytes that matter (brackets,
// separators, `[id=#`), at every length around the 16- and 32-byte blocks, both ways.
#include <doctest/doctest.h>

#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "parser/explain/explain_ops.hpp"
#include "model/plan.hpp"
#include "support/text.hpp"
#include "tests/support.hpp"

using planlint::explain::split_top_level;

namespace {

// The reference: one byte at a time, brackets of any kind nest, a separator at depth 0 ends an
// item unless `[id=#` follows it.
std::vector<std::string_view> reference(std::string_view s, std::string_view sep) {
  std::vector<std::string_view> out;
  if (s.empty() || sep.empty()) return out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == sep[0]) {
      if (depth != 0 || s.substr(i, sep.size()) != sep) continue;
      const std::size_t next = i + sep.size();
      if (s.substr(next).starts_with("[id=#")) continue;
      out.push_back(s.substr(start, i - start));
      start = next;
      i = next - 1;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      depth = depth > 0 ? depth - 1 : 0;
    }
  }
  out.push_back(s.substr(start));
  return out;
}


// Both readings where the processor has both (AVX2), else the 16-byte one twice.
std::vector<bool> split_widths() {
  static const bool has_wide = planlint::explain::split_wide;
  return has_wide ? std::vector<bool>{false, true} : std::vector<bool>{false};
}

}  // namespace

TEST_CASE("split_top_level: hand-made lists") {
  using V = std::vector<std::string_view>;
  CHECK(split_top_level("a#1, b#2, c#3") == V{"a#1", "b#2", "c#3"});
  CHECK(split_top_level("f(a, b), [c, d], {e, f}, g") == V{"f(a, b)", "[c, d]", "{e, f}", "g"});
  CHECK(split_top_level("Subquery scalar-subquery#2, [id=#3], x#4") == V{"Subquery scalar-subquery#2, [id=#3]", "x#4"});
  CHECK(split_top_level("a,b, c", ",") == V{"a", "b", " c"});
  CHECK(split_top_level("Inner BuildRight", " ") == V{"Inner", "BuildRight"});
  CHECK(split_top_level("a)), b, (c", ", ") == V{"a))", "b", "(c"});
  CHECK(split_top_level("", ", ").empty());
  CHECK(split_top_level("a,", ", ") == V{"a,"});
  CHECK(split_top_level("a, ", ", ") == V{"a", ""});
}

TEST_CASE("split_top_level: the same splits as a byte-by-byte reading, on random texts") {
  std::mt19937 rng(37);
  const std::string bytes = "ab#1(([{)]}, , ,  [id=#x";
  std::size_t items = 0;
  for (const bool wide : split_widths()) {
    const planlint::test::SetForScope<bool> reading(planlint::explain::split_wide, wide);
    for (int round = 0; round < 20000; ++round) {
      const std::size_t len = static_cast<std::size_t>(round % 110);
      std::string s;
      for (std::size_t i = 0; i < len; ++i) s += bytes[std::uniform_int_distribution<std::size_t>(0, bytes.size() - 1)(rng)];
      for (std::string_view sep : {", ", ",", " "}) {
        const auto want = reference(s, sep);
        const auto got = split_top_level(s, sep);
        items += got.size();
        INFO("text [" << s << "] sep [" << sep << "] wide " << wide);
        REQUIRE(got == want);
      }
    }
  }
  CHECK(items > 100000);
}

TEST_CASE("split_top_level: the 32-byte reading splits as the 16-byte one, brackets and separators at every place") {
  // Texts of 32 to 100 bytes (the 32-byte reading's lengths) with a bracket or a separator at
  // each place around the block bounds (31 / 32 / 33, 63 / 64, the last byte): both readings give
  // the same items and see the same dots and newlines.
  if (split_widths().size() < 2) return;  // no AVX2 here: the 16-byte reading is the only one
  const std::string marks[] = {"(", ")", "[", "]", "{", "}", ", ", ",", " ", ", [id=#", ".", "\n", "\xFB", "\xFD"};
  std::size_t compared = 0;
  for (std::size_t len = 32; len <= 100; ++len) {
    for (std::size_t at = 0; at < len; ++at) {
      for (const std::string& m : marks) {
        std::string s(len, 'a');
        for (std::size_t k = 0; k < m.size() && at + k < len; ++k) s[at + k] = m[k];
        if (len > 40) s.replace(3, 2, ", ");  // an item ends early too
        for (std::string_view sep : {", ", ",", " "}) {
          std::vector<std::string_view> narrow, wide;
          unsigned seen_narrow = 91, seen_wide = 92;
          {
            const planlint::test::SetForScope<bool> reading(planlint::explain::split_wide, false);
            split_top_level(s, sep, narrow);
            if (sep == ", ") split_top_level(s, sep, narrow, &seen_narrow);
          }
          {
            const planlint::test::SetForScope<bool> reading(planlint::explain::split_wide, true);
            split_top_level(s, sep, wide);
            if (sep == ", ") split_top_level(s, sep, wide, &seen_wide);
          }
          INFO("text [" << s << "] sep [" << sep << "]");
          REQUIRE(wide == narrow);
          REQUIRE(wide == reference(s, sep));
          if (sep == ", ") REQUIRE(seen_wide == seen_narrow);
          ++compared;
        }
      }
    }
  }
  CHECK(compared > 100000);
}

TEST_CASE("split_top_level: what it says it saw (dots, newlines) is in the text, on random texts") {
  // finish_field takes from the split whether a list value holds a '.' (a "..." needs one) and a
  // newline (no list then): both must be exactly what a search of the text finds, and the items
  // the same as without the question, at every length around the 16-byte blocks (the last block
  // overlaps the one before it; a text shorter than 16 bytes is read from a padded copy).
  std::mt19937 rng(41);
  const std::string bytes = "ab#1(([{)]}, , ,  [id=#x...\n\r";
  std::size_t dots = 0, newlines = 0;
  for (int round = 0; round < 40000; ++round) {
    const std::size_t len = static_cast<std::size_t>(round % 110);
    const planlint::test::SetForScope<bool> reading(planlint::explain::split_wide, split_widths().back() && round % 2 == 1);
    std::string s;
    for (std::size_t i = 0; i < len; ++i) {
      // Mostly plain bytes, so that texts without a dot or a newline are common too.
      const bool rare = std::uniform_int_distribution<int>(0, 40)(rng) == 0;
      s += rare ? bytes[std::uniform_int_distribution<std::size_t>(bytes.size() - 5, bytes.size() - 1)(rng)]
                : bytes[std::uniform_int_distribution<std::size_t>(0, bytes.size() - 6)(rng)];
    }
    for (std::string_view sep : {", ", ",", " "}) {
      std::vector<std::string_view> got;
      unsigned seen = 99;
      split_top_level(s, sep, got, &seen);
      INFO("text [" << s << "] sep [" << sep << "]");
      REQUIRE(got == reference(s, sep));
      const bool dot = s.find('.') != std::string::npos, nl = s.find('\n') != std::string::npos;
      REQUIRE(((seen & planlint::explain::kSeenDot) != 0) == dot);
      REQUIRE(((seen & planlint::explain::kSeenNewline) != 0) == nl);
      dots += dot;
      newlines += nl;
    }
  }
  CHECK(dots > 10000);
  CHECK(newlines > 5000);
}

namespace {

// split_top_level's own readings of ", ", "," and " " against the general one, items and what it
// saw: the same answer for `s`.
void check_fixed_against_general_now(std::string_view s) {
  std::vector<std::string_view> fixed, general;
  for (std::string_view sep : {", ", ",", " "}) {
    split_top_level(s, sep, fixed);
    planlint::explain::split_top_level_general(s, sep, general);
    INFO("text [" << s << "] sep [" << sep << "]");
    REQUIRE(fixed == general);
  }
  unsigned seen_fixed = 99, seen_general = 77;
  split_top_level(s, ", ", fixed, &seen_fixed);
  planlint::explain::split_top_level_general(s, ", ", general, &seen_general);
  INFO("text [" << s << "] with seen");
  REQUIRE(fixed == general);
  REQUIRE(seen_fixed == seen_general);
}

// The same with each reading split_top_level has here (16 bytes at a time, and 32 with AVX2).
void check_fixed_against_general(std::string_view s) {
  for (const bool wide : split_widths()) {
    const planlint::test::SetForScope<bool> reading(planlint::explain::split_wide, wide);
    check_fixed_against_general_now(s);
  }
}

}  // namespace

TEST_CASE("split_top_level: the readings of \", \", \",\" and \" \" split as the general one, on random texts") {
  // Bytes that fold onto a bracket under `& 0xDF` only when they are one ('{' '}' and the
  // high bytes 0xFB / 0xFD are not '[' / ']'), separators, "[id=#", dots and newlines, at every
  // length around the 16-byte blocks.
  std::mt19937 rng(43);
  const std::string bytes = std::string("ab#1(([{)]}, , ,  [id=#x...\n;:{}") + '\xFB' + '\xFD' + '\x7B' + '\x5D' + '\x1B';
  for (int round = 0; round < 20000; ++round) {
    const std::size_t len = static_cast<std::size_t>(round % 110);
    std::string s;
    for (std::size_t i = 0; i < len; ++i) s += bytes[std::uniform_int_distribution<std::size_t>(0, bytes.size() - 1)(rng)];
    check_fixed_against_general(s);
  }
  // The general reading still splits a separator whose second byte is looked at (",,", ", (").
  std::vector<std::string_view> out;
  planlint::explain::split_top_level_general("a,,b,,,c", ",,", out);
  CHECK(out == std::vector<std::string_view>{"a", "b", ",c"});
  split_top_level("a,,b,,,c", ",,", out);
  CHECK(out == std::vector<std::string_view>{"a", "b", ",c"});
  // The '(' of a separator ",(" belongs to it (skipped), not to the depth.
  planlint::explain::split_top_level_general("a,(b),c,(d", ",(", out);
  CHECK(out == std::vector<std::string_view>{"a", "b),c", "d"});
  CHECK(out == reference("a,(b),c,(d", ",("));
}

TEST_CASE("split_top_level: the readings of \", \", \",\" and \" \" split as the general one, on corpus lines") {
  // Every line of the plans in corpus/ (and ../shared/corpus when it is there), whole and as the
  // inside of a `Key [N]: [...]` list value (what finish_field splits).
  namespace fs = std::filesystem;
  std::vector<fs::path> roots{planlint::test::corpus_dir()};
  if (auto shared = planlint::test::shared_dir()) roots.push_back(*shared / "corpus");
  std::size_t lines = 0, lists = 0;
  for (const fs::path& root : roots) {
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (!e.is_regular_file() || e.path().extension() != ".txt") continue;
      const std::string text = planlint::test::read_file(e.path());
      std::string_view rest = text;
      while (!rest.empty()) {
        const std::size_t nl = rest.find('\n');
        const std::string_view line = rest.substr(0, nl);
        rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
        check_fixed_against_general(line);
        ++lines;
        if (const std::size_t colon = line.find(": ["); colon != std::string_view::npos && line.back() == ']') {
          check_fixed_against_general(line.substr(colon + 3, line.size() - colon - 4));
          ++lists;
        }
      }
    }
  }
  CHECK(lines > 1000);
  CHECK(lists > 100);
}

namespace {

// finish_field on a field `key: value` of its own store: the items it kept (views into the
// field's value) and, for a key with expressions, the texts it parsed.
struct FinishedList {
  bool is_list = false;
  bool wide = false;
  bool count_mismatch = false;
  std::vector<std::string_view> items, parsed;
  std::string_view value;
};
FinishedList finish_list_field(planlint::TextStore& store, planlint::Field& f, std::string_view key, const std::string& value,
                               std::optional<std::size_t> count) {
  f.key = store.keep(key);
  f.value = store.keep(value);
  f.set_count(count);
  std::vector<planlint::ParseMessage> msgs;
  planlint::explain::finish_field(store, f, msgs, planlint::SourceRange{}, planlint::SourceRange{});
  FinishedList r;
  r.is_list = f.is_list;
  r.wide = f.item_spans.wide();
  r.count_mismatch = f.count_mismatch;
  r.value = f.value;
  for (std::string_view it : f.items()) r.items.push_back(it);
  for (const auto& e : f.exprs) r.parsed.push_back(std::string_view(e.text));
  return r;
}

// The same views: equal texts at the same places.
bool same_views(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (a[k].data() != b[k].data() || a[k].size() != b[k].size()) return false;
  return true;
}

}  // namespace

TEST_CASE("finish_field: a list value's items are the split's, written straight into the field's spans") {
  // finish_field splits a value shorter than 65,535 bytes straight into ItemSpans' words (places
  // counted from the value's '['), longer ones through views: the items must be split_top_level's
  // of the inside, at the same places of the field's value, with either reading, for a key without
  // expressions (Output) and one with (Keys: one parsed text an item, each that item); a value
  // with a newline is no list; the printed count is compared with the items.
  std::mt19937 rng(3737);
  const std::string bytes = "ab#1(([{)]}, , ,  [id=#x.";
  std::size_t lists = 0, items = 0, parsed = 0;
  for (const bool wide : split_widths()) {
    const planlint::test::SetForScope<bool> reading(planlint::explain::split_wide, wide);
    for (int round = 0; round < 6000; ++round) {
      const std::size_t len = static_cast<std::size_t>(round % 110);
      std::string inner;
      for (std::size_t i = 0; i < len; ++i) inner += bytes[std::uniform_int_distribution<std::size_t>(0, bytes.size() - 1)(rng)];
      if (round % 13 == 5 && len > 0) inner[std::uniform_int_distribution<std::size_t>(0, len - 1)(rng)] = '\n';
      const std::string value = "[" + inner + "]";
      for (std::string_view key : {"Output", "Keys"}) {
        planlint::TextStore store;
        planlint::Field f;
        const std::size_t want_count = reference(inner, ", ").size();
        const std::optional<std::size_t> count =
            round % 3 == 0 ? std::optional<std::size_t>() : std::optional<std::size_t>(want_count + (round % 3 == 2 ? 1 : 0));
        const FinishedList got = finish_list_field(store, f, key, value, count);
        INFO("value [" << value << "] key " << key << " wide " << wide);
        const bool list = inner.find('\n') == std::string::npos;
        REQUIRE(got.is_list == list);
        if (!list) {
          CHECK(got.items.empty());
          continue;
        }
        const std::vector<std::string_view> want = reference(got.value.substr(1, got.value.size() - 2), ", ");
        REQUIRE(same_views(got.items, want));
        CHECK_FALSE(got.wide);
        CHECK(got.count_mismatch == (count && *count != want.size()));
        if (key == "Keys") {
          REQUIRE(same_views(got.parsed, want));
          parsed += got.parsed.size();
        } else {
          CHECK(got.parsed.empty());
        }
        ++lists;
        items += want.size();
      }
    }
  }
  CHECK(lists > 10000);
  CHECK(items > 20000);
  CHECK(parsed > 10000);
  // Values around 65,535 bytes: narrow words below it, views (and wide spans once an item begins
  // past 16 bits) from it on.
  for (const std::size_t size : {std::size_t{0xFFFE}, std::size_t{0xFFFF}, std::size_t{70000}}) {
    std::string value = "[";
    while (value.size() + 1 < size) value += value.size() % 7 == 0 ? "f(a, b), " : "x#1, ";
    value.resize(size - 1, 'y');
    value += ']';
    planlint::TextStore store;
    planlint::Field f;
    const FinishedList got = finish_list_field(store, f, "Output", value, std::nullopt);
    INFO("size " << size);
    REQUIRE(got.is_list);
    const std::vector<std::string_view> want = reference(got.value.substr(1, got.value.size() - 2), ", ");
    CHECK(want.size() > 5000);
    REQUIRE(same_views(got.items, want));
    CHECK(got.wide == (size == 70000));
  }
}
