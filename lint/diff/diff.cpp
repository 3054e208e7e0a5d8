#include "lint/diff/diff.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <set>
#include <tuple>

#include "lint/diff/diff_rules.hpp"
#include "lint/core/fingerprint.hpp"
#include "lint/core/suppress.hpp"
#include "parser/registry/parse.hpp"
#include "model/phases.hpp"
#include "model/plan_walk.hpp"
#include "support/strings.hpp"

namespace planlint {

namespace {

// ---- matching --------------------------------------------------------------------------------

// The table a scan reads, catalog and schema left out ("store_sales"), lower case.
std::string table_of(const Operator& op) {
  std::string t(op.table());
  if (t.empty()) {
    if (op.kind == OpKind::LocalData) return "<local>";
    t = normalise_plan_text(op.label.empty() ? op.name : op.label);
  }
  std::size_t dot = t.rfind('.');
  if (dot != std::string::npos && dot + 1 < t.size()) t = t.substr(dot + 1);
  return to_lower(t);
}

bool compared(const Operator& op, bool final_plan) {
  if (!is_active(op, final_plan)) return false;
  if (is_transparent(op)) return false;
  return op.kind != OpKind::Unknown;
}

// The sorted, comma-joined tables read below each operator (reused exchanges count the tables of
// what they reuse). Iterative: plans can be 20,000 operators deep; a reuse cycle is cut.
std::vector<std::string> tables_below(const Plan& plan) {
  const std::size_t n = plan.ops.size();
  std::vector<std::set<std::string>> sets(n);
  std::vector<std::uint8_t> state(n, 0);  // 0 new, 1 on the stack, 2 done
  auto edges = [&](std::size_t i) {
    std::vector<std::size_t> e = plan.ops[i].children;
    if (plan.ops[i].reuses && *plan.ops[i].reuses < n) e.push_back(*plan.ops[i].reuses);
    return e;
  };
  for (std::size_t start = 0; start < n; ++start) {
    if (state[start]) continue;
    std::vector<std::pair<std::size_t, std::size_t>> stack{{start, 0}};
    state[start] = 1;
    while (!stack.empty()) {
      auto& [i, next] = stack.back();
      std::vector<std::size_t> e = edges(i);
      if (next < e.size()) {
        std::size_t c = e[next++];
        if (c < n && state[c] == 0) {
          state[c] = 1;
          stack.push_back({c, 0});
        }
        continue;
      }
      std::size_t done = i;
      stack.pop_back();
      const Operator& op = plan.ops[done];
      if (op.kind == OpKind::Scan || op.kind == OpKind::InMemoryScan || op.kind == OpKind::LocalData)
        sets[done].insert(table_of(op));
      for (std::size_t c : e)
        if (c < n && state[c] == 2) sets[done].insert(sets[c].begin(), sets[c].end());
      state[done] = 2;
    }
  }
  std::vector<std::string> out(n);
  for (std::size_t i = 0; i < n; ++i)
    for (const auto& t : sets[i]) out[i] += (out[i].empty() ? "" : ",") + t;
  return out;
}

std::string norm(std::string_view text) { return normalise_plan_text(text); }

std::string field_sig(const Operator& op, std::initializer_list<std::string_view> keys, bool sorted = false) {
  std::vector<std::string> parts;
  for (const Field& f : op.fields)
    for (std::string_view k : keys)
      if (f.key == k)
        for (std::string_view t : field_texts(f)) parts.push_back(norm(t));
  if (sorted) std::sort(parts.begin(), parts.end());
  std::string s;
  for (const auto& p : parts) s += p + ";";
  return s;
}

// What an operator does, with ids, numbers and the engine left out.
std::string signature(const Operator& op) {
  switch (op.kind) {
    case OpKind::Join: {
      std::string s(to_string(op.join->type));
      s += "|";
      for (const auto& k : op.left_keys()) s += norm(k.text) + ",";
      s += "|";
      for (const auto& k : op.right_keys()) s += norm(k.text) + ",";
      return s;
    }
    case OpKind::Scan:
    case OpKind::InMemoryScan:
      return field_sig(op, {"Output", "OUTPUT"}, true);
    case OpKind::Filter:
      return field_sig(op, {"Condition", "FILTERS"});
    case OpKind::Aggregate:
      return field_sig(op, {"Keys", "Grouping keys", "GROUPING_EXPRESSIONS"});
    case OpKind::Exchange:
    case OpKind::Sort:
    case OpKind::Window:
      return norm(op.arguments.empty() ? (op.field("Arguments") ? op.field("Arguments")->value : "") : op.arguments);
    default:
      return "";
  }
}

// ---- findings --------------------------------------------------------------------------------

int join_rank(JoinStrategy s) {
  switch (s) {
    case JoinStrategy::BroadcastHash: return 0;
    case JoinStrategy::ShuffledHash:
    case JoinStrategy::SortMerge: return 1;
    case JoinStrategy::BroadcastNestedLoop: return 2;
    case JoinStrategy::Cartesian: return 3;
    default: return -1;
  }
}

bool is_filter_list(std::string_view k) {
  return k == "PushedFilters" || k == "PartitionFilters" || k == "DataFilters" || k == "RequiredDataFilters" ||
         k == "FILTERS" || k == "PARTITION_FILTERS";
}

std::string filter_item(std::string_view t) {
  std::string s = norm(t);
  if (s.rfind("dynamicpruningexpression(", 0) == 0) return "dynamicpruningexpression(...)";
  return s;
}

std::map<std::string, std::set<std::string>> filter_lists(const Operator& op) {
  std::map<std::string, std::set<std::string>> out;
  for (const Field& f : op.fields) {
    if (!is_filter_list(f.key)) continue;
    auto& set = out[f.key.str()];
    for (std::string_view t : field_texts(f)) {
      std::string item = filter_item(t);
      if (!item.empty() && item != "[]") set.insert(item);
    }
  }
  return out;
}

bool label_has(std::string_view label, std::string_view what) { return to_lower(label).find(what) != std::string::npos; }

std::optional<double> spill_bytes(const Operator& op) {
  std::optional<double> sum;
  for (const Metric& m : op.metrics())
    if (m.unit == MetricUnit::Bytes && m.value && label_has(m.label, "spill")) sum = sum.value_or(0) + *m.value;
  return sum;
}

std::optional<double> shuffle_bytes(const Operator& op) {
  std::optional<double> best;
  for (const Metric& m : op.metrics()) {
    if (m.unit != MetricUnit::Bytes || !m.value || label_has(m.label, "spill")) continue;
    bool shuffle = label_has(m.label, "shuffle") ||
                   ((op.kind == OpKind::Exchange) && (label_has(m.label, "written") || label_has(m.label, "data size")));
    if (shuffle) best = std::max(best.value_or(0), *m.value);
  }
  return best;
}

struct Differ {
  const Plan& oldp;
  const Plan& newp;
  std::size_t new_index;
  const Config& config;
  const std::string& old_label;
  OperatorMatch match;
  std::set<std::size_t> explained;  // new-only operators a finding already accounts for
  std::vector<Diagnostic> out;

