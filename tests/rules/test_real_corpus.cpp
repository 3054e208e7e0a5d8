// The real-plan corpus (corpus/real): plans people published, damage included, each with a label
// written by hand (corpus/real/labels.toml). Every parse label (operator counts, tree depth, plan
// count, no unread line) must hold. Rule labels: `must_fire` / `must_not_fire` must hold;
// `pending` entries are what an expert expects but today's rules do not do yet (rule judgement is
// issue #15 item 5): they are reported, not asserted.
// `known_miss` (issue 34 item 4): labels written blind that today's planlint misses on first
// contact. Each listed label is asserted NOT to hold (strict: when a repair makes it hold, the test
// fails until the entry is removed), so a miss is neither dropped nor counted as passing. Keys:
// "read" (nothing is read; the tree labels wait for it), "physical", "logical", "depth", "plans",
// "errors", "partial", "locations", "must_fire:RULE", "must_not_fire:RULE"; `miss_why` says why.
#include <doctest/doctest.h>
#include "lint/core/toml.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lint/core/config.hpp"
#include "lint/engine/engine.hpp"
#include "model/read_check.hpp"
#include "tests/support.hpp"

namespace fs = std::filesystem;
using planlint::test::corpus_dir;
using planlint::test::read_file;

namespace {

struct Label {
  std::string file;
  std::int64_t physical = 0;
  std::int64_t logical = 0;
  std::int64_t depth = 0;
  std::int64_t plans = 1;
  bool unreadable = false;   // nothing can be read: the answer must be an error with a hint
  bool partial = false;      // part of the text is not a plan: a warning must say which lines
  std::vector<std::string> must_fire, must_not_fire;
  std::vector<std::string> known_miss;  // labels asserted not to hold today (strict known misses)
  std::string miss_why;
  bool known(const std::string& key) const {
    return std::find(known_miss.begin(), known_miss.end(), key) != known_miss.end();
  }
  struct Pending {
    std::string rule, expect, reason;
  };
  std::vector<Pending> pending;
};

std::vector<std::string> strings(const toml::node* v) {
  std::vector<std::string> out;
  if (const auto* a = v ? v->as_array() : nullptr)
    for (const auto& e : *a)
      if (auto s = e.value<std::string>()) out.push_back(*s);
  return out;
}

struct Labels {
  std::vector<Label> plans;
  std::vector<std::string> never;  // rules that need runtime evidence: silent on any explain text
};

Labels load_labels() {
  Labels out;
  toml::table t = toml::parse_file((corpus_dir() / "real" / "labels.toml").string());
  out.never = strings(t.get("never_on_explain_text"));
  if (const auto* arr = t["plan"].as_array())
    for (const auto& n : *arr) {
      const auto* p = n.as_table();
      REQUIRE(p);
      Label l;
      l.file = (*p)["file"].value_or(std::string());
      l.physical = (*p)["physical"].value_or<std::int64_t>(0);
      l.logical = (*p)["logical"].value_or<std::int64_t>(0);
      l.depth = (*p)["depth"].value_or<std::int64_t>(0);
      l.plans = (*p)["plans"].value_or<std::int64_t>(1);
      l.unreadable = (*p)["unreadable"].value_or(false);
      l.partial = (*p)["partial"].value_or(false);
      l.must_fire = strings(p->get("must_fire"));
      l.must_not_fire = strings(p->get("must_not_fire"));
      l.known_miss = strings(p->get("known_miss"));
      l.miss_why = (*p)["miss_why"].value_or(std::string());
      if (const auto* pend = (*p)["pending"].as_array())
        for (const auto& e : *pend) {
          const auto* pt = e.as_table();
          REQUIRE(pt);
          l.pending.push_back({(*pt)["rule"].value_or(std::string()), (*pt)["expect"].value_or(std::string("fire")),
                               (*pt)["reason"].value_or(std::string())});
        }
      out.plans.push_back(std::move(l));
    }
  return out;
}

// Longest chain of physical operators through `children` (a person's tree height).
std::int64_t physical_depth(const planlint::Plan& plan) {
  std::vector<std::int64_t> memo(plan.ops.size(), -1);
  std::function<std::int64_t(std::size_t)> depth = [&](std::size_t i) -> std::int64_t {
    if (memo[i] >= 0) return memo[i];
    memo[i] = 1;  // cycle guard
    std::int64_t best = 0;
    for (std::size_t c : plan.ops[i].children)
      if (c < plan.ops.size() && !plan.ops[c].logical) best = std::max(best, depth(c));
    return memo[i] = best + 1;
  };
  std::int64_t d = 0;
  for (std::size_t i = 0; i < plan.ops.size(); ++i)
    if (!plan.ops[i].logical) d = std::max(d, depth(i));
  return d;
}

// Original text at a source position, for the location checks.
std::string_view at(const std::vector<std::string_view>& lines, std::uint32_t line, std::uint32_t col) {
  if (line == 0 || line > lines.size()) return {};
  std::string_view l = lines[line - 1];
  if (col == 0 || col > l.size() + 1) return {};
  return l.substr(col - 1);
}

std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t b = 0;
  while (b <= s.size()) {
    std::size_t e = s.find('\n', b);
    if (e == std::string_view::npos) e = s.size();
    out.push_back(s.substr(b, e - b));
    b = e + 1;
  }
  return out;
}

}  // namespace

