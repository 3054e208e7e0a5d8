#include "model/plan_walk.hpp"

#include "model/expr_util.hpp"
#include "model/phases.hpp"
#include "model/format.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "support/strings.hpp"

namespace planlint {

namespace {

// "(a = b)" -> "a = b" when the outer parentheses enclose the whole text.
std::string_view strip_parens(std::string_view s) {
  for (;;) {
    s = trim(s);
    if (s.size() < 2 || s.front() != '(' || s.back() != ')') return s;
    int depth = 0;
    bool encloses = true;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '(') ++depth;
      else if (s[i] == ')') {
        --depth;
        if (depth == 0 && i + 1 != s.size()) {
          encloses = false;
          break;
        }
      }
    }
    if (!encloses) return s;
    s = s.substr(1, s.size() - 2);
  }
}


}  // namespace

// ---- operators -------------------------------------------------------------------------------

bool is_transparent(const Operator& op) {
  switch (op.kind) {
    case OpKind::Transition:
    case OpKind::CodegenStage:
    case OpKind::QueryStage:
    case OpKind::ShuffleRead:
    case OpKind::AdaptivePlan:
      return true;
    default:
      return false;
  }
}

bool has_final_plan(const Plan& plan) {
  // A final plan that collapsed to an empty local relation replaced nothing that ran: the initial
  // plan's stages are still judged.
  if (plan.facts.final_plan_collapsed) return false;
  return std::any_of(plan.ops.begin(), plan.ops.end(), [](const Operator& o) {
    return o.section == Section::AqeFinal || o.section == Section::AqeCurrent;
  });
}

bool is_active(const Operator& op, bool final_plan_exists) {
  if (op.logical || op.kind == OpKind::Logical) return false;
  switch (op.section) {
    case Section::OptimizedOut:
    case Section::ParsedLogical:
    case Section::AnalyzedLogical:
    case Section::OptimizedLogical:
      return false;
    case Section::AqeInitial:
      return !final_plan_exists;
    default:
      return true;
  }
}

std::vector<const Operator*> active_ops(const Plan& plan) {
  bool fin = has_final_plan(plan);
  std::vector<const Operator*> out;
  out.reserve(plan.ops.size());  // most operators are active: one allocation instead of a doubling series
  for (const auto& op : plan.ops)
    if (is_active(op, fin)) out.push_back(&op);
  return out;
}

std::vector<const Operator*> active_ops(const Plan& plan, OpKind kind) {
  bool fin = has_final_plan(plan);
  std::vector<const Operator*> out;
  for (const auto& op : plan.ops)
    if (op.kind == kind && is_active(op, fin)) out.push_back(&op);
  return out;
}

std::optional<std::size_t> skip_transparent_down(const Plan& plan, std::size_t idx) {
  for (std::size_t steps = 0; steps <= plan.ops.size() && idx < plan.ops.size(); ++steps) {
    const Operator& op = plan.ops[idx];
    if (!is_transparent(op)) return idx;
    if (op.children.size() != 1) return op.children.empty() ? std::nullopt : std::optional<std::size_t>(idx);
    idx = op.children[0];
  }
  return std::nullopt;
}

const Operator* scan_below(const Plan& plan, const Operator& filter) {
  if (filter.children.size() != 1) return nullptr;
  std::size_t idx = filter.children[0];
  for (std::size_t steps = 0; steps <= plan.ops.size(); ++steps) {
    auto s = skip_transparent_down(plan, idx);
    if (!s) return nullptr;
    const Operator& op = plan.ops[*s];
    if (op.kind == OpKind::Scan) return &op;
    // Operators that keep the scan's columns: another Filter (a typed lambda filter, a runtime
    // filter), a Project that only passes columns on.
    const bool keeps_columns = op.kind == OpKind::Filter || (op.kind == OpKind::Project && op.facts->passes_columns);
    if (!keeps_columns || op.children.size() != 1) return nullptr;
    idx = op.children[0];
  }
  return nullptr;
}