  [[nodiscard]] double threshold(const RuleDoc& doc, std::string_view name) const {
    if (auto it = config.thresholds.find(doc.name); it != config.thresholds.end())
      if (auto j = it->second.find(std::string(name)); j != it->second.end()) return j->second;
    if (auto g = config.global_thresholds.find(std::string(name)); g != config.global_thresholds.end()) return g->second;
    for (const auto& t : doc.thresholds)
      if (t.name == name) return t.default_value;
    return 0;
  }

  [[nodiscard]] bool enabled(std::string_view rule) const {
    const RuleDoc& doc = diff_rule_doc(rule);
    return config.enabled(doc, doc.name);
  }

  [[nodiscard]] std::string where_old(const Operator& op) const {
    std::string s = op_ref(op) + " in " + old_label;
    SourceRange r = op.loc.known() ? op.loc : op.detail_loc;
    if (r.known()) s += ":" + std::to_string(r.line);
    return s;
  }

  const Operator* anchor() const { return plan_anchor(newp); }

  void report(std::string_view rule, const Operator* op, std::string message, const Operator* old_op = nullptr,
              std::vector<Evidence> evidence = {}) {
    const RuleDoc& doc = diff_rule_doc(rule);
    if (!config.enabled(doc, doc.name)) return;
    Diagnostic d;
    d.rule = doc.name;
    d.code = doc.code;
    d.severity = doc.severity;
    if (auto s = config.severity.find(doc.name); s != config.severity.end()) d.severity = s->second;
    d.message = std::move(message);
    d.fix = doc.use_instead;
    d.plan_index = new_index;
    if (!op) op = anchor();
    if (op) {
      d.op = op->index;
      d.operator_id = op->id;
      d.operator_name = op->name;
      d.range = op->loc.known() ? op->loc : op->detail_loc;
    } else {
      d.range = newp.loc;
    }
    if (old_op) d.evidence.push_back({"old operator", where_old(*old_op)});
    for (auto& e : evidence) d.evidence.push_back(std::move(e));
    out.push_back(std::move(d));
  }

  const Operator& O(std::size_t i) const { return oldp.ops[i]; }
  const Operator& N(std::size_t i) const { return newp.ops[i]; }

  // Exchanges and sorts directly under a join (through transparent operators).
  std::vector<std::size_t> shuffles_under(std::size_t join) const {
    std::vector<std::size_t> found, todo(N(join).children.begin(), N(join).children.end());
    std::set<std::size_t> seen;
    while (!todo.empty()) {
      std::size_t i = todo.back();
      todo.pop_back();
      if (i >= newp.ops.size() || !seen.insert(i).second) continue;
      const Operator& op = N(i);
      if (op.kind == OpKind::Exchange || op.kind == OpKind::Sort) found.push_back(i);
      if (op.kind == OpKind::Exchange || op.kind == OpKind::Sort || is_transparent(op))
        todo.insert(todo.end(), op.children.begin(), op.children.end());
    }
    return found;
  }

