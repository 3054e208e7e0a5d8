// The runtime artefacts of corpus/real-runtime (issue 34 item 4): event logs and History Server
// fragments that other projects published, each labelled blind in corpus/real-runtime/labels.toml
// before planlint was run on it. Every label that holds today is asserted. A label that misses
// today is listed in the input's `known_miss` (with `miss_why`) and asserted NOT to hold, so that a
// repair makes this test fail until the label is moved out of `known_miss`: the first-contact
// figure of docs/real-plans.md stays true.
//
// Label keys (the names used in `known_miss`): `read`, `executions`, `physical`, `depth`,
// `task_time`, `numbers` (every time a finding quotes is at most the query's task time, every
// percent at most 100, every scan size at most the data the query read), `must_fire:RULE`,
// `must_not_fire:RULE`. `physical_corrected` / `depth_corrected` / `executions_corrected` are
// counting-convention corrections written after first contact (docs/real-plans.md, "label
// corrections"); `must_fire_corrected` / `must_not_fire_corrected` are rule-label corrections, each
// with its `rule_correction_why`. The blind values stay in the file.
#include <doctest/doctest.h>
#include "lint/core/toml.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "lint/core/config.hpp"
#include "lint/engine/engine.hpp"
#include "model/read_check.hpp"
#include "tests/support.hpp"

namespace fs = std::filesystem;
using planlint::test::corpus_dir;

namespace {

struct RuntimeLabel {
  std::string file;
  std::int64_t executions = 0;
  std::optional<std::int64_t> main_execution;
  std::int64_t physical = 0, depth = 0;
  std::optional<std::int64_t> task_time_ms, data_read_bytes;
  bool unreadable = false;
  std::vector<std::string> must_fire, must_not_fire, known_miss;
  std::string miss_why;
};

std::vector<std::string> toml_strings(const toml::node* v) {
  std::vector<std::string> out;
  if (const auto* a = v ? v->as_array() : nullptr)
    for (const auto& e : *a)
      if (auto s = e.value<std::string>()) out.push_back(*s);
  return out;
}

std::optional<std::int64_t> integer(const toml::table& t, std::string_view key) {
  if (auto v = t[key].value<std::int64_t>()) return *v;
  return std::nullopt;
}

std::vector<RuntimeLabel> load_runtime_labels() {
  std::vector<RuntimeLabel> out;
  toml::table t = toml::parse_file((corpus_dir() / "real-runtime" / "labels.toml").string());
  if (const auto* arr = t["input"].as_array())
    for (const auto& n : *arr) {
      const auto* p = n.as_table();
      REQUIRE(p);
      RuntimeLabel l;
      l.file = (*p)["file"].value_or(std::string());
      l.executions = integer(*p, "executions_corrected").value_or((*p)["executions"].value_or<std::int64_t>(0));
      l.main_execution = integer(*p, "main_execution");
      // A counting-convention correction written after first contact replaces the blind count.
      l.physical = integer(*p, "physical_corrected").value_or((*p)["physical"].value_or<std::int64_t>(0));
      l.depth = integer(*p, "depth_corrected").value_or((*p)["depth"].value_or<std::int64_t>(0));
      l.task_time_ms = integer(*p, "task_time_ms");
      l.data_read_bytes = integer(*p, "data_read_bytes");
      l.unreadable = (*p)["unreadable"].value_or(false);
      // A rule-label correction written after first contact (with `rule_correction_why`) replaces
      // the blind list; the blind list stays in the file.
      l.must_fire = toml_strings(p->get(p->contains("must_fire_corrected") ? "must_fire_corrected" : "must_fire"));
      l.must_not_fire = toml_strings(p->get(p->contains("must_not_fire_corrected") ? "must_not_fire_corrected" : "must_not_fire"));
      if (p->contains("must_fire_corrected") || p->contains("must_not_fire_corrected"))
        CHECK_FALSE((*p)["rule_correction_why"].value_or(std::string()).empty());
      if (p->contains("executions_corrected") || p->contains("physical_corrected") || p->contains("depth_corrected"))
        CHECK_FALSE((*p)["correction_why"].value_or(std::string()).empty());
      l.known_miss = toml_strings(p->get("known_miss"));
      l.miss_why = (*p)["miss_why"].value_or(std::string());
      out.push_back(std::move(l));
    }
  return out;
}

bool counted(const planlint::Operator& o) { return !o.logical && o.section != planlint::Section::AqeInitial; }

// Longest chain of counted operators through `children`.
std::int64_t runtime_depth(const planlint::Plan& plan) {
  std::vector<std::int64_t> memo(plan.ops.size(), -1);
  std::function<std::int64_t(std::size_t)> depth = [&](std::size_t i) -> std::int64_t {
    if (memo[i] >= 0) return memo[i];
    memo[i] = 1;  // cycle guard
    std::int64_t best = 0;
    for (std::size_t c : plan.ops[i].children)
      if (c < plan.ops.size() && counted(plan.ops[c])) best = std::max(best, depth(c));
    return memo[i] = best + 1;
  };
  std::int64_t d = 0;
  for (std::size_t i = 0; i < plan.ops.size(); ++i)
    if (counted(plan.ops[i]) && plan.ops[i].section != planlint::Section::Subquery) d = std::max(d, depth(i));
  return d;
}

std::int64_t runtime_ops(const planlint::Plan& plan) {
  return static_cast<std::int64_t>(std::count_if(plan.ops.begin(), plan.ops.end(), counted));
}

bool is_execution(const planlint::Plan& plan, std::int64_t id) {
  const std::string head = "execution " + std::to_string(id);
  const std::string_view name = plan.name;
  return name == head || name.rfind(head + ":", 0) == 0;
}

bool scan_size_rule(const std::string& rule) {
  return rule == "small-files" || rule == "low-file-pruning" || rule == "wide-projection";
}

}  // namespace