const Operator* single_scan_under(const Plan& plan, std::size_t idx) {
  for (std::size_t steps = 0; steps <= plan.ops.size() && idx < plan.ops.size(); ++steps) {
    const Operator& op = plan.ops[idx];
    if (op.kind == OpKind::Scan) return &op;
    if (op.kind == OpKind::ReusedExchange && op.reuses) {
      idx = *op.reuses;
      continue;
    }
    bool pass = is_transparent(op) || op.kind == OpKind::Filter || op.kind == OpKind::Project ||
                op.kind == OpKind::Exchange || op.kind == OpKind::BroadcastExchange || op.kind == OpKind::Sort;
    if (!pass || op.children.size() != 1) return nullptr;
    idx = op.children[0];
  }
  return nullptr;
}

bool plan_has_engine(const Plan& plan, Engine e) {
  return std::any_of(plan.ops.begin(), plan.ops.end(), [e](const Operator& o) { return o.engine == e; });
}

std::string op_ref(const Operator& op) {
  std::string name((op.name.empty() ? op.label : op.name).view());
  // Profile scans are all "DataSourceScan": their display name says which table.
  if (op.facts->label_names_table) name = op.label;
  if (op.id.empty()) return name;
  return name + " (" + op.id + ")";
}

// ---- sizes -----------------------------------------------------------------------------------

std::optional<double> first_metric(const Operator& op, std::initializer_list<Metric::Id> ids, std::string* which) {
  for (auto id : ids) {
    const Metric* m = op.metric(id);
    if (m && m->value) {
      if (which) *which = m->label;
      return m->value;
    }
  }
  return std::nullopt;
}

namespace {

constexpr Metric::Id kShuffleBytes[] = {
    Metric::ShuffleReadPartitionDataSize, Metric::ExchangeDataSize, Metric::DataSize,
    Metric::SinkUncompressedBytesWritten, Metric::SinkBytesWritten, Metric::ExchangeShuffleBytesWritten,
    Metric::ShuffleBytesWritten};
constexpr Metric::Id kShuffleRows[] = {Metric::SinkOutputRows, Metric::ExchangeShuffleRecordsWritten,
                                       Metric::ShuffleRecordsWritten, Metric::SourceOutputRows};

// The largest byte count among the shuffle metrics of `op` (conservative for "small enough").
std::optional<double> max_shuffle_bytes(const Operator& op, std::string* which) {
  std::optional<double> best;
  for (auto id : kShuffleBytes) {
    const Metric* m = op.metric(id);
    if (m && m->value && (!best || *m->value > *best)) {
      best = m->value;
      if (which) *which = m->label;
    }
  }
  return best;
}

// What Spark compares with the broadcast threshold for the shuffle an AQEShuffleRead reads: the
// query stage's sizeInBytes, which is the exchange's uncompressed "data size". The read's own
// "partition data size" counts the compressed bytes of the shuffle files (MapOutputStatistics)
// and can be a third of it. Looks only through the query stage and exchange right below the read.
const Operator* uncompressed_below(const Plan& plan, std::size_t idx, std::optional<double>& bytes, std::string& what) {
  for (std::size_t steps = 0; steps <= plan.ops.size() && idx < plan.ops.size(); ++steps) {
    const Operator& op = plan.ops[idx];
    if (op.kind == OpKind::ReusedExchange && op.reuses) {
      idx = *op.reuses;
      continue;
    }
    if (op.kind != OpKind::QueryStage && op.kind != OpKind::Exchange) return nullptr;
    if (op.kind == OpKind::QueryStage && !op.stats()->masked && op.stats()->size_bytes && !op.facts->result_stage) {
      bytes = op.stats()->size_bytes;
      what = "Statistics(sizeInBytes=" + format_bytes(*op.stats()->size_bytes) + ") of " + op_ref(op);
      return &op;
    }
    std::string which;
    if (auto b = first_metric(op, {Metric::ExchangeDataSize, Metric::DataSize, Metric::SinkUncompressedBytesWritten}, &which)) {
      bytes = b;
      what = "'" + which + "' of " + op_ref(op);
      return &op;
    }
    if (op.children.size() != 1) return nullptr;
    idx = op.children[0];
  }
  return nullptr;
}

}  // namespace

