// PL106 duplicate-work: the same scan-and-filter subtree is computed more than once in one plan
// (no ReusedExchange / ReusedSubquery took its place): two actions on one DataFrame, a CTE or view
// expanded twice, a self-union.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "model/phases.hpp"
#include "model/plan_walk.hpp"
#include "rules/rule.hpp"

namespace planlint {
namespace {

bool is_column_field(FieldRole r) { return r == FieldRole::Output || r == FieldRole::ReadSchema; }

bool is_filter_field(FieldRole r) {
  switch (r) {
    case FieldRole::PushedFilters:
    case FieldRole::DataFilters:
    case FieldRole::PartitionFilters:
    case FieldRole::RequiredDataFilters:
    case FieldRole::OptionalDataFilters:
    case FieldRole::DictionaryFilters:
    case FieldRole::ScanFilters:
      return true;
    default:
      return false;
  }
}

// What names a scan's data: its filters, its columns and where it reads.
bool is_identity_field(FieldRole r) { return is_filter_field(r) || is_column_field(r) || r == FieldRole::Location; }

// `loose`: without the column lists (Output, ReadSchema).
void append_field_signature(std::string& sig, const Operator& op, bool loose) {
  for (const Field& f : op.fields) {
    if (!is_identity_field(f.role)) continue;
    if (loose && is_column_field(f.role)) continue;
    if (field_untrusted(f)) sig += "\x01untrusted";
    sig += f.key;
    sig += '=';
    for_each_field_text(f, [&sig](std::string_view t) {
      append_without_ids(sig, t);
      sig += ';';
    });
    sig += '|';
  }
}

// The chain feeds an aggregate that builds a bloom filter (bloom_filter_agg) for a runtime filter:
// the optimizer's own plumbing, reading the creation side once more on purpose.
bool feeds_bloom_filter(const Plan& plan, const Operator& top) {
  const Operator* cur = &top;
  for (int hops = 0; hops < 12 && cur->parents.size() == 1; ++hops) {
    cur = &plan.ops[cur->parents[0]];
    if (cur->facts->runtime_filter_agg) return true;
    if (cur->details_missing) return true;  // its aggregate functions are not in the (cut) paste: it may be one
    if (cur->kind == OpKind::Join || cur->kind == OpKind::Union) return false;
  }
  return false;
}

bool has_in_subquery(const Expr& e) {
  if (e.kind == ExprKind::InSubquery) return true;
  return std::any_of(e.args.begin(), e.args.end(), [](const Expr& a) { return has_in_subquery(a); });
}

// A scan pruned by a dynamic-pruning subquery: `x IN dynamicpruning#n` (an IN-subquery) among its
// partition filters. (A scalar subquery compared in a pushed filter is no such thing: its scans are
// a user's.)
bool pruned_by_subquery(const Operator& scan) {
  for (const Field& f : scan.fields)
    if (f.role == FieldRole::PartitionFilters)
      for (const ParsedExpr& pe : f.exprs)
        if (pe.root && has_in_subquery(*pe.root)) return true;
  return false;
}

// Operators of a dynamic-partition-pruning subquery: Spark's own plumbing, which reads the join's
// filtered dimension side once more to prune the fact scan's partitions (and reuses the join's
// broadcast for it where it can). A copy of a main-plan scan there is no repeat a user wrote.
// Such a subquery hangs under the pruned scan (a leaf otherwise) in the tree of the other modes
// (SubqueryBroadcast / SubqueryAdaptiveBroadcast), or is listed apart in formatted mode with the
// scan as its hosting operator.
std::vector<bool> dynamic_pruning_ops(const Plan& plan) {
  std::vector<bool> in(plan.ops.size(), false);
  std::vector<std::size_t> todo;
  for (const SubqueryEntry& sq : plan.subqueries)
    if (sq.root && sq.hosting_op && *sq.hosting_op < plan.ops.size() && plan.ops[*sq.hosting_op].kind == OpKind::Scan &&
        pruned_by_subquery(plan.ops[*sq.hosting_op]))
      todo.push_back(*sq.root);
  for (const Operator& op : plan.ops)
    if (op.kind == OpKind::Scan && pruned_by_subquery(op))
      for (std::size_t c : op.children) todo.push_back(c);
  while (!todo.empty()) {
    std::size_t i = todo.back();
    todo.pop_back();
    if (i >= plan.ops.size() || in[i]) continue;
    in[i] = true;
    for (std::size_t c : plan.ops[i].children) todo.push_back(c);
  }
  return in;
}

// A scan that names what it reads: a table or a location. RDD and local scans (`Scan[obj#1]`,
// `Scan ExistingRDD`, `LocalTableScan`, `Range`) and scans whose names the author cut from a paste
// (`FileScan csv` alone) do not: two of them with the same columns may read different data.
bool has_table_identity(const Operator& scan) {
  if (scan.scan && scan.scan->source == ScanSource::Local) return false;
  if (!scan.table().empty()) return true;
  return scan.field(FieldRole::Location) != nullptr;
}

// The start of a scan's signature: its table and format. Scans whose heads differ cannot be copies.
// Written into `head` (a buffer reused from scan to scan).
void signature_head(std::string& head, const Operator& scan) {
  const std::string_view table = (scan.table().empty() ? scan.name : scan.table()).view();
  head.clear();
  head.reserve(table.size() + scan.scan_format().size() + 2);  // ids dropped make it only shorter
  append_without_ids(head, table);
  head += '|';
  head += scan.scan_format();
  head += '|';
}

// `t` without its leading and trailing blanks.
std::string_view trimmed(std::string_view t) {
  while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  return t;
}

// The scan's Output list when it is printed whole and split into items, else nullptr.
const Field* whole_output(const Operator& scan) {
  const Field* out = scan.field(FieldRole::Output);
  return out && out->is_list && !out->item_spans.empty() && !out->truncated && !out->count_mismatch && !field_untrusted(*out)
             ? out
             : nullptr;
}

// The columns a scan reads, without expression ids, sorted: its Output list, else the fields of
// its ReadSchema. Nothing when neither is printed whole.
std::optional<std::vector<std::string>> scan_columns(const Operator& scan) {
  std::vector<std::string> cols;
  if (const Field* out = whole_output(scan)) {
    for (std::string_view it : out->items()) {
      std::string c;
      append_without_ids(c, trimmed(it));
      if (c.empty()) return std::nullopt;
      cols.push_back(std::move(c));
    }
  } else if (const Field* rs = scan.field(FieldRole::ReadSchema); rs && !rs->truncated && !field_untrusted(*rs)) {
    // struct<code:string,x:bigint,m:map<string,int>>: the top-level names.
    std::string_view v = trimmed(rs->value);
    if (v.rfind("struct<", 0) != 0 || v.back() != '>') return std::nullopt;
    v = v.substr(7, v.size() - 8);
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= v.size(); ++i) {
      if (i < v.size() && (v[i] == '<' || v[i] == '(')) ++depth;
      if (i < v.size() && (v[i] == '>' || v[i] == ')')) --depth;
      if (i == v.size() || (v[i] == ',' && depth == 0)) {
        std::string_view item = v.substr(start, i - start);
        auto colon = item.find(':');
        if (colon == std::string_view::npos || colon == 0) return std::nullopt;
        cols.emplace_back(trimmed(item.substr(0, colon)));
        start = i + 1;
      }
    }
  } else {
    return std::nullopt;
  }
  std::sort(cols.begin(), cols.end());
  if (std::adjacent_find(cols.begin(), cols.end()) != cols.end()) return std::nullopt;  // not one column per name
  return cols;
}

// Whether scan_columns(scan) has a value, without building its list: the column names go into one
// reused buffer and are compared as views of it (group_key asks this of every scan with a shared
// head; the list itself is wanted only for the few loose groups).
bool has_scan_columns(const Operator& scan) {
  thread_local std::string names;
  thread_local std::vector<std::pair<std::uint32_t, std::uint32_t>> spans;  // (start, size) in `names`
  const Field* out = whole_output(scan);
  if (!out) return scan_columns(scan).has_value();  // the ReadSchema form, and no list at all: rare
  names.clear();
  spans.clear();
  for (std::string_view it : out->items()) {
    const std::size_t start = names.size();
    append_without_ids(names, trimmed(it));
    if (names.size() == start) return false;
    spans.emplace_back(static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(names.size() - start));
  }
  auto view = [](const std::pair<std::uint32_t, std::uint32_t>& sp) { return std::string_view(names).substr(sp.first, sp.second); };
  std::sort(spans.begin(), spans.end(), [&](const auto& a, const auto& b) { return view(a) < view(b); });
  return std::adjacent_find(spans.begin(), spans.end(), [&](const auto& a, const auto& b) { return view(a) == view(b); }) ==
         spans.end();
}

// The scan's arguments without the column lists printed in them (explain's one-line scans print
// Output and ReadSchema there too).
std::string arguments_without_columns(const Operator& scan) {
  std::string args(scan.arguments.view());
  for (const Field& f : scan.fields) {
    if (!is_column_field(f.role) || f.value.empty()) continue;
    if (auto at = args.find(f.value.view()); at != std::string::npos) args.erase(at, f.value.size());
  }
  return args;
}

// Appends the signature of the scan-and-filter chain that starts at `scan` (everything after the
// head) to `sig`; the Filter conditions as printed go to `filters` when given. Returns the top of
// the chain. `loose`: without the scan's column lists; `filtered` is then set when the chain
// filters (a non-empty filter list of the scan, or a Filter above it).
const Operator* append_chain_signature(const Plan& plan, const Operator& scan, std::string& sig,
                                       std::vector<std::string>* filters, bool loose = false,
                                       bool* filtered = nullptr) {
  if (loose) {
    append_without_ids(sig, arguments_without_columns(scan));
    if (filtered)
      for (const Field& f : scan.fields)
        if (is_filter_field(f.role) && !f.empty_list()) *filtered = true;
  } else {
    append_without_ids(sig, scan.arguments);
  }
  sig += '|';
  append_field_signature(sig, scan, loose);
  const Operator* cur = &scan;
  while (cur->parents.size() == 1) {
    const Operator& p = plan.ops[cur->parents[0]];
    if (p.kind != OpKind::Filter && p.kind != OpKind::Transition && p.kind != OpKind::CodegenStage) break;
    if (p.details_missing) sig += "\x01untrusted";  // its condition is not in the (cut) paste
    if (p.kind == OpKind::Filter) {
      std::string cond;
      if (const Field* f = p.field(FieldRole::Condition))
        for_each_field_text(*f, [&cond](std::string_view t) { cond += t; });
      if (cond.empty()) cond = p.arguments;
      sig += "|filter:";
      append_without_ids(sig, cond);
      if (filtered) *filtered = true;
      if (filters) filters->push_back(std::move(cond));
    }
    cur = &p;
  }
  return cur;
}

// The signature scans are grouped by, into `key` (a buffer; `head` is the scan's head): without
// the column lists when the chain filters and both lists can be compared (one read's columns a
// subset of the other's still reads and filters the same files twice), else the whole signature.
// `top` receives the top of the chain. (Whether the lists can be compared is asked last: it is the
// dearer question, and a chain that does not filter never needs it.) `columns`: the scan's answer
// to has_scan_columns once asked (1 or 0), -1 before: the key is built twice for a scan of a group.
void group_key(std::string& key, const Plan& plan, const Operator& scan, std::string_view head,
               const Operator** top, std::int8_t& columns) {
  key.assign(head);
  bool filtered = false;
  const Operator* t = append_chain_signature(plan, scan, key, nullptr, true, &filtered);  // both chains end at one top
  auto comparable = [&] {
    if (columns < 0) columns = has_scan_columns(scan) ? 1 : 0;
    return columns == 1;
  };
  if (filtered && key.find("\x01untrusted") == std::string::npos && comparable()) {
    key.insert(0, "loose|");
    if (top) *top = t;
    return;
  }
  key.assign(head);
  append_chain_signature(plan, scan, key, nullptr);
  if (top) *top = t;
}

// A copy of a scan as the groups keep it: the scan and whether its chain can be compared. The
// texts of its chain (its signature, filters and columns) are computed again where a report needs
// them, not held for every copy: 5,000 copies of one scan in a generated 10,000-node profile held
// 3.7 MB of chains at the peak of its lint.
struct Copy {
  const Operator* scan = nullptr;
  bool untrusted = false;  // a compared list or the location was abbreviated: equality unknown
};

// The whole signature of the scan-and-filter chain that starts at `scan` (its head first) into
// `sig`; the Filter conditions as printed go to `filters` when given. Returns the copy.
Copy chain_signature(std::string& sig, const Plan& plan, const Operator& scan, std::vector<std::string>* filters) {
  signature_head(sig, scan);
  append_chain_signature(plan, scan, sig, filters);
  return {&scan, sig.find("\x01untrusted") != std::string::npos ||
                     (scan.scan && scan.scan->location_truncated) || scan.details_missing};
}

// A scan signature in 16 bytes: two independent 64-bit hashes. Scans are grouped by it first (a
// plan of many scans would otherwise hold every long signature at once); a group of two or more
// is then split by the signatures themselves, so a collision can never report two different scans.
using SignatureKey = std::pair<std::uint64_t, std::uint64_t>;
SignatureKey signature_key(std::string_view sig) {
  // The second hash: FNV-1a's multiply-xor over 8-byte words (then the tail bytes), a bit mix at the end.
  std::uint64_t h = 1469598103934665603ull ^ sig.size();
  std::size_t i = 0;
  for (; i + 8 <= sig.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, sig.data() + i, 8);
    h = (h ^ w) * 1099511628211ull;
  }
  for (; i < sig.size(); ++i) h = (h ^ static_cast<unsigned char>(sig[i])) * 1099511628211ull;
  h ^= h >> 29;
  return {std::hash<std::string_view>{}(sig), h};
}