  static bool shuffles_both_sides(const Operator& op) {
    return op.kind == OpKind::Join &&
           (op.join->strategy == JoinStrategy::SortMerge || op.join->strategy == JoinStrategy::ShuffledHash);
  }

  // One root cause, one finding: when statistics or a threshold change, several joins turn into
  // shuffle joins at once and the join order changes with them, so most of the new shuffle joins
  // have no counterpart (the tables below them differ). When the new plan has more shuffle joins
  // than the old one, the unpaired ones and the exchanges and sorts they brought are listed in the
  // join-strategy-regressed finding of a paired join, or in one finding of their own.
  void shuffle_join_cascade() {
    std::size_t old_count = 0, new_count = 0;
    for (auto [o, n] : match.pairs) {
      old_count += shuffles_both_sides(O(o));
      new_count += shuffles_both_sides(N(n));
    }
    for (std::size_t o : match.old_only) old_count += shuffles_both_sides(O(o));
    std::vector<std::size_t> unpaired;
    for (std::size_t n : match.new_only)
      if (shuffles_both_sides(N(n))) unpaired.push_back(n);
    new_count += unpaired.size();
    if (unpaired.empty() || new_count <= old_count) return;
    std::sort(unpaired.begin(), unpaired.end());
    std::string joins_list, brought_list;
    std::size_t brought = 0;
    for (std::size_t j : unpaired) {
      joins_list += (joins_list.empty() ? "" : ", ") + op_ref(N(j));
      for (std::size_t s : shuffles_under(j))
        if (new_only_set.count(s) && explained.insert(s).second) {
          brought_list += (brought_list.empty() ? "" : ", ") + op_ref(N(s));
          ++brought;
        }
    }
    std::string counts = std::to_string(new_count) + " shuffle join" + (new_count == 1 ? "" : "s") +
                         " where the old plan had " + (old_count == 0 ? std::string("none") : std::to_string(old_count));
    std::vector<Evidence> ev{{"shuffle joins in the old plan", static_cast<double>(old_count), Unit::Count},
                             {"shuffle joins in the new plan", static_cast<double>(new_count), Unit::Count},
                             {"more joins that shuffle both sides", static_cast<double>(unpaired.size()), Unit::Count, joins_list}};
    if (brought) ev.push_back({"their new shuffles and sorts", static_cast<double>(brought), Unit::Count, brought_list});
    std::string tail = brought ? "; they brought " + brought_list : "";
    if (first_regressed) {
      Diagnostic& d = out[*first_regressed];
      d.message += "; with it " + std::to_string(unpaired.size()) + " more join" + (unpaired.size() == 1 ? "" : "s") +
                   " shuffle both sides (" + joins_list + "): " + counts + tail;
      for (auto& e : ev) d.evidence.push_back(std::move(e));
      return;
    }
    const Operator& top = N(unpaired.front());
    std::string tables = newp_tables[top.index].empty() ? "its inputs" : newp_tables[top.index];
    report(kJoinRegressed, &top,
           op_ref(top) + " joins " + tables + " as a " + std::string(to_string(top.join->strategy)) + " join" +
               (unpaired.size() > 1 ? " (with " + std::to_string(unpaired.size() - 1) + " more: " + joins_list + ")" : "") +
               ": " + counts + tail,
           nullptr, std::move(ev));
  }