TEST_CASE("real runtime corpus: every input has a label and provenance, at least 12 inputs") {
  auto labels = load_runtime_labels();
  CHECK(labels.size() >= 12);
  const std::string provenance = planlint::test::read_file(corpus_dir() / "real-runtime" / "PROVENANCE.md");
  std::set<std::string> seen;
  for (const auto& l : labels) {
    INFO(l.file);
    CHECK(seen.insert(l.file).second);
    CHECK(fs::exists(corpus_dir() / "real-runtime" / l.file));
    const std::string base = fs::path(l.file).filename().string();
    const std::string top = l.file.substr(0, l.file.find('/'));
    CHECK((provenance.find("| " + base) != std::string::npos || provenance.find("| " + top) != std::string::npos));
    // Every known miss says why.
    if (!l.known_miss.empty()) CHECK_FALSE(l.miss_why.empty());
  }
}

TEST_CASE("real runtime corpus: blind labels hold, known misses still miss (first contact)") {
  const auto labels = load_runtime_labels();
  planlint::Config config;
  std::size_t labels_total = 0, labels_held = 0, inputs_right = 0;
  std::ostringstream table;
  for (const auto& l : labels) {
    INFO("corpus/real-runtime/" << l.file);
    planlint::LintRequest req;
    req.path = (corpus_dir() / "real-runtime" / l.file).string();
    req.display = l.file;
    planlint::Linted linted = planlint::lint_input(req, config, planlint::lint_options(planlint::LintMode::Show));
    const planlint::ParseResult& parse = linted.result.parse;

    std::map<std::string, bool> holds;  // label key -> holds today
    std::ostringstream seen;            // what was read, for the message
    const std::size_t read_ops = planlint::operator_count(parse);
    bool errors = !linted.error.empty() || parse.has_errors();
    if (l.unreadable) {
      holds["read"] = read_ops == 0 && errors;
    } else {
      holds["read"] = read_ops > 0 && linted.error.empty();
      holds["executions"] = static_cast<std::int64_t>(parse.plans.size()) == l.executions;
      // The main execution's plan (a fragment without executions: all plans together).
      std::int64_t phys = 0, depth = 0;
      std::optional<double> task;
      const planlint::Plan* main = nullptr;
      for (const auto& p : parse.plans)
        if (l.main_execution ? is_execution(p, *l.main_execution) : true) {
          main = &p;
          phys += runtime_ops(p);
          depth = std::max(depth, runtime_depth(p));
          if (l.main_execution) break;
        }
      if (main) task = main->query.metric_value(planlint::Metric::TaskTotalTime);
      holds["physical"] = main && phys == l.physical;
      holds["depth"] = main && depth == l.depth;
      seen << "plans " << parse.plans.size() << ", main ops " << phys << ", depth " << depth;
      if (l.task_time_ms) {
        holds["task_time"] = task && std::abs(*task - static_cast<double>(*l.task_time_ms)) <= 1.0 + 0.001 * *l.task_time_ms;
        seen << ", task time " << (task ? std::to_string(static_cast<long long>(*task)) : std::string("none"));
      }
    }

    // Numbers the findings quote, against the file (time <= the query's task time, percent <= 100,
    // scan sizes <= the data the query read).
    bool numbers = true;
    std::set<std::string> fired;
    for (const auto& d : linted.result.diagnostics) {
      fired.insert(d.rule);
      const planlint::Plan* p = d.plan_index < parse.plans.size() ? &parse.plans[d.plan_index] : nullptr;
      const auto ptask = p ? p->query.metric_value(planlint::Metric::TaskTotalTime) : std::nullopt;
      for (const auto& e : d.evidence) {
        if (!e.number) continue;
        if (e.unit == "percent" && (*e.number < 0 || *e.number > 100.0 + 1e-9)) numbers = false;
        if (e.unit == "ms" && d.rule != "slow-phase" && ptask && *e.number > *ptask * 1.01 + 1000) numbers = false;
        if (e.unit == "bytes" && scan_size_rule(d.rule) && l.data_read_bytes &&
            *e.number > static_cast<double>(*l.data_read_bytes) * 1.01)
          numbers = false;
      }
    }
    holds["numbers"] = numbers;
    for (const auto& r : l.must_fire) holds["must_fire:" + r] = fired.count(r) == 1;
    for (const auto& r : l.must_not_fire) holds["must_not_fire:" + r] = fired.count(r) == 0;

    const std::set<std::string> known(l.known_miss.begin(), l.known_miss.end());
    for (const auto& k : known) {
      INFO("known_miss names a label the input does not have: " << k);
      CHECK(holds.count(k) == 1);
    }
    bool right = true;
    std::string missed;
    for (const auto& kv : holds) {
      const std::string& key = kv.first;
      const bool ok = kv.second;
      ++labels_total;
      if (ok) ++labels_held;
      right = right && ok;
      if (!ok) missed += " " + key;
      const bool expected_miss = known.count(key) == 1;
      INFO("label " << key << (expected_miss ? " is a known miss (" + l.miss_why + ") but holds now: update labels.toml"
                                             : std::string(" does not hold")));
      INFO("read: " << seen.str() << "; findings: " << fired.size());
      CHECK(ok != expected_miss);
    }
    if (right) ++inputs_right;
    table << l.file << ": " << (right ? "right" : "miss:" + missed) << " (" << seen.str() << ")\n";
  }
  MESSAGE("real-runtime first contact: right on " << inputs_right << " of " << labels.size() << " inputs; "
                                                  << labels_held << " of " << labels_total << " labels hold\n"
                                                  << table.str());
}