// The work one copy costs, when the source measured it.
struct Cost {
  std::optional<double> ms, bytes, rows;
};
Cost cost_of(const Operator& scan) {
  Cost k;
  k.ms = scan.duration_ms();
  k.bytes = first_metric(scan, {Metric::FilesReadBytes});
  if (!k.bytes && scan.stats()->size_bytes && !scan.stats()->masked) k.bytes = scan.stats()->size_bytes;
  k.rows = first_metric(scan, {Metric::RowsScanned});
  if (!k.rows) k.rows = scan.rows();
  return k;
}

// A finding lists the copies a person can go and check; past the first kListedCopies one line counts
// the rest ("copies" gives the total): a generated plan with 5,000 copies of one scan otherwise
// carries 5,000 evidence lines, and holds them all in memory until the report is written.
inline constexpr std::size_t kListedCopies = 20;
// The group keys the rule keeps from its first pass to its second, in bytes (see check); a key not
// kept is built again.
inline constexpr std::size_t kKeptKeyBytes = 256 * 1024;
inline constexpr std::uint32_t kNotKept = UINT32_MAX;

// The rule's thresholds, listed in its doc and read by check().
inline constexpr ThresholdKey kMinBytes{"min-bytes"};

RuleDoc make_doc() {
  RuleDoc r;
  r.name = "duplicate-work";
  r.code = "PL106";
  r.family = RuleFamily::Runtime;
  r.severity = Severity::Warning;
  r.summary = "The same scan and filter are computed more than once in one plan";
  r.what =
      "Finds table scans that appear more than once in the executed plan with the same table, "
      "the same pushed / data / partition filters, the same columns and the same Filter "
      "conditions above them, where no ReusedExchange or ReusedSubquery replaced the copy. "
      "Filtered reads whose columns differ, the columns of each a subset of the widest read's "
      "(column pruning gave each branch only what it uses), are reported too: the same files are "
      "read and filtered once per read.";
  r.why =
      "Spark reuses an exchange or subquery only when the whole subtree below it is identical "
      "and it ends in an exchange. A DataFrame used by two actions, a CTE or view referenced "
      "twice with different downstream shapes, or a union of two aggregations of the same "
      "input is read, decompressed and filtered once per reference: the I/O and CPU of that "
      "scan are paid twice.";
  r.example =
      "WITH recent AS (SELECT * FROM events WHERE day >= '2024-01-01')\n"
      "SELECT ... FROM recent GROUP BY user UNION ALL SELECT ... FROM recent GROUP BY page\n"
      "-> two `Scan parquet events` with PartitionFilters [day >= 2024-01-01]";
  r.use_instead =
      "Compute the shared part once: CACHE TABLE recent / df.cache() (or persist()) when it is "
      "reused by several actions, write it to a temporary table in a job, or compute both "
      "results in one pass (GROUPING SETS, conditional aggregation).";
  r.evidence =
      "Any input format: the scans' table, filters and columns (expression ids ignored; "
      "dynamic-pruning and subquery ids kept, since different pruning subqueries read different "
      "files). The scans of a dynamic-partition-pruning subquery and of a bloom-filter runtime filter "
      "are Spark's own re-reads and are not compared. Profiles and event logs add the scan's bytes, rows and time, used for the impact "
      "and to skip copies below the size threshold; without any measurement (explain text) the "
      "finding is reported as info, because the cost of the repeated scan is unknown. The finding "
      "lists the first " + std::to_string(kListedCopies) +
      " copies (\"copy\") and counts the others (\"copies not listed\").";
  r.thresholds = {
      {kMinBytes, 134217728, "bytes",
       "when the source measured the scan, copies reading under 128 MiB (one default file "
       "split) are not worth caching"},
  };
  return r;
}

