// PL107 wide-projection: a scan reads many more columns than its consumers use. Spark's column
// pruning normally prevents this; when a plan shows it, something blocked the pruning.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>

#include "model/phases.hpp"
#include "model/plan_walk.hpp"
#include "rules/rule.hpp"

namespace planlint {
namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A scan column as printed: "ss_item_sk#12L" -> name "ss_item_sk", id "12"; profile "ss_item_sk" -> no id.
struct Column {
  std::string_view name, id;  // views into the Output list's text (kept by the plan)
};

Column parse_column(std::string_view item) {
  Column c;
  while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
  while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
  auto hash = item.rfind('#');
  if (hash == std::string_view::npos) {
    c.name = item;
    return c;
  }
  c.name = item.substr(0, hash);
  std::size_t j = hash + 1;
  while (j < item.size() && std::isdigit(static_cast<unsigned char>(item[j]))) ++j;
  c.id = item.substr(hash + 1, j - hash - 1);
  return c;
}

// Is the column referenced in `text`? By expression id when it has one ("#12" not followed by a
// digit), else by name with word boundaries ("c_birth_year" inside "customer.c_birth_year").
bool referenced(const Column& c, const std::string& text, std::string& needle) {
  if (!c.id.empty()) {
    needle.assign(1, '#');
    needle += c.id;
    for (auto p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) {
      std::size_t e = p + needle.size();
      if (e >= text.size() || !std::isdigit(static_cast<unsigned char>(text[e]))) return true;
    }
    return false;
  }
  if (c.name.empty()) return true;
  for (auto p = text.find(c.name); p != std::string::npos; p = text.find(c.name, p + 1)) {
    std::size_t e = p + c.name.size();
    bool left = p == 0 || !word_char(text[p - 1]);
    bool right = e >= text.size() || !word_char(text[e]);
    if (left && right) return true;
  }
  return false;
}

// A bare attribute as printed, "id#31L" (no expression, no rename): returns its column.
std::optional<Column> bare_column(std::string_view item) {
  Column c = parse_column(item);
  if (c.id.empty() || c.name.empty()) return std::nullopt;
  const char* end = c.id.data() + c.id.size();
  const char* item_end = item.data() + item.size();
  while (item_end > end && item_end[-1] == ' ') --item_end;
  if (end < item_end && *end == 'L') ++end;
  if (end != item_end) return std::nullopt;
  for (char ch : c.name)
    if (!(word_char(ch) || ch == '.' || ch == '`')) return std::nullopt;
  return c;
}

// A Project that passes every scan column still alive (`live`, by expression id) on unchanged, and
// may add computed columns (`rand(7) AS r#63`): a column passed through is not a use. Returns its
// computed items (what it really uses), or nullopt when it is not such a projection.
std::optional<std::string> pass_through_projection(const Operator& p, const std::vector<Column>& live) {
  if (p.kind != OpKind::Project || p.details_missing) return std::nullopt;
  const Field* out = p.field(FieldRole::Output);
  if (!out || !out->is_list || out->count_mismatch || out->truncated || out->item_spans.empty()) return std::nullopt;
  std::vector<std::string_view> kept;
  std::string computed;
  for (std::string_view it : out->items()) {
    if (auto c = bare_column(it)) {
      kept.push_back(c->id);
    } else {
      computed += it;
      computed += '\n';
    }
  }
  for (const Column& c : live) {
    if (c.id.empty()) return std::nullopt;
    if (std::find(kept.begin(), kept.end(), c.id) == kept.end()) return std::nullopt;
  }
  return computed;
}

// The one active parent of `op` (an AQE plan prints the scan once, under both its final and its
// initial plan; the initial plan's copy did not run), or nullptr.
const Operator* active_parent(const Plan& plan, const Operator& op, bool final_plan) {
  const Operator* up = nullptr;
  for (std::size_t p : op.parents) {
    if (!is_active(plan.ops[p], final_plan)) continue;
    if (up) return nullptr;
    up = &plan.ops[p];
  }
  return up;
}

// Everything an operator's expressions mention, except the pass-through `Input` list.
void add_refs(const Operator& op, std::string& refs, bool include_output) {
  for (const Field& f : op.fields) {
    if (f.role == FieldRole::Input) continue;
    if (!include_output && f.role == FieldRole::Output) continue;
    for_each_field_text(f, [&refs](std::string_view t) {
      refs += t;
      refs += '\n';
    });
  }
  refs += op.arguments;
  refs += '\n';
  if (op.fields.empty()) {
    refs += op.label;
    refs += '\n';
  }
}


// The rule's thresholds, listed in its doc and read by check().
inline constexpr ThresholdKey kMinUnusedColumns{"min-unused-columns"};
inline constexpr ThresholdKey kMaxUsedFraction{"max-used-fraction"};

RuleDoc make_doc() {
  RuleDoc r;
  r.name = "wide-projection";
  r.code = "PL107";
  r.family = RuleFamily::Runtime;
  r.severity = Severity::Warning;
  r.summary = "A scan reads many more columns than the query uses";
  r.what =
      "Compares the columns a table scan outputs with the columns its consumers reference (the "
      "filters, exchanges and the first projection or aggregation above it; a projection that passes "
      "every column on unchanged and only adds computed ones is looked through, its computed columns "
      "counting as uses) and reports scans where most columns are read and then dropped.";
  r.why =
      "Parquet and Delta are columnar: each column read costs I/O, decompression and memory, and "
      "wide rows make every later shuffle and spill larger. Spark normally prunes unused columns "
      "before the scan; when a plan still reads them, the pruning was blocked -- typically by "
      "SELECT * into a cached DataFrame, a typed Dataset / RDD step, a UDF over the whole row, or a "
      "data source that cannot prune.";
  r.example =
      "Scan parquet sales  Output [40]: [...]\n"
      "+- Project [sale_id#0, amount#7]          -- 38 columns read for nothing";
  r.use_instead =
      "Select the needed columns at the source: spark.table('sales').select('sale_id', 'amount') "
      "before caching or before the typed / Python step; avoid SELECT * in views and CTEs that "
      "feed narrow queries.";
  r.evidence =
      "Explain text: the scan's `Output` list and the expressions of the operators above it "
      "(matched by expression id); Query Profile JSON: the scan's OUTPUT metadata and the "
      "consumers' expressions (matched by column name). No finding when the columns pass "
      "through a join, window, union, generator or any operator whose column use is unknown.";
  r.thresholds = {
      {kMinUnusedColumns, 5, "columns", "dropping fewer columns is rarely measurable"},
      {kMaxUsedFraction, 0.5, "ratio", "the consumers use at most half of the columns read"},
  };
  return r;
}

class WideProjection final : public DocumentedRule<make_doc> {
 public:
  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    const bool final_plan = ctx.final_plan_exists();
    const std::vector<const Operator*>& scans = ctx.active_ops(OpKind::Scan);
    if (scans.empty()) return;
    // A scan of fewer columns than min-unused-columns cannot leave that many unused: not walked.
    const double min_unused = ctx.threshold(kMinUnusedColumns);
    for (const Operator* active : scans) {
      const Operator& op = *active;
      const Field* out = op.field(FieldRole::Output);
      if (!out || !out->is_list || out->count_mismatch || out->truncated || out->item_spans.empty()) continue;
      if (static_cast<double>(out->item_spans.size()) < min_unused) continue;
      // Walk up to the first projecting consumer.
      const Operator* consumer = nullptr;
      std::vector<const Operator*> path;  // the operators between the scan and the consumer
      for (const Operator* p = active_parent(plan, op, final_plan); p; p = active_parent(plan, *p, final_plan)) {
        if (p->kind == OpKind::Project || p->kind == OpKind::Aggregate) {
          consumer = p;
          break;
        }
        if (!is_pass_through(*p)) break;
        path.push_back(p);
      }
      if (!consumer) continue;
      // An operator on the way whose details the (cut) paste lacks: what it uses is unknown.
      bool unknown = consumer->details_missing;
      for (const Operator* p : path) unknown = unknown || p->details_missing;
      if (unknown) continue;
      // The scan's columns, parsed only when a consumer was found.
      std::vector<Column> cols;
      cols.reserve(out->item_spans.size());
      for (std::string_view it : out->items()) cols.push_back(parse_column(it));
      // What the operators on the way use, collected only when there is a consumer (the same
      // single-parent path again).
      std::string refs;
      for (const Operator* p : path) add_refs(*p, refs, false);
      // A projection that passes every scan column on (ColumnPruning excluded, a `withColumn` kept
      // before the select) uses only what it computes: the columns used are those of the
      // consumer above it.
      std::vector<const Operator*> passed;
      while (auto computed = pass_through_projection(*consumer, cols)) {
        const Operator* next = nullptr;
        std::string between;
        for (const Operator* p = active_parent(plan, *consumer, final_plan); p; p = active_parent(plan, *p, final_plan)) {
          if (p->details_missing) break;
          if (p->kind == OpKind::Project || p->kind == OpKind::Aggregate) {
            next = p;
            break;
          }
          if (!is_pass_through(*p)) break;
          add_refs(*p, between, false);
        }
        if (!next) break;
        passed.push_back(consumer);
        refs += *computed;
        refs += between;
        consumer = next;
      }
      add_refs(*consumer, refs, true);
      std::vector<std::string_view> unused;
      std::string needle;
      for (const Column& c : cols)
        if (!referenced(c, refs, needle)) unused.push_back(c.name);
      double n = static_cast<double>(cols.size());
      double used = n - static_cast<double>(unused.size());
      if (static_cast<double>(unused.size()) < min_unused) continue;
      if (used / n > ctx.threshold(kMaxUsedFraction)) continue;

      std::string list;
      for (std::size_t i = 0; i < unused.size() && i < 8; ++i) {
        if (i) list += ", ";
        list += unused[i];
      }
      if (unused.size() > 8) list += ", ... " + std::to_string(unused.size() - 8) + " more";
      Diagnostic d = ctx.make(op, scan_ref(op) + " reads " + std::to_string(cols.size()) +
                                      " columns but " + op_ref(*consumer) + " and the operators below it use " +
                                      format_count(used) + " (" + format_percent(used / n) + "); unused: " + list);
      d.evidence.push_back({"columns read", n, Unit::Columns});
      d.evidence.push_back({"columns used", used, Unit::Columns});
      d.evidence.push_back({"unused columns", static_cast<double>(unused.size()), Unit::Columns, list});
      d.evidence.push_back({"consumer", op_ref(*consumer)});
      for (const Operator* p : passed)
        d.evidence.push_back({"pass-through projection", op_ref(*p) + " passes every column read on unchanged"});
      auto bytes = first_metric(op, {Metric::FilesReadBytes});
      if (bytes) d.evidence.push_back({"size of files read", *bytes, Unit::Bytes});
      d.fix = "Select only the needed columns before the step that blocks column pruning (cache, typed "
              "Dataset or RDD operation, UDF over the whole row, non-pruning source): e.g. "
              "spark.table(...).select(<used columns>), and avoid SELECT * in views and CTEs.";
      double waste = static_cast<double>(unused.size()) / n;
      if (op.duration_ms()) {
        set_impact(d, *op.duration_ms() * waste, "ms", " of scan task time on unused columns", "about ");
      } else if (bytes) {
        set_impact(d, *bytes * waste, "bytes", " read for unused columns", "about ");
      }
      ctx.report(std::move(d));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_wide_projection() { return std::make_unique<WideProjection>(); }

}  // namespace planlint