TEST_CASE("real corpus: every plan file has a label and provenance, at least 90 real plans") {
  Labels labels = load_labels();
  std::set<std::string> labelled;
  for (const auto& l : labels.plans) labelled.insert(l.file);
  std::string provenance = read_file(corpus_dir() / "real" / "PROVENANCE.md");
  std::size_t real = 0;
  for (const auto& e : fs::directory_iterator(corpus_dir() / "real")) {
    std::string name = e.path().filename().string();
    if (e.path().extension() != ".txt") continue;
    INFO(name);
    CHECK(labelled.count(name) == 1);
    CHECK(provenance.find("| " + name + " |") != std::string::npos);
    if (name[0] != 'D') ++real;
  }
  CHECK(real >= 90);
  for (const auto& f : labelled) {
    INFO(f);
    CHECK(fs::exists(corpus_dir() / "real" / f));
  }
}

namespace {

// A label's check: asserted to hold, or, when the label lists it in `known_miss`, asserted not to
// hold (so a repair that makes it hold is noticed and the entry removed).
struct LabelCheck {
  const Label& label;
  std::size_t& known_misses;
  std::set<std::string>& seen;
  void operator()(const std::string& key, bool holds) {
    INFO("label: " << key);
    if (label.known(key)) {
      seen.insert(key);
      ++known_misses;
      INFO("known miss (" << label.miss_why << "): it holds now, remove it from known_miss");
      CHECK_FALSE(holds);
    } else {
      CHECK(holds);
    }
  }
};

}  // namespace

TEST_CASE("real corpus: each plan parses into the tree a person draws, and every rule label holds") {
  Labels labels = load_labels();
  planlint::Config config;
  std::size_t pending_total = 0, pending_now = 0, known_misses = 0;
  std::map<std::string, std::pair<int, int>> per_rule;  // rule -> (labelled fire, holds)
  for (const auto& l : labels.plans) {
    INFO("corpus/real/" << l.file);
    std::string text = read_file(corpus_dir() / "real" / l.file);
    auto res = planlint::lint_text(text, l.file, config);
    const auto& r = res.parse;
    std::int64_t phys = 0, logi = 0, depth = 0;
    for (const auto& p : r.plans) {
      for (const auto& o : p.ops) (o.logical ? logi : phys)++;
      depth = std::max(depth, physical_depth(p));
    }
    std::string messages;
    bool errors = false, warn_unread = false;
    for (const auto& m : r.messages) {
      messages += std::to_string(m.loc.line) + ":" + std::to_string(m.loc.column) + ": " + m.message + "\n";
      errors = errors || m.severity == planlint::MessageSeverity::Error;
      warn_unread = warn_unread || m.message.find("not understood") != std::string::npos;
    }
    INFO("messages:\n" << messages);
    if (l.unreadable) {
      CHECK(planlint::read_nothing(r));
      CHECK(messages.find("hint: ") != std::string::npos);
      continue;
    }
    std::set<std::string> seen;  // known_miss keys that were checked
    LabelCheck expect{l, known_misses, seen};
    expect("read", !planlint::read_nothing(r));
    if (!l.known("read")) {
      expect("physical", phys == l.physical);
      expect("logical", logi == l.logical);
      expect("depth", depth == l.depth);
      expect("plans", static_cast<std::int64_t>(r.plans.size()) == l.plans);
      expect("errors", !errors);
      expect("partial", warn_unread == l.partial);

      // Every operator points at its own text in the user's file, after all the repairs.
      auto lines = split_lines(text);
      bool located = true;
      for (const auto& p : r.plans)
        for (const auto& o : p.ops) {
          if (o.loc.line == 0) continue;
          std::string_view src = at(lines, o.loc.line, o.loc.column);
          std::string word(o.label.substr(0, std::min<std::size_t>(o.label.find_first_of(" [(:"), 12)));
          if (word.empty()) continue;
          bool here = src.substr(0, 24).find(word) != std::string_view::npos;
          if (!here && !l.known("locations"))
            MESSAGE("operator " << o.name << " at " << o.loc.line << ":" << o.loc.column << " reads '"
                                << std::string(src.substr(0, 40)) << "'");
          located = located && here;
        }
      expect("locations", located);
    }

    std::set<std::string> fired;
    for (const auto& d : res.diagnostics) fired.insert(d.rule);
    for (const auto& rule : l.must_fire) expect("must_fire:" + rule, fired.count(rule) == 1);
    for (const auto& rule : l.must_not_fire) expect("must_not_fire:" + rule, fired.count(rule) == 0);
    // A known_miss entry that names no label of this file is a typo, not a miss.
    for (const auto& key : l.known_miss) {
      INFO("known_miss entry '" << key << "' names no label of this file");
      CHECK(seen.count(key) == 1);
    }
    for (const auto& rule : labels.never) {
      INFO("needs runtime evidence, must not fire on explain text: " << rule);
      CHECK(fired.count(rule) == 0);
    }
    for (const auto& p : l.pending) {
      ++pending_total;
      bool holds = p.expect == "fire" ? fired.count(p.rule) == 1 : fired.count(p.rule) == 0;
      if (holds) ++pending_now;
      MESSAGE("pending (" << (holds ? "holds now" : "not yet") << "): " << l.file << ": " << p.rule << " should "
                          << p.expect << " -- " << p.reason);
    }
  }
  MESSAGE("pending rule labels: " << pending_total << ", of which " << pending_now << " already hold");
  MESSAGE("known misses (labels asserted not to hold today): " << known_misses);
}