  void joins() {
    for (auto [o, n] : match.pairs) {
      if (O(o).kind != OpKind::Join || N(n).kind != OpKind::Join) continue;
      const Operator &a = O(o), &b = N(n);
      int ra = join_rank(a.join->strategy), rb = join_rank(b.join->strategy);
      std::string tables = newp_tables[n].empty() ? "its inputs" : newp_tables[n];
      if (ra >= 0 && rb > ra) {
        std::vector<std::size_t> brought;
        for (std::size_t s : shuffles_under(n))
          if (new_only_set.count(s)) brought.push_back(s);
        std::string msg = op_ref(b) + " joins " + tables + " as a " + std::string(to_string(b.join->strategy)) +
                          " join where the old plan used " + std::string(to_string(a.join->strategy)) + " (" +
                          op_ref(a) + ")";
        std::vector<Evidence> ev{{"old strategy", std::string(to_string(a.join->strategy))},
                                 {"new strategy", std::string(to_string(b.join->strategy))}};
        if (!brought.empty()) {
          std::string list;
          for (std::size_t s : brought) {
            list += (list.empty() ? "" : ", ") + op_ref(N(s));
            explained.insert(s);
          }
          msg += "; it brought " + list;
          ev.push_back({"new shuffles and sorts", static_cast<double>(brought.size()), Unit::Count, list});
        }
        std::size_t before = out.size();
        report(kJoinRegressed, &b, msg, &a, std::move(ev));
        if (!first_regressed && out.size() > before) first_regressed = before;
      } else if (ra >= 0 && rb >= 0 && rb < ra) {
        for (std::size_t s : shuffles_under(n)) explained.insert(s);
        report(kPlanImproved, &b,
               op_ref(b) + " joins " + tables + " as a " + std::string(to_string(b.join->strategy)) +
                   " join; the old plan used " + std::string(to_string(a.join->strategy)),
               &a);
      }
      if (a.join->skew && !b.join->skew)
        report(kAdaptiveLost, &b, op_ref(b) + " no longer handles skew; the old plan's join was a skew join",
               &a);
    }
    shuffle_join_cascade();
    // A nested-loop or cartesian join with no counterpart.
    std::set<std::string> old_nl;
    for (std::size_t o : match.old_only)
      if (O(o).kind == OpKind::Join && join_rank(O(o).join->strategy) >= 2) old_nl.insert(oldp_tables[o]);
    for (auto [o, n] : match.pairs)
      if (join_rank(O(o).join->strategy) >= 2) old_nl.insert(oldp_tables[o]);
    for (std::size_t n : match.new_only) {
      const Operator& b = N(n);
      if (b.kind != OpKind::Join || join_rank(b.join->strategy) < 2 || old_nl.count(newp_tables[n])) continue;
      report(kJoinRegressed, &b,
             op_ref(b) + " is a new " + std::string(to_string(b.join->strategy)) + " join of " +
                 (newp_tables[n].empty() ? "its inputs" : newp_tables[n]) +
                 ": every row is compared with every row; the old plan had no such join",
             nullptr, {{"new strategy", std::string(to_string(b.join->strategy))}});
    }
  }

  void pushdown() {
    for (auto [o, n] : match.pairs) {
      const Operator &a = O(o), &b = N(n);
      if (a.kind != OpKind::Scan || b.kind != OpKind::Scan) continue;
      auto fa = filter_lists(a), fb = filter_lists(b);
      if (fa.empty() || fb.empty()) continue;  // one side does not print filters (another explain mode)
      std::vector<Evidence> lost, gained;
      std::string lost_text, gained_text;
      for (const auto& [key, items] : fa) {
        const auto& now = fb[key];
        for (const auto& i : items)
          if (!now.count(i)) {
            lost.push_back({"lost from " + key, i});
            lost_text += (lost_text.empty() ? "" : ", ") + key + " " + i;
          }
      }
      for (const auto& [key, items] : fb) {
        const auto& before = fa[key];
        for (const auto& i : items)
          if (!before.count(i)) {
            gained.push_back({"new in " + key, i});
            gained_text += (gained_text.empty() ? "" : ", ") + key + " " + i;
          }
      }
      if (!lost.empty())
        report(kPushdownLost, &b, scan_ref(b) + " no longer pushes " + lost_text, &a, std::move(lost));
      if (!gained.empty())
        report(kPlanImproved, &b, scan_ref(b) + " now also pushes " + gained_text, &a, std::move(gained));
    }
  }

  std::vector<Diagnostic> run_rule(const Plan& plan, std::size_t index, std::string_view name) const {
    std::vector<Diagnostic> found;
    const Rule* rule = find_rule(name);
    if (!rule) return found;
    std::map<std::string, double> overrides = config.global_thresholds;
    if (auto it = config.thresholds.find(rule->doc().name); it != config.thresholds.end())
      for (const auto& [k, v] : it->second) overrides[k] = v;
    RuleContext ctx(plan, index, rule->doc(), &overrides, found);
    rule->check(ctx);
    return found;
  }

  void non_sargable() {
    if (!enabled(kNewNonSargable) && !enabled(kPlanImproved)) return;
    auto before = run_rule(oldp, 0, "non-sargable-predicate");
    auto after = run_rule(newp, new_index, "non-sargable-predicate");
    // A finding's identity: its operator's kind, tables and signature (the full condition with ids
    // removed); messages abbreviate long predicates at a length that moves with the ids.
    auto identity = [&](const Diagnostic& d, const Plan& p, const std::vector<std::string>& tables) {
      if (!d.op || *d.op >= p.ops.size()) return fingerprint(d);
      const Operator& op = p.ops[*d.op];
      return d.rule + "|" + std::string(to_string(op.kind)) + "|" + tables[op.index] + "|" + signature(op);
    };
    std::multiset<std::string> old_prints, new_prints;
    for (const auto& d : before) old_prints.insert(identity(d, oldp, oldp_tables));
    for (const auto& d : after) new_prints.insert(identity(d, newp, newp_tables));
    for (auto& d : after) {
      auto it = old_prints.find(identity(d, newp, newp_tables));
      if (it != old_prints.end()) {
        old_prints.erase(it);
        continue;
      }
      const Operator* op = d.op && *d.op < newp.ops.size() ? &newp.ops[*d.op] : nullptr;
      report(kNewNonSargable, op, "new in this plan: " + d.message, nullptr, d.evidence);
      if (!out.empty() && out.back().rule == kNewNonSargable) out.back().range = d.range;
    }
    for (auto& d : before) {
      auto it = new_prints.find(identity(d, oldp, oldp_tables));
      if (it != new_prints.end()) {
        new_prints.erase(it);
        continue;
      }
      report(kPlanImproved, nullptr, "the old plan's non-sargable predicate is gone: " + d.message);
    }
  }