namespace {

// A bare attribute "name#12L", optionally renamed ("name#12L AS other#13L").
bool bare_attribute(std::string_view item) {
  while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
  while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
  if (auto as = item.find(" AS "); as != std::string_view::npos) {
    if (!bare_attribute(item.substr(as + 4))) return false;
    item = item.substr(0, as);
  }
  const auto hash = item.rfind('#');
  if (hash == std::string_view::npos || hash == 0) return false;
  std::size_t j = hash + 1;
  while (j < item.size() && std::isdigit(static_cast<unsigned char>(item[j]))) ++j;
  if (j == hash + 1) return false;
  if (j < item.size() && item[j] == 'L') ++j;
  if (j != item.size()) return false;
  for (char c : item.substr(0, hash))
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '`')) return false;
  return true;
}

// Is the output of `op` never larger than its input (fewer or as many rows, none wider)?
bool output_at_most_input(const Operator& op) {
  if (op.details_missing) return false;
  if (op.kind == OpKind::Filter) return true;
  if (op.kind == OpKind::Project) {
    if (op.facts->passes_columns) return true;
    const Field* out = op.field(FieldRole::Output);
    if (!out || !out->is_list || out->truncated || out->count_mismatch || out->item_spans.empty()) return false;
    for (std::string_view it : out->items())
      if (!bare_attribute(it)) return false;
    return true;
  }
  if (op.kind == OpKind::Aggregate && op.name == "HashAggregate") {
    // A partial aggregate adds its buffers to each input row's keys: it may be wider than its input.
    for (const Field& f : op.fields) {
      if (f.key != "Functions") continue;
      if (f.truncated) return false;
      bool partial = false;
      for_each_field_text(f, [&partial](std::string_view t) {
        while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
        partial = partial || t.rfind("partial_", 0) == 0;
      });
      return !partial;
    }
  }
  return false;
}

SideSize input_size_impl(const Plan& plan, std::size_t idx, bool bound) {
  SideSize s;
  for (std::size_t steps = 0; steps <= plan.ops.size() && idx < plan.ops.size(); ++steps) {
    const Operator& op = plan.ops[idx];
    if (op.kind == OpKind::ShuffleRead && op.children.size() == 1) {
      std::optional<double> bytes;
      std::string what;
      if (const Operator* below = uncompressed_below(plan, op.children[0], bytes, what)) {
        s.bytes = bytes;
        for (auto l : kShuffleRows)
          if (!s.rows) s.rows = below->metric_value(l);
        if (!s.rows) s.rows = below->kind == OpKind::QueryStage ? below->stats()->row_count : below->rows();
        if (!s.rows) s.rows = op.rows();
        s.source = below;
        s.what = std::move(what);
        return s;
      }
    }
    if (op.kind == OpKind::QueryStage && !op.stats()->masked && op.stats()->size_bytes &&
        !op.facts->result_stage) {
      s.bytes = op.stats()->size_bytes;
      s.rows = op.stats()->row_count;
      s.source = &op;
      s.what = "Statistics(sizeInBytes=" + format_bytes(*op.stats()->size_bytes) + ") of " + op_ref(op);
      return s;
    }
    if (op.kind == OpKind::Exchange || op.kind == OpKind::BroadcastExchange || op.kind == OpKind::ShuffleRead ||
        op.kind == OpKind::QueryStage) {
      std::string which;
      if (auto b = max_shuffle_bytes(op, &which)) {
        s.bytes = b;
        for (auto l : kShuffleRows)
          if (!s.rows) s.rows = op.metric_value(l);
        if (!s.rows) s.rows = op.rows();
        s.source = &op;
        s.what = "'" + which + "' of " + op_ref(op);
        return s;
      }
    }
    if (op.kind == OpKind::ReusedExchange && op.reuses) {
      idx = *op.reuses;
      continue;
    }
    bool pass = is_transparent(op) || op.kind == OpKind::Sort || op.kind == OpKind::Exchange ||
                op.kind == OpKind::BroadcastExchange;
    if (!pass && bound && output_at_most_input(op)) {
      pass = true;
      s.through = &op;
    }
    if (!pass || op.children.size() != 1) break;
    idx = op.children[0];
  }
  s.through = nullptr;
  return s;
}

}  // namespace