std::string column_list(const std::vector<std::string>& cols) {
  std::string out;
  for (const std::string& c : cols) out += (out.empty() ? "" : ", ") + c;
  return out;
}

std::size_t copy_lines(const std::vector<Copy>& copies) {
  return std::min(copies.size(), kListedCopies) + (copies.size() > kListedCopies ? 1 : 0);
}

template <class Describe>
void add_copies(Diagnostic& d, const std::vector<Copy>& copies, Describe describe) {
  const std::size_t listed = std::min(copies.size(), kListedCopies);
  for (std::size_t i = 0; i < listed; ++i) d.evidence.push_back({"copy", describe(*copies[i].scan)});
  if (copies.size() > listed)
    d.evidence.push_back({"copies not listed", static_cast<double>(copies.size() - listed), Unit::Count});
}

// Reads of one table with the same filters where the columns of each are a subset of the first
// (the widest): the files are read and filtered once per read.
void report_nested(RuleContext& ctx, const std::vector<Copy>& copies) {
  if (std::any_of(copies.begin(), copies.end(), [](const Copy& c) { return c.untrusted; })) return;
  const Operator& widest = *copies[0].scan;
  const Operator& dup = *copies[1].scan;
  // The work of the reads beyond the widest, when every one of them was measured.
  double sum[3] = {0, 0, 0};
  bool all[3] = {true, true, true};
  for (std::size_t i = 1; i < copies.size(); ++i) {
    const Cost c = cost_of(*copies[i].scan);
    const std::optional<double>* v[3] = {&c.ms, &c.bytes, &c.rows};
    for (int j = 0; j < 3; ++j) {
      if (*v[j]) sum[j] += **v[j];
      else all[j] = false;
    }
  }
  Cost k;
  if (all[0]) k.ms = sum[0];
  if (all[1]) k.bytes = sum[1];
  if (all[2]) k.rows = sum[2];
  if (k.bytes && *k.bytes < ctx.threshold(kMinBytes)) return;
  // The columns of a read of a loose group (scan_columns gave its key), the widest's filters.
  auto columns = [](const Operator& scan) { return scan_columns(scan).value_or(std::vector<std::string>{}); };
  const std::vector<std::string> widest_columns = columns(widest);
  std::vector<std::string> filters;
  std::string sig;
  chain_signature(sig, ctx.plan(), widest, &filters);
  std::string table((widest.table().empty() ? widest.name : widest.table()).view());
  std::string msg = scan_ref(dup) + " reads again part of what " + scan_ref(widest) +
                    " reads: the same scan" + (filters.empty() ? "" : " and filter") + " of " + table +
                    ", with columns [" + column_list(columns(dup)) + "] within [" + column_list(widest_columns) +
                    "], is computed " + std::to_string(copies.size()) + " times in this plan without ReusedExchange";
  Diagnostic d = ctx.make(dup, std::move(msg));
  if (!k.bytes && !k.ms && !k.rows) d.severity = Severity::Info;
  // Reserved at its size (at most kListedCopies copies are listed).
  d.evidence.reserve(2 + copy_lines(copies) + filters.size() + (k.bytes ? 1 : 0) + (k.rows ? 1 : 0) + (k.ms ? 1 : 0));
  d.evidence.push_back({"copies", static_cast<double>(copies.size()), Unit::Count});
  add_copies(d, copies, [&](const Operator& scan) { return scan_ref(scan) + ": [" + column_list(columns(scan)) + "]"; });
  d.evidence.push_back({"same filters", "the pushed, data and partition filters and the Filter conditions above "
                                        "the reads are the same; the columns of each read are a subset of " +
                                            scan_ref(widest) + "'s"});
  for (const std::string& f : filters) d.evidence.push_back({"filter", f});
  if (k.bytes) d.evidence.push_back({"bytes read again", *k.bytes, Unit::Bytes});
  if (k.rows) d.evidence.push_back({"rows read again", *k.rows, Unit::Rows});
  if (k.ms) d.evidence.push_back({"scan time of the repeated reads", *k.ms, Unit::Ms});
  d.fix = "Read the filtered table once with the union of the columns ([" + column_list(widest_columns) +
          "]) and use it for every branch: cache / persist it (df.cache(), CACHE TABLE) when several actions or "
          "CTE references use it, or produce the results in one pass (one aggregation feeding both branches, "
          "conditional aggregation, GROUPING SETS).";
  if (k.ms) {
    set_impact(d, *k.ms, "ms", " of scan task time repeated");
  } else if (k.bytes) {
    set_impact(d, *k.bytes, "bytes", " read again");
  }
  ctx.report(std::move(d));
}