  void reuse() {
    for (std::size_t o : match.old_only) {
      const Operator& a = O(o);
      if (a.kind != OpKind::ReusedExchange && a.kind != OpKind::ReusedSubquery) continue;
      // The exchange (or subquery) that now recomputes it: same tables, no partner.
      const Operator* replacement = nullptr;
      for (std::size_t n : match.new_only) {
        const Operator& b = N(n);
        bool kind_ok = a.kind == OpKind::ReusedExchange
                           ? (b.kind == OpKind::Exchange || b.kind == OpKind::BroadcastExchange)
                           : b.kind == OpKind::Subquery;
        if (kind_ok && !explained.count(n) && newp_tables[n] == oldp_tables[o]) {
          replacement = &b;
          explained.insert(n);
          break;
        }
      }
      std::string what = oldp_tables[o].empty() ? "" : " of " + oldp_tables[o];
      std::string msg = replacement ? op_ref(*replacement) + " recomputes the exchange" + what + " that the old plan reused (" +
                                          op_ref(a) + ")"
                                    : "the old plan reused an exchange" + what + " (" + op_ref(a) +
                                          "); the new plan does not";
      report(kReuseLost, replacement, msg, &a);
    }
    for (std::size_t n : match.new_only) {
      const Operator& b = N(n);
      if (b.kind == OpKind::ReusedExchange || b.kind == OpKind::ReusedSubquery)
        report(kPlanImproved, &b, op_ref(b) + " reuses work the old plan computed again");
    }
  }

  void exchanges() {
    std::size_t old_count = 0, new_count = 0;
    for (std::size_t o : match.old_only)
      if (O(o).kind == OpKind::Exchange || O(o).kind == OpKind::Sort) ++old_count;
    for (std::size_t n : match.new_only) {
      const Operator& b = N(n);
      if (b.kind != OpKind::Exchange && b.kind != OpKind::Sort) continue;
      ++new_count;
      if (explained.count(n)) continue;
      std::string what = b.kind == OpKind::Exchange ? "shuffles" : "sorts";
      report(kNewExchange, &b,
             op_ref(b) + " " + what + (newp_tables[n].empty() ? "" : " data of " + newp_tables[n]) +
                 " where the old plan did not" +
                 (signature(b).empty() ? "" : " (" + signature(b) + ")"));
    }
    if (old_count > new_count)
      report(kPlanImproved, nullptr,
             "the new plan has " + std::to_string(old_count - new_count) + " fewer exchanges or sorts than the old one");
  }

  void engines() {
    std::vector<std::pair<std::size_t, std::size_t>> moved, back;
    for (auto [o, n] : match.pairs) {
      if (O(o).engine != Engine::Spark && N(n).engine == Engine::Spark) moved.push_back({o, n});
      if (O(o).engine == Engine::Spark && N(n).engine != Engine::Spark) back.push_back({o, n});
    }
    auto engine_name = [&](std::size_t o) { return std::string(to_string(O(o).engine)); };
    // New JVM operators in a plan whose old version ran natively, beyond the JVM operators it had.
    bool native = plan_has_engine(oldp, Engine::Photon) || plan_has_engine(oldp, Engine::Gluten);
    std::size_t old_jvm = 0, new_jvm = 0;
    for (std::size_t o : match.old_only)
      if (O(o).engine == Engine::Spark) ++old_jvm;
    std::vector<std::size_t> added;
    for (std::size_t n : match.new_only)
      if (N(n).engine == Engine::Spark && N(n).kind != OpKind::Command) added.push_back(n);
    new_jvm = added.size();
    if (native && new_jvm > old_jvm)
      for (std::size_t n : added) moved.push_back({SIZE_MAX, n});
    if (moved.size() > 5) {
      std::string list;
      for (std::size_t i = 0; i < 5; ++i) list += (i ? ", " : "") + op_ref(N(moved[i].second));
      report(kEngineCoverage, nullptr,
             std::to_string(moved.size()) + " operators run in the JVM in the new plan that ran natively (or did not exist) in the old one: " + list + ", ...",
             nullptr, {{"operators moved to the JVM", static_cast<double>(moved.size()), Unit::Count, std::to_string(moved.size())}});
    } else {
      for (auto [o, n] : moved) {
        if (o >= oldp.ops.size()) {
          report(kEngineCoverage, &N(n),
                 op_ref(N(n)) + " is a new JVM operator in a plan the old version ran in " +
                     std::string(plan_has_engine(oldp, Engine::Photon) ? "Photon" : "Gluten") +
                     (newp_tables[n].empty() ? "" : " (over " + newp_tables[n] + ")"));
          continue;
        }
        report(kEngineCoverage, &N(n),
               op_ref(N(n)) + " runs in the JVM; the old plan ran it in " + engine_name(o) + " (" +
                   op_ref(O(o)) + ")",
               &O(o));
      }
    }
    if (!back.empty())
      report(kPlanImproved, &N(back[0].second),
             std::to_string(back.size()) + " operator" + (back.size() == 1 ? "" : "s") + " moved from the JVM to " +
                 std::string(to_string(N(back[0].second).engine)) + ", e.g. " + op_ref(N(back[0].second)));
    // Share of operator time in the JVM.
    auto jvm_share = [](const Plan& p) -> std::optional<double> {
      double jvm = 0, all = 0;
      bool final_plan = has_final_plan(p);
      for (const Operator& op : p.ops) {
        if (!compared(op, final_plan) || !op.duration_ms()) continue;
        all += *op.duration_ms();
        if (op.engine == Engine::Spark) jvm += *op.duration_ms();
      }
      if (all <= 0 || !plan_has_engine(p, Engine::Photon)) return std::nullopt;
      return jvm / all;
    };
    auto a = jvm_share(oldp), b = jvm_share(newp);
    if (a && b) {
      double step = threshold(diff_rule_doc(kEngineCoverage), "share-increase") / 100.0;
      if (*b - *a >= step)
        report(kEngineCoverage, nullptr,
               "the JVM's share of operator time grew from " + format_percent(*a) + " to " + format_percent(*b), nullptr,
               {{"old JVM share", *a, Unit::Percent}, {"new JVM share", *b, Unit::Percent}});
    }
  }