SideSize input_size(const Plan& plan, std::size_t idx) { return input_size_impl(plan, idx, false); }
SideSize input_size_bound(const Plan& plan, std::size_t idx) { return input_size_impl(plan, idx, true); }

std::optional<double> output_rows(const Plan& plan, std::size_t idx) {
  for (std::size_t steps = 0; steps <= plan.ops.size() && idx < plan.ops.size(); ++steps) {
    const Operator& op = plan.ops[idx];
    if (op.rows()) return op.rows();
    if (auto v = first_metric(op, {Metric::OutputRows})) return v;
    if (op.kind == OpKind::ReusedExchange && op.reuses) {
      idx = *op.reuses;
      continue;
    }
    bool pass = is_transparent(op) || op.kind == OpKind::Exchange || op.kind == OpKind::BroadcastExchange ||
                op.kind == OpKind::Sort;
    if (!pass || op.children.size() != 1) break;
    idx = op.children[0];
  }
  return std::nullopt;
}

namespace {

std::string attr_key(const Expr& e) { return e.name + "#" + e.expr_id; }

void collect_key_attrs(const CompactVector<ParsedExpr>& keys, std::set<std::string>& out, bool& usable) {
  for (const auto& k : keys) {
    if (!k.root) {
      usable = false;
      return;
    }
    for (const Expr* a : attributes_in(*k.root)) {
      if (is_masked_expr_id(a->expr_id)) {
        usable = false;
        return;
      }
      out.insert(attr_key(*a));
    }
  }
}

}  // namespace

LogicalJoins::LogicalJoins(const Plan& plan) {
  for (const auto& op : plan.ops) {
    const bool logical_join = (op.logical || op.kind == OpKind::Logical) && op.section == Section::OptimizedLogical &&
                              (op.join->type != JoinType::None || op.facts->logical_join);
    if (logical_join) {
      std::vector<std::string> cond;
      if (op.join_condition() && op.join_condition()->root)
        for (const Expr* a : attributes_in(*op.join_condition()->root)) cond.push_back(attr_key(*a));
      std::sort(cond.begin(), cond.end());
      cond.erase(std::unique(cond.begin(), cond.end()), cond.end());
      for (const auto& a : cond) by_attr_[a].push_back(logical_.size());
      cond_attrs_.push_back(std::move(cond));
      logical_.push_back(&op);
    } else if (op.kind == OpKind::Join && !op.logical && op.section == Section::Main) {
      physical_.push_back(&op);
    }
  }
  // The positions are read only when the joins pair by position (find): most plans print no
  // logical plan, and then no map is built.
  if (!logical_.empty() && logical_.size() == physical_.size())
    for (std::size_t i = 0; i < physical_.size(); ++i) physical_pos_.emplace(physical_[i], i);
}

const Operator* LogicalJoins::find(const Operator& physical_join) const {
  if (logical_.empty()) return nullptr;
  std::set<std::string> keys;
  bool usable = true;
  collect_key_attrs(physical_join.left_keys(), keys, usable);
  collect_key_attrs(physical_join.right_keys(), keys, usable);
  if (usable && !keys.empty()) {
    // Candidates: the logical joins whose condition names the rarest key; keep those naming all.
    const std::vector<std::size_t>* candidates = nullptr;
    for (const auto& k : keys) {
      auto it = by_attr_.find(k);
      if (it == by_attr_.end()) {
        candidates = nullptr;
        break;
      }
      if (!candidates || it->second.size() < candidates->size()) candidates = &it->second;
    }
    if (candidates) {
      const Operator* found = nullptr;
      bool ambiguous = false;
      for (std::size_t c : *candidates) {
        const auto& cond = cond_attrs_[c];
        if (std::all_of(keys.begin(), keys.end(),
                        [&](const std::string& k) { return std::binary_search(cond.begin(), cond.end(), k); })) {
          ambiguous = ambiguous || found != nullptr;
          found = logical_[c];
        }
      }
      if (found && !ambiguous) return found;
    }
  }
  // Without parsed logical conditions: the optimized logical plan and the physical plan list their
  // joins in the same (pre-order) order, so pair them by position when both have the same number.
  if (logical_.size() != physical_.size()) return nullptr;
  auto it = physical_pos_.find(&physical_join);
  if (it == physical_pos_.end()) return nullptr;
  const Operator* lj = logical_[it->second];
  // The join types must agree.
  if (lj->join->type != JoinType::None && lj->join->type != physical_join.join->type) return nullptr;
  return lj;
}

