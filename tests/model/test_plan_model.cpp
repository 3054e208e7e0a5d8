#include <cstdio>
#include <random>
#include <string>
#include <doctest/doctest.h>

#include "model/plan_walk.hpp"
#include "parser/registry/detect.hpp"
#include "rules/rule.hpp"
#include "tests/kept_text.hpp"

using namespace planlint;

TEST_CASE("detect_format tells JSON profiles, event logs and text apart") {
  CHECK(detect_format("  {\"version\":\"1.2\",\"query\":{}}") == InputFormat::QueryProfile);
  CHECK(detect_format("{\"Event\":\"SparkListenerLogStart\"}\n{\"Event\":\"x\"}") == InputFormat::EventLog);
  CHECK(detect_format("== Physical Plan ==\n* Project (1)\n") == InputFormat::Unknown);
  CHECK(detect_format("\xEF\xBB\xBF{\"graphs\":[]}") == InputFormat::QueryProfile);
}

TEST_CASE("Plan::link fills parents and drops duplicate and self edges") {
  Plan p;
  p.ops.resize(3);
  for (std::size_t i = 0; i < 3; ++i) p.ops[i].index = i;
  p.ops[0].children = {1, 2, 1, 0, 7};
  p.link();
  CHECK(p.ops[0].children == std::vector<std::size_t>{1, 2});
  CHECK(p.ops[1].parents == std::vector<std::size_t>{0});
  CHECK(p.ops[2].parents == std::vector<std::size_t>{0});
  // One parent (one child) is kept inline, two or more in a block.
  CHECK(p.ops[1].parents.is_inline());
  CHECK_FALSE(p.ops[0].children.is_inline());
  // A list de-duplicated down to one index goes inline.
  p.ops[1].children = {2, 2};
  p.link();
  CHECK(p.ops[1].children == std::vector<std::size_t>{2});
  CHECK(p.ops[1].children.is_inline());
  CHECK(p.ops[2].parents == std::vector<std::size_t>{0, 1});
  CHECK_FALSE(p.ops[2].parents.is_inline());
  CHECK(p.ops[1].parents.is_inline());
  // A lone child (no marks: nothing to de-duplicate) that is the operator itself or past the plan
  // is dropped; the parents of an earlier link are not kept.
  p.ops[0].children = {0};
  p.ops[1].children = {3};
  p.ops[2].children = {1};
  p.link();
  CHECK(p.ops[0].children.empty());
  CHECK(p.ops[1].children.empty());
  CHECK(p.ops[2].children == std::vector<std::size_t>{1});
  CHECK(p.ops[0].parents.empty());
  CHECK(p.ops[1].parents == std::vector<std::size_t>{2});
  CHECK(p.ops[2].parents.empty());
  // Lone children and lists mixed: each child's parents in the order of the operators.
  p.ops[0].children = {2};
  p.ops[1].children = {2, 0, 2};
  p.ops[2].children = {};
  p.link();
  CHECK(p.ops[1].children == std::vector<std::size_t>{2, 0});
  CHECK(p.ops[2].parents == std::vector<std::size_t>{0, 1});
  CHECK(p.ops[0].parents == std::vector<std::size_t>{1});
}

TEST_CASE("model: Plan::relocate_all puts every location of the plan at one place") {
  Plan p;
  p.ops.resize(2);
  p.loc = {3, 1, 3, 9};
  p.ops[0].loc = {4, 2, 4, 7};
  p.ops[0].detail_loc = {9, 1, 9, 5};
  p.ops[0].fields.emplace_back().loc = SourceRange{10, 1, 10, 8};  // a field keeps its start
  p.ops[1].loc = {5, 4, 5, 8};
  p.ops[1].edit_runtime().stats.edit().loc = {5, 10, 5, 30};
  p.subqueries.emplace_back().loc = {12, 1, 12, 4};
  p.trailers.emplace_back().loc = {14, 1, 14, 20};
  p.ops[1].edit_runtime().hints.edit().emplace_back().loc = {6, 1, 6, 12};  // a logical node's hint
  p.photon.present = true;                                      // `== Photon Explanation ==`
  p.photon.loc = {16, 1, 16, 30};
  const SourceRange at{42, 1, 42, 2};
  p.relocate_all(at);
  auto same = [&at](const SourceRange& r) {
    return r.line == at.line && r.column == at.column && r.end_line == at.end_line && r.end_column == at.end_column;
  };
  CHECK(same(p.loc));
  for (const Operator& op : p.ops) {
    CHECK(same(op.loc));
    CHECK(same(op.detail_loc));
    for (const Field& f : op.fields) CHECK((f.loc.line == at.line && f.loc.column == at.column));  // a field keeps its start
  }
  CHECK(same(p.ops[1].stats()->loc));
  CHECK(same(p.subqueries[0].loc));
  CHECK(same(p.trailers[0].loc));
  CHECK(same(p.ops[1].hints()->front().loc));
  CHECK(same(p.photon.loc));
}