  void adaptive() {
    if (oldp.adaptive && !newp.adaptive)
      report(kAdaptiveLost, nullptr, "the new plan runs without adaptive query execution (no AdaptiveSparkPlan); the old plan had it");
    if (!oldp.adaptive && newp.adaptive) report(kPlanImproved, nullptr, "the new plan runs with adaptive query execution");
  }

  struct Quantity {
    std::string what, unit;
    std::optional<double> a, b;
  };

  // A quantity's unit ("bytes", "ms", "rows") as evidence states it.
  static Unit evidence_unit(const std::string& unit) {
    if (unit == "bytes") return Unit::Bytes;
    if (unit == "ms") return Unit::Ms;
    if (unit == "rows") return Unit::Rows;
    return Unit::Count;
  }

  std::string show(double v, const std::string& unit) const {
    if (unit == "bytes") return format_bytes(v);
    if (unit == "ms") return format_millis(v);
    return format_count(v);
  }

  void compare(const std::vector<Quantity>& qs, const Operator* op, const Operator* old_op, const std::string& subject) {
    const RuleDoc& doc = diff_rule_doc(kMetricRegressed);
    double factor = std::max(1.0, threshold(doc, "factor"));
    std::string worse, better;
    std::vector<Evidence> ev_worse, ev_better;
    for (const auto& q : qs) {
      if (!q.a || !q.b) continue;
      double min = q.unit == "bytes" ? threshold(doc, "min-bytes") : q.unit == "ms" ? threshold(doc, "min-ms") : threshold(doc, "min-rows");
      double a = *q.a, b = *q.b;
      std::string text = q.what + " " + show(a, q.unit) + " -> " + show(b, q.unit);
      if (b >= a * factor && b - a >= min) {
        if (a > 0) text += " (" + format_decimal(b / a) + "x)";
        worse += (worse.empty() ? "" : ", ") + text;
        ev_worse.push_back({"old " + q.what, a, evidence_unit(q.unit)});
        ev_worse.push_back({"new " + q.what, b, evidence_unit(q.unit)});
      } else if (a >= b * factor && a - b >= min) {
        better += (better.empty() ? "" : ", ") + text;
        ev_better.push_back({"old " + q.what, a, evidence_unit(q.unit)});
        ev_better.push_back({"new " + q.what, b, evidence_unit(q.unit)});
      }
    }
    if (!worse.empty()) report(kMetricRegressed, op, subject + ": " + worse, old_op, std::move(ev_worse));
    if (!better.empty()) report(kPlanImproved, op, subject + ": " + better, old_op, std::move(ev_better));
  }

  static const Operator* stage_above(const Plan& plan, const Operator& op) {
    for (std::size_t p : op.parents)
      if (p < plan.ops.size() && plan.ops[p].kind == OpKind::QueryStage) return &plan.ops[p];
    return nullptr;
  }