// Runs of equal keys in `keyed` (sorted by key, then scan) of two or more scans, as [begin, end)
// ranges in the order of their first scan.
std::vector<std::pair<std::size_t, std::size_t>> runs_of_two(
    const std::vector<std::pair<SignatureKey, std::uint32_t>>& keyed) {
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  for (std::size_t b = 0, e = 0; b < keyed.size(); b = e) {
    for (e = b + 1; e < keyed.size() && keyed[e].first == keyed[b].first;) ++e;
    if (e - b >= 2) runs.emplace_back(b, e);
  }
  std::sort(runs.begin(), runs.end(), [&keyed](const auto& x, const auto& y) {
    return keyed[x.first].second < keyed[y.first].second;
  });
  return runs;
}

class DuplicateWork final : public DocumentedRule<make_doc> {
 public:
  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    // A copy needs two scans at least: a plan of one (most small plans) has nothing to compare.
    if (ctx.active_ops(OpKind::Scan).size() < 2) return;
    // The scans that may have a copy, in index order.
    std::vector<const Operator*> scans;
    scans.reserve(ctx.active_ops(OpKind::Scan).size());  // (not one slot per operator)
    const std::vector<bool> in_pruning = dynamic_pruning_ops(plan);
    // The creation side of a bloom-filter runtime filter is Spark's own re-read (runtime_filter_side,
    // a model fact); feeds_bloom_filter below also catches a chain whose aggregate a paste cut.
    for (const Operator* op : ctx.active_ops())
      if (op->kind == OpKind::Scan && has_table_identity(*op) && !in_pruning[op->index] &&
          !op->facts->runtime_filter_side)
        scans.push_back(op);
    // A scan whose table and format no other scan shares has no copy: its chain (the long part of
    // the work) is not built. Heads, then signatures, are compared by their hashes (sorted with the
    // scan's place: 24 bytes a scan), not held as texts; one buffer serves every scan.
    std::string head, sig;
    std::vector<std::pair<SignatureKey, std::uint32_t>> keyed;
    keyed.reserve(scans.size());
    for (std::size_t i = 0; i < scans.size(); ++i) {
      signature_head(head, *scans[i]);
      keyed.emplace_back(signature_key(head), static_cast<std::uint32_t>(i));
    }
    std::vector<std::int8_t> columns(scans.size(), -1);  // has_scan_columns of each scan, once asked
    std::sort(keyed.begin(), keyed.end());
    std::vector<bool> shared(scans.size(), false);
    const auto shared_heads = runs_of_two(keyed);
    for (const auto& [b, e] : shared_heads)
      for (std::size_t k = b; k < e; ++k) shared[keyed[k].second] = true;
    keyed.clear();
    // The keys made here are kept (one buffer, a part of it each) for the split of the groups
    // below, which otherwise built each group's keys a second time (208 of the golden plans' 804
    // keys, 0.9 M instructions); past kKeptKeyBytes the rest are built again there, so that a plan
    // of thousands of scans does not hold every long key at once. The buffer is the thread's, kept
    // from plan to plan (its growth cost more than the keys it spared when it was the plan's).
    thread_local std::string kept_keys;
    kept_keys.clear();
    std::vector<std::pair<std::uint32_t, std::uint32_t>> kept_at(scans.size(), {0, kNotKept});  // (begin, size)
    for (std::size_t i = 0; i < scans.size(); ++i) {
      if (!shared[i]) continue;
      const Operator& op = *scans[i];
      const Operator* top = nullptr;
      signature_head(head, op);
      group_key(sig, plan, op, head, &top, columns[i]);
      if (feeds_bloom_filter(plan, *top)) continue;  // a bloom-filter subquery re-reads the creation side on purpose
      keyed.emplace_back(signature_key(sig), static_cast<std::uint32_t>(i));
      if (kept_keys.size() + sig.size() <= kKeptKeyBytes) {
        kept_at[i] = {static_cast<std::uint32_t>(kept_keys.size()), static_cast<std::uint32_t>(sig.size())};
        kept_keys += sig;
      }
    }
    std::sort(keyed.begin(), keyed.end());  // by hash, then in scan order
    // Each group of two or more (in order of first appearance), split by the exact keys (in the
    // order of the keys' texts: one key unless two hashes collided); a loose group, then by the
    // exact signatures unless the columns of its reads nest.
    std::vector<std::vector<Copy>> same;
    std::vector<std::vector<Copy>> nested;
    const auto groups = runs_of_two(keyed);
    for (const auto& [b, e] : groups) {
      std::map<std::string, std::vector<std::uint32_t>, std::less<>> by_key;
      for (std::size_t k = b; k < e; ++k) {
        const std::uint32_t i = keyed[k].second;
        std::string_view key;
        if (kept_at[i].second != kNotKept) {
          key = std::string_view(kept_keys).substr(kept_at[i].first, kept_at[i].second);
        } else {
          const Operator& scan = *scans[i];
          signature_head(head, scan);
          group_key(sig, plan, scan, head, nullptr, columns[i]);
          key = sig;
        }
        auto it = by_key.find(key);
        if (it == by_key.end()) it = by_key.emplace(std::string(key), std::vector<std::uint32_t>{}).first;
        it->second.push_back(i);
      }
      for (const auto& [key, members] : by_key) {
        if (members.size() < 2) continue;
        std::vector<std::uint32_t> rest;
        if (key.starts_with("loose|")) {
          // The widest read, and the reads whose columns it holds.
          std::vector<std::size_t> count(members.size());
          for (std::size_t i = 0; i < members.size(); ++i)
            if (auto cols = scan_columns(*scans[members[i]])) count[i] = cols->size();
          std::size_t widest = 0;
          for (std::size_t i = 1; i < members.size(); ++i)
            if (count[i] > count[widest]) widest = i;
          const std::vector<std::string> all = scan_columns(*scans[members[widest]]).value_or(std::vector<std::string>{});
          std::vector<Copy> in;
          std::vector<std::uint32_t> in_index;
          std::vector<std::size_t> in_count;
          std::string first;
          bool one_signature = true;
          for (std::size_t i = 0; i < members.size(); ++i) {
            bool holds = i == widest;
            if (!holds) {
              const std::vector<std::string> cols = scan_columns(*scans[members[i]]).value_or(std::vector<std::string>{});
              holds = std::includes(all.begin(), all.end(), cols.begin(), cols.end());
            }
            if (!holds) {
              rest.push_back(members[i]);
              continue;
            }
            in.push_back(chain_signature(sig, plan, *scans[members[i]], nullptr));
            in_index.push_back(members[i]);
            in_count.push_back(count[i]);
            if (in.size() == 1) first = sig;
            else if (sig != first) one_signature = false;
          }
          if (in.size() >= 2 && !one_signature) {
            // The widest first (in their order), the others after: they read part of what it reads.
            std::vector<Copy> ordered;
            ordered.reserve(in.size());
            for (std::size_t i = 0; i < in.size(); ++i)
              if (in_count[i] == all.size()) ordered.push_back(in[i]);
            for (std::size_t i = 0; i < in.size(); ++i)
              if (in_count[i] != all.size()) ordered.push_back(in[i]);
            nested.push_back(std::move(ordered));
          } else if (rest.empty()) {
            same.push_back(std::move(in));  // every read holds the widest's columns, one signature
            continue;
          } else {
            rest.insert(rest.end(), in_index.begin(), in_index.end());
          }
        } else {
          rest = members;
        }
        if (rest.empty()) continue;
        // One signature (the usual case: N copies of one scan): the group as it is.
        std::vector<Copy> copies;
        copies.reserve(rest.size());
        std::string first;
        bool one_signature = true;
        for (std::uint32_t i : rest) {
          copies.push_back(chain_signature(sig, plan, *scans[i], nullptr));
          if (copies.size() == 1) first = sig;
          else if (sig != first) one_signature = false;
        }
        if (one_signature) {
          same.push_back(std::move(copies));
          continue;
        }
        std::map<std::string, std::size_t> by_signature;
        for (const Copy& c : copies) {
          chain_signature(sig, plan, *c.scan, nullptr);
          auto [at, fresh] = by_signature.try_emplace(sig, same.size());
          if (fresh) same.emplace_back();
          same[at->second].push_back(c);
        }
      }
    }
    for (const std::vector<Copy>& copies : nested) report_nested(ctx, copies);
    std::vector<std::string> filters;
    for (const std::vector<Copy>& copies : same) {
      if (copies.size() < 2) continue;
      // Abbreviated text cannot prove two scans equal.
      if (std::any_of(copies.begin(), copies.end(), [](const Copy& c) { return c.untrusted; })) continue;
      const Operator& first = *copies[0].scan;
      const Operator& dup = *copies[1].scan;
      Cost k = cost_of(dup);
      double min = ctx.threshold(kMinBytes);
      if (k.bytes && *k.bytes < min) continue;
      filters.clear();
      chain_signature(sig, plan, first, &filters);
      std::string table((first.table().empty() ? first.name : first.table()).view());
      std::string msg = scan_ref(dup) + " repeats " + scan_ref(first) +
                        ": the same scan" + (filters.empty() ? "" : " and filter") + " of " + table +
                        " is computed " + std::to_string(copies.size()) +
                        " times in this plan without ReusedExchange";
      Diagnostic d = ctx.make(dup, std::move(msg));
      // Without a measured size the cost is unknown (a repeated dimension scan is cheap): info.
      if (!k.bytes && !k.ms && !k.rows) d.severity = Severity::Info;
      // Reserved at its size (at most kListedCopies copies are listed).
      d.evidence.reserve(1 + copy_lines(copies) + filters.size() + (k.bytes ? 1 : 0) + (k.rows ? 1 : 0) + (k.ms ? 1 : 0));
      d.evidence.push_back({"copies", static_cast<double>(copies.size()), Unit::Count});
      add_copies(d, copies, [](const Operator& scan) { return scan_ref(scan); });
      for (const std::string& f : filters) d.evidence.push_back({"filter", f});
      if (k.bytes) d.evidence.push_back({"bytes per copy", *k.bytes, Unit::Bytes});
      if (k.rows) d.evidence.push_back({"rows per copy", *k.rows, Unit::Rows});
      if (k.ms) d.evidence.push_back({"scan time per copy", *k.ms, Unit::Ms});
      d.fix = "Compute the shared scan once: cache it (CACHE TABLE / df.cache()) when several actions or "
              "CTE references use it, materialise it in a temporary table, or produce the results in "
              "one pass (GROUPING SETS, conditional aggregation, one aggregation feeding both branches).";
      double extra = static_cast<double>(copies.size() - 1);
      if (k.ms) {
        set_impact(d, *k.ms * extra, "ms", " of scan task time repeated");
      } else if (k.bytes) {
        set_impact(d, *k.bytes * extra, "bytes", " read again");
      }
      ctx.report(std::move(d));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_duplicate_work() { return std::make_unique<DuplicateWork>(); }

}  // namespace planlint