TEST_CASE("formatting helpers") {
  CHECK(format_bytes(512) == "512 B");
  CHECK(format_bytes(10.0 * 1024 * 1024) == "10.0 MiB");
  CHECK(format_count(1234567) == "1,234,567");
  CHECK(format_count(-1000) == "-1,000");
  CHECK(format_millis(250) == "250 ms");
  CHECK(format_millis(1500) == "1.5 s");
  CHECK(format_millis(200'000) == "3 min 20 s");
}

TEST_CASE("format_count: whole numbers written from their digits read as printf's %.0f did") {
  // What format_count wrote before whole numbers skipped printf: "%.0f", then a comma every three
  // digits.
  auto by_printf = [](double n) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", n);
    std::string s = buf, out;
    std::size_t start = (!s.empty() && s[0] == '-') ? 1 : 0;
    out = s.substr(0, start);
    for (std::size_t i = 0; i < s.size() - start; ++i) {
      if (i != 0 && (s.size() - start - i) % 3 == 0) out += ',';
      out += s[start + i];
    }
    return out;
  };
  for (double v : {0.0, -0.0, 1.0, -1.0, 7.0, 999.0, 1000.0, -1000.0, 123456.0, 2411725.0, 0.5, 1.5, 2.5, -2.5, 0.49,
                   999.5, 1e14 + 0.5, 999999999999999.0, -999999999999999.0, 9007199254740993.0 / 10, 4503599627370497.0 / 8})
    CHECK_MESSAGE(format_count(v) == by_printf(v), v);
  CHECK(format_count(-0.0) == "-0");
  CHECK(format_count(2.5) == "2");
}

TEST_CASE("model: column sets are sorted unique keys; a key printed as is stays a view") {
  TextStore store;
  const std::string printed = "t.Id#1, amount#2L, `Q`.`x`#3, cust.region";
  Text all = store.keep(printed);
  ColumnSet s;
  for (std::string_view part : {all.sub(0, 6), all.sub(8, 10), all.sub(20, 11), all.sub(33)}) s.add(column_key(store, Text::stable(part)));
  s.add(column_key(store, all.sub(8, 10)));  // a duplicate
  s.finish();
  CHECK(s.size() == 4);
  CHECK(s.contains("id"));
  CHECK(s.contains("amount"));
  CHECK(s.contains("x"));
  CHECK(s.contains("region"));
  CHECK_FALSE(s.contains("Id"));
  CHECK_FALSE(s.contains("t.id"));
  CHECK(s.count("amount") == 1);
  std::vector<std::string> keys;
  for (const Text& k : s) keys.emplace_back(k);
  CHECK(keys == std::vector<std::string>{"amount", "id", "region", "x"});
  // "amount" and "region" are parts of the kept text as printed: views, not copies.
  const char* b = all.view().data();
  auto inside = [&](std::string_view k) { return k.data() >= b && k.data() + k.size() <= b + all.size(); };
  CHECK(inside(column_key(store, all.sub(8, 10)).view()));
  CHECK(inside(column_key(store, all.sub(33)).view()));
  // The same key as column_key(string_view) gives, for every form.
  for (std::string_view n : {"t.Id#1", " a.b.C ", "`Q`.`x`#3", "\"Weird\".y", "plain", ""})
    CHECK(column_key(store, Text::stable(store.keep(n))).view() == column_key(n));
  // Blanks (' ', '\t' to '\r') at either end are dropped, other bytes below ' ' and high bytes kept:
  // the test of both ends' bytes before the trimming loops must not take one for the other.
  CHECK(column_key("\vab\r") == "ab");
  CHECK(column_key(" ab\f") == "ab");
  CHECK(column_key("ab ") == "ab");
  CHECK(column_key(" ab") == "ab");
  CHECK(column_key("\x1f" "ab\x01") == "\x1f" "ab\x01");
  CHECK(column_key("\x08" "ab\x0e") == "\x08" "ab\x0e");
  CHECK(column_key("\xE9" "ab\xFF") == "\xE9" "ab\xFF");
  CHECK(column_key(store, Text::stable(store.keep("\x1f" "ab#1"))).view() == "\x1f" "ab");
  CHECK(column_key(store, Text::stable(store.keep("\tab#1 "))).view() == "ab");
  CHECK(column_key(" ").empty());
  ColumnSet empty;
  empty.finish();
  CHECK(empty.empty());
  CHECK_FALSE(empty.contains(""));
}

TEST_CASE("model: column_key on random names of every length around 16 bytes is the last dotted segment, lower-cased") {
  // The plain reading (no quote or upper-case letter: a view) looks at names of 16 bytes or more
  // sixteen bytes at a time, and names of 4 to 15 bytes as one block padded with 'a's: both
  // readings against the rule written out byte by byte, with '#', dots, quotes, upper-case
  // letters, blanks and high bytes at every place.
  auto reference = [](std::string_view n) {
    auto blank = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
    while (!n.empty() && blank(n.front())) n.remove_prefix(1);
    while (!n.empty() && blank(n.back())) n.remove_suffix(1);
    n = n.substr(0, n.find('#'));
    std::string key;
    for (char c : n) {
      if (c == '`' || c == '"') continue;
      if (c == '.') key.clear();
      else key += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
    return key;
  };
  std::mt19937 rng(37);
  const std::string plain = "abcxyz_{|}~019";
  const std::string rare = std::string(".#`\" AZ\t@[") + '\x80' + '\xE9' + '\xFF';
  TextStore store;
  std::size_t views = 0;
  for (int round = 0; round < 20000; ++round) {
    const std::size_t len = static_cast<std::size_t>(round % 50);
    std::string n;
    for (std::size_t i = 0; i < len; ++i) {
      const bool odd = std::uniform_int_distribution<int>(0, 12)(rng) == 0;
      const std::string& from = odd ? rare : plain;
      n += from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(rng)];
    }
    INFO("name [" << n << "]");
    const std::string want = reference(n);
    REQUIRE(column_key(n) == want);
    // The Text form trims again what is before the '#' when the name needs the general reading
    // (a quote or an upper-case letter), so a blank right before the '#' is dropped there: a
    // difference older than the block reading, left as it is (outputs stay the same).
    const std::string_view before_hash = std::string_view(n).substr(0, n.find('#'));
    if (!before_hash.empty() && (before_hash.back() == ' ' || before_hash.back() == '\t') && n.find('#') != std::string::npos)
      continue;
    const Text kept = store.keep(n);
    const Text key = column_key(store, kept);
    REQUIRE(key.view() == want);
    const char* b = kept.view().data();
    views += !want.empty() && key.view().data() >= b && key.view().data() + key.size() <= b + kept.size();
  }
  CHECK(views > 5000);  // most names take the plain reading
}

TEST_CASE("model: simple_predicate's column is the attribute's column_key, a view into its name when that is the key") {
  // The key as simple_predicate built it when it was a std::string: column_key of the name, or of
  // column_name where the name has a backquote.
  auto reference = [](const Expr& a) {
    const std::string_view n = a.name;
    return n.find('`') == std::string_view::npos ? column_key(n) : column_key(column_name(a));
  };
  // A Catalyst filter and a v1 pushed filter on one attribute, renamed to `name` (names with a
  // blank before a '#', quotes or upper-case letters do not come out of the reader as such, yet
  // the key must be the same as before for any name).
  ParsedExpr catalyst = planlint::test::parse_kept("isnotnull(x#1)");
  ParsedExpr pushed = planlint::test::parse_kept("EqualTo(x,5)", ExprDialect::PushedFilter);
  REQUIRE(catalyst.root);
  REQUIRE(pushed.root);
  auto check = [&](std::string_view name) {
    INFO("name [" << name << "]");
    const Text kept = planlint::test::kept(name);
    for (ParsedExpr* pe : {&catalyst, &pushed}) {
      Expr& a = pe->root->args.front();
      REQUIRE(a.kind == ExprKind::Attribute);
      a.name = kept;
      const std::string want = reference(a);
      auto sp = simple_predicate(*pe->root);
      REQUIRE(sp);
      CHECK(sp->column.view() == want);
      CHECK(sp->column == want);
      // A copy and a move say the same (an owned key is no view into the object it was moved from).
      std::vector<ColumnKey> keys;
      for (int i = 0; i < 20; ++i) keys.push_back(sp->column);
      const ColumnKey moved = std::move(sp->column);
      CHECK(moved.view() == want);
      CHECK(keys.front().view() == want);
      CHECK(keys.back().view() == want);
      // A name without quote and upper-case letter holds its key: a view into it, no copy.
      const bool plain = name.find_first_of("`\"ABCDEFGHIJKLMNOPQRSTUVWXYZ") == std::string_view::npos;
      const char* b = kept.view().data();
      if (plain && !want.empty()) CHECK((moved.view().data() >= b && moved.view().data() + want.size() <= b + kept.size()));
    }
  };
  for (std::string_view n : {"amount", "d_year", "t.amount", "T.Amount", "Amount", "`Q`.`x`", "`a b`", "\"Weird\".y",
                             " x ", "a.b.c", "ctr_store_sk#12", "Ab #3", "ab #3", "`a` #1", "a#1`", "A#1", "a.B#2",
                             "a_very_long_column_name_over_sixteen", "A_VERY_LONG_COLUMN_NAME_OVER_SIXTEEN",
                             "schema.table.a_very_long_column_name#77", "`Sch`.`Long_Column_Name_Quoted` #5", "", "."})
    check(n);
  // Random names of every length around 16 bytes (the plain reading's blocks), rare bytes at any place.
  std::mt19937 rng(91);
  const std::string common = "abcxyz_019";
  const std::string rare = std::string(".#`\" AZ\t");
  for (int round = 0; round < 3000; ++round) {
    std::string n;
    for (int i = 0; i < round % 40; ++i) {
      const std::string& from = std::uniform_int_distribution<int>(0, 8)(rng) == 0 ? rare : common;
      n += from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(rng)];
    }
    check(n);
  }
}