  void metrics() {
    for (auto [o, n] : match.pairs) {
      const Operator &a = O(o), &b = N(n);
      std::vector<Quantity> qs{{"rows", "rows", a.rows(), b.rows()},
                               {"time", "ms", a.duration_ms(), b.duration_ms()},
                               {"spill", "bytes", spill_bytes(a), spill_bytes(b)},
                               {"shuffle bytes", "bytes", shuffle_bytes(a), shuffle_bytes(b)}};
      if (!a.stats()->masked && !b.stats()->masked) {
        qs.push_back({"size", "bytes", a.stats()->size_bytes, b.stats()->size_bytes});
        qs.push_back({"estimated rows", "rows", a.stats()->row_count, b.stats()->row_count});
      }
      compare(qs, &b, &a, op_ref(b));
      // AQE query stages are wrappers (not matched themselves): their Statistics describe the
      // matched operator below them.
      const Operator* sa = stage_above(oldp, a);
      const Operator* sb = stage_above(newp, b);
      if (sa && sb && !sa->stats()->masked && !sb->stats()->masked)
        compare({{"size", "bytes", sa->stats()->size_bytes, sb->stats()->size_bytes},
                 {"rows", "rows", sa->stats()->row_count, sb->stats()->row_count}},
                sb, sa, op_ref(*sb));
    }
    auto q = [](const Plan& p, Metric::Id id) { return query_metric(p, {id}); };
    std::vector<Quantity> qs{
        {"total time", "ms", q(oldp, Metric::TotalTime), q(newp, Metric::TotalTime)},
        {"task time", "ms", q(oldp, Metric::TaskTotalTime), q(newp, Metric::TaskTotalTime)},
        {"spill", "bytes", q(oldp, Metric::QuerySpillBytes), q(newp, Metric::QuerySpillBytes)},
        {"bytes read", "bytes", q(oldp, Metric::QueryReadBytes), q(newp, Metric::QueryReadBytes)},
    };
    compare(qs, nullptr, nullptr, "the query");
  }

  std::vector<std::string> oldp_tables, newp_tables;
  std::set<std::size_t> new_only_set;
  std::optional<std::size_t> first_regressed;  // index in `out` of the first join-strategy-regressed finding

  void run() {
    match = match_operators(oldp, newp);
    oldp_tables = tables_below(oldp);
    newp_tables = tables_below(newp);
    new_only_set.insert(match.new_only.begin(), match.new_only.end());
    joins();
    pushdown();
    non_sargable();
    reuse();
    exchanges();
    engines();
    adaptive();
    metrics();
  }
};

}  // namespace

OperatorMatch match_operators(const Plan& old_plan, const Plan& new_plan) {
  OperatorMatch m;
  auto old_tables = tables_below(old_plan), new_tables = tables_below(new_plan);
  std::vector<std::size_t> olds, news;
  bool of = has_final_plan(old_plan), nf = has_final_plan(new_plan);
  for (const Operator& op : old_plan.ops)
    if (compared(op, of)) olds.push_back(op.index);
  for (const Operator& op : new_plan.ops)
    if (compared(op, nf)) news.push_back(op.index);
  std::vector<std::string> old_sig(old_plan.ops.size()), new_sig(new_plan.ops.size());
  for (std::size_t i : olds) old_sig[i] = signature(old_plan.ops[i]);
  for (std::size_t i : news) new_sig[i] = signature(new_plan.ops[i]);
  std::set<std::size_t> old_used, new_used;
  // Pass 1: kind, tables, signature and engine; pass 2: without the engine; pass 3: kind and tables.
  for (int pass = 0; pass < 3; ++pass) {
    auto key = [&](const Operator& op, const std::vector<std::string>& tables, const std::vector<std::string>& sig) {
      std::string k = std::string(to_string(op.kind)) + "\x1f" + tables[op.index];
      if (pass <= 1) k += "\x1f" + sig[op.index];
      if (pass == 0) k += "\x1f" + std::string(to_string(op.engine));
      return k;
    };
    std::map<std::string, std::vector<std::size_t>> buckets;
    for (std::size_t i : olds)
      if (!old_used.count(i)) buckets[key(old_plan.ops[i], old_tables, old_sig)].push_back(i);
    std::map<std::string, std::size_t> taken;
    for (std::size_t j : news) {
      if (new_used.count(j)) continue;
      std::string k = key(new_plan.ops[j], new_tables, new_sig);
      auto it = buckets.find(k);
      if (it == buckets.end()) continue;
      std::size_t& t = taken[k];
      if (t >= it->second.size()) continue;
      std::size_t i = it->second[t++];
      m.pairs.push_back({i, j});
      old_used.insert(i);
      new_used.insert(j);
    }
  }
  for (std::size_t i : olds)
    if (!old_used.count(i)) m.old_only.push_back(i);
  for (std::size_t j : news)
    if (!new_used.count(j)) m.new_only.push_back(j);
  std::sort(m.pairs.begin(), m.pairs.end(), [](auto a, auto b) { return a.second < b.second; });
  return m;
}

namespace {

std::set<std::string> tables_read(const Plan& plan) {
  std::set<std::string> out;
  for (const Operator& op : plan.ops)
    if (op.kind == OpKind::Scan || op.kind == OpKind::InMemoryScan) out.insert(table_of(op));
  return out;
}

std::string some(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size() && i < 5; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > 5) s += ", ... (" + std::to_string(names.size()) + ")";
  return s;
}

}  // namespace