TEST_CASE("never a silent empty answer: unreadable text is an error with a hint, exit 2") {
  planlint::Config config;
  SUBCASE("prose") {
    auto res = planlint::lint_text("I ran explain and got this, why is it slow?\n", "q.txt", config);
    CHECK(planlint::read_nothing(res.parse));
    REQUIRE_FALSE(res.parse.messages.empty());
    CHECK(res.parse.messages.back().message.find("no operators were read") != std::string::npos);
    CHECK(res.parse.messages.back().message.find("hint: ") != std::string::npos);
  }
  SUBCASE("a header and nothing under it") {
    auto res = planlint::lint_text("== Physical Plan ==\n\n", "q.txt", config);
    CHECK(planlint::read_nothing(res.parse));
    CHECK(res.parse.has_errors());
  }
  SUBCASE("numbers that do not start at 00: the hint names the damage") {
    auto res = planlint::lint_text("07 Project [a#1]\n08 Filter (a#1 > 0)\n09 Range (0, 10, step=1, splits=2)\n",
                                   "q.txt", config);
    CHECK(planlint::read_nothing(res.parse));
    CHECK(res.parse.messages.back().message.find("numbered tree string") != std::string::npos);
  }
  SUBCASE("a plan with unread lines says which lines") {
    auto res = planlint::lint_text(
        "== Physical Plan ==\n*(1) Project [a#1]\n+- *(1) Filter (a#1 > 0)\n   +- *(1) Range (0, 10, step=1, "
        "splits=2)\n\nthis line is not a plan line\n",
        "q.txt", config);
    CHECK(planlint::operator_count(res.parse) == 3);
  }
}

TEST_CASE("paste repair keeps every location on the user's text") {
  planlint::Config config;
  SUBCASE("markdown escape: the operator after '\\*(1) ' points at the '*', not the backslash") {
    std::string text = "== Physical Plan == \\*(1) ColumnarToRow +- FileScan orc t[a#1] Batched: true\n";
    auto res = planlint::lint_text(text, "q.md", config);
    REQUIRE(planlint::operator_count(res.parse) == 2);
    const auto& ops = res.parse.plans.front().ops;
    auto lines = split_lines(text);
    for (const auto& o : ops) {
      INFO(o.name);
      std::string_view src = at(lines, o.loc.line, o.loc.column);
      // An operator's range starts at its codegen marker: `*(1) ColumnarToRow` after the `\`.
      CHECK((src.substr(0, 18) == "*(1) ColumnarToRow" || src.substr(0, 8) == "FileScan"));
    }
  }
  SUBCASE("HTML entities: a range over '&gt;' ends after the entity") {
    std::string text = "== Physical Plan ==\n*(1) Filter (a#1 &gt; 0)\n+- *(1) Range (0, 10, step=1, splits=2)\n";
    auto res = planlint::lint_text(text, "q.html", config);
    REQUIRE(planlint::operator_count(res.parse) == 2);
    const auto& f = res.parse.plans.front().ops.front();
    CHECK(f.loc.line == 2);
    CHECK(f.loc.column == 1);
    CHECK(f.loc.end_column == 25);  // one past ')' in the original line (21 in the decoded one)
  }
  SUBCASE("a hand-wrapped line is one operator whose range spans both lines") {
    std::string text =
        "== Physical Plan ==\nHashAggregate(keys=[a#1], functions=[count(1)], \noutput=[a#1, count#2L])\n"
        "+- LocalTableScan [a#1]\n";
    auto res = planlint::lint_text(text, "q.txt", config);
    REQUIRE(planlint::operator_count(res.parse) == 2);
    const auto& h = res.parse.plans.front().ops.front();
    CHECK(h.loc.line == 2);
    CHECK(h.loc.end_line == 3);
  }
}