TEST_CASE("model: without_ids drops expression and plan ids, keeps subquery ids; the appending form agrees") {
  CHECK(without_ids("a#12L, b#3") == "a, b");
  CHECK(without_ids("Exchange hashpartitioning(a#1, 200), ENSURE_REQUIREMENTS, [id=#45]") ==
        "Exchange hashpartitioning(a, 200), ENSURE_REQUIREMENTS, ");
  CHECK(without_ids("Scan parquet t [plan_id=7]") == "Scan parquet t ");
  CHECK(without_ids("dynamicpruning#3 [x#1]") == "dynamicpruning#3 [x]");
  CHECK(without_ids("scalar-subquery#9 []") == "scalar-subquery#9 []");
  CHECK(without_ids("a#") == "a#");
  CHECK(without_ids("[id=#1") == "[id=");
  // append_without_ids(out, s) == out + without_ids(s): the word before a '#' is judged on s alone
  // ("sub" already in out does not make "query#1" a subquery reference).
  for (std::string_view prefix : {"", "sub", "x|", "dynamicpruning"}) {
    for (std::string_view s : {"query#1", "a#12L", "subquery#4, b#2", "#5", "dynamicpruning#7", "[id=#2] y#3L"}) {
      std::string out(prefix);
      append_without_ids(out, s);
      CHECK(out == std::string(prefix) + without_ids(s));
    }
  }
}