PlanLikeness plan_likeness(const Plan& old_plan, const Plan& new_plan) {
  PlanLikeness l;
  std::set<std::string> a = tables_read(old_plan), b = tables_read(new_plan);
  for (const auto& t : a) {
    if (b.count(t)) ++l.shared_tables;
    else l.only_old.push_back(t);
  }
  for (const auto& t : b)
    if (!a.count(t)) l.only_new.push_back(t);
  l.all_tables = a.size() + l.only_new.size();
  OperatorMatch m = match_operators(old_plan, new_plan);
  l.paired = m.pairs.size();
  l.compared = std::max(m.pairs.size() + m.old_only.size(), m.pairs.size() + m.new_only.size());
  if (l.compared == 0) return l;  // nothing to compare: the findings say so, not this
  double paired = static_cast<double>(l.paired) / static_cast<double>(l.compared);
  bool tables_known = l.all_tables > 0;
  double shared = tables_known ? static_cast<double>(l.shared_tables) / static_cast<double>(l.all_tables) : 1.0;
  l.same_query = !(shared < 0.5 || paired < 0.25 || (shared < 1.0 && paired < 0.5));
  return l;
}

std::string PlanLikeness::describe() const {
  std::string s;
  if (all_tables > 0) {
    s += "they share " + std::to_string(shared_tables) + " of " + std::to_string(all_tables) + " tables";
    std::string sides;
    if (!only_old.empty()) sides += "only the old plan reads " + some(only_old);
    if (!only_new.empty()) sides += (sides.empty() ? "" : "; ") + std::string("only the new plan reads ") + some(only_new);
    if (!sides.empty()) s += " (" + sides + ")";
    s += " and ";
  }
  s += std::to_string(paired) + " of " + std::to_string(compared) + " operators pair";
  return s;
}

std::vector<Diagnostic> diff_plans(const Plan& old_plan, const Plan& new_plan, std::size_t new_index,
                                   const Config& config, const std::string& old_label) {
  Differ d{old_plan, new_plan, new_index, config, old_label, {}, {}, {}, {}, {}, {}, {}};
  d.run();
  return std::move(d.out);
}

FileReport diff_parsed(const ParseResult& old_parse, const std::string& old_label, const ParseResult& new_parse,
                       std::string new_text, const std::string& new_display, const Config& config, bool force) {
  FileReport report;
  report.path = new_display;
  report.format = new_parse.format;
  report.traits = new_parse.traits;
  if (old_parse.plans.empty() || new_parse.plans.empty()) {
    report.error = (old_parse.plans.empty() ? old_label : new_display) + ": no plan found to compare";
    return report;
  }
  if (old_parse.plans.size() != new_parse.plans.size()) {
    report.error = old_label + " has " + std::to_string(old_parse.plans.size()) + " plans and " + new_display + " has " +
                   std::to_string(new_parse.plans.size()) +
                   ": diff compares one query (for event logs pick one execution with --execution N)";
    return report;
  }
  for (std::size_t p = 0; p < new_parse.plans.size(); ++p) {
    PlanLikeness like = plan_likeness(old_parse.plans[p], new_parse.plans[p]);
    if (!like.same_query) {
      std::string plan = new_parse.plans.size() > 1 ? " (plan " + std::to_string(p + 1) + ")" : "";
      std::string why = old_label + " and " + new_display + plan + " do not look like plans of the same query: " +
                        like.describe();
      if (!force) {
        report.error = why + "; diff compares two plans of one query (--force compares them anyway)";
        return report;
      }
      report.messages.push_back({MessageSeverity::Warning, new_parse.plans[p].loc,
                                 why + "; compared anyway (--force): expect findings that only say the queries differ"});
    }
    auto found = diff_plans(old_parse.plans[p], new_parse.plans[p], p, config, old_label);
    report.diagnostics.insert(report.diagnostics.end(), std::make_move_iterator(found.begin()),
                              std::make_move_iterator(found.end()));
  }
  // Directives naming check rules (which diff does not run) must not count as unused here.
  Config only_diff = config;
  only_diff.select.clear();
  for (const RuleDoc* doc : diff_rule_docs())
    if (config.enabled(*doc, doc->name)) only_diff.select.insert(doc->name);
  if (only_diff.select.empty()) only_diff.select.insert("-");
  report.suppressed = apply_suppressions(find_suppressions(new_text), report.diagnostics, only_diff);
  std::stable_sort(report.diagnostics.begin(), report.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.plan_index, a.range.line, a.range.column) < std::tie(b.plan_index, b.range.line, b.range.column);
  });
  report.input = std::make_shared<const std::string>(std::move(new_text));
  return report;
}

FileReport diff_texts(std::string_view old_text, const std::string& old_label, std::string new_text,
                      const std::string& new_display, const Config& config, bool force) {
  ParseResult a = parse_input(old_text, old_label);
  ParseResult b = parse_input(new_text, new_display);
  return diff_parsed(a, old_label, b, std::move(new_text), new_display, config, force);
}

}  // namespace planlint