const Operator* logical_child(const Plan& plan, const Operator& logical, BuildSide side) {
  std::size_t pos = side == BuildSide::Left ? 0 : 1;
  if (logical.children.size() != 2) return nullptr;
  return &plan.ops[logical.children[pos]];
}

// ---- expressions -----------------------------------------------------------------------------

std::string abbreviate(std::string_view text, std::size_t max) {
  if (text.size() <= max) return std::string(text);
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "…";
}

std::string lower(std::string_view s) { return to_lower(s); }

std::vector<const Expr*> conjuncts(const Expr& e) { return split_conjuncts(e); }

std::string expr_text(const ParsedExpr& pe, const Expr& e) {
  if (e.end <= e.begin || e.end > pe.text.size()) return std::string(strip_parens(pe.text));
  return std::string(strip_parens(std::string_view(pe.text).substr(e.begin, e.end - e.begin)));
}

bool is_attribute(const Expr& e) { return e.kind == ExprKind::Attribute; }

bool is_constant(const Expr& e) {
  if (planlint::is_literal(e)) return true;
  if (e.kind != ExprKind::List) return false;
  return std::all_of(e.args.begin(), e.args.end(), [](const Expr& a) { return planlint::is_literal(a); });
}

std::optional<SimplePredicate> simple_predicate(const Expr& e) {
  // The key of the attribute's column: column_key of column_name (backquotes dropped first; the
  // usual name has none, and then column_key reads it as it is). A name that is its own key (no
  // quote, nothing to lower-case) is viewed, not copied; column_key_view declines every name with a
  // backquote, so the look for one is made only for the few it declines.
  auto key = [](const Expr& attribute) {
    std::string_view n = attribute.name;
    if (auto v = column_key_view(n)) return ColumnKey::viewing(*v);
    return ColumnKey::owning(n.find('`') == std::string_view::npos ? column_key(n) : column_key(column_name(attribute)));
  };
  if (auto cf = catalyst_filter(e)) return SimplePredicate{cf->op, key(*cf->attribute)};
  // A v1 pushed filter (pushed_filter_parts): Name(attribute, ...).
  if (e.kind != ExprKind::Function || e.args.empty() || e.args[0].kind != ExprKind::Attribute) return std::nullopt;
  if (FilterOp op = filter_op(e.name); op != FilterOp::Other) return SimplePredicate{op, key(e.args[0])};
  return std::nullopt;
}

std::vector<const Expr*> attributes_in(const Expr& e) { return collect_attributes(e); }

const ColumnSet* data_columns(const Operator& scan) {
  if (!scan.scan || !scan.scan->data_columns) return nullptr;
  return &*scan.scan->data_columns;
}

namespace {
const ColumnSet kNoColumns;
}  // namespace

const ColumnSet& output_columns(const Operator& scan) { return scan.scan ? scan.scan->output_columns : kNoColumns; }

const ColumnSet& partition_filter_columns(const Operator& scan) {
  return scan.scan ? scan.scan->partition_columns : kNoColumns;
}

std::vector<const ParsedExpr*> field_exprs(const Operator& op, std::initializer_list<FieldRole> roles) {
  std::vector<const ParsedExpr*> out;
  for (const auto& f : op.fields)
    for (auto r : roles)
      if (f.role == r)
        for (const auto& e : f.exprs) out.push_back(&e);
  return out;
}

bool field_untrusted(const Field& f) {
  if (f.truncated || f.count_mismatch) return true;
  return std::any_of(f.exprs.begin(), f.exprs.end(), [](const ParsedExpr& e) { return e.truncated; });
}

}  // namespace planlint
