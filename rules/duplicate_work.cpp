// PL106 duplicate-work: the same scan-and-filter subtree is computed more than once in one plan
// (no ReusedExchange / ReusedSubquery took its place): two actions on one DataFrame, a CTE or view
// expanded twice, a self-union.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "model/phases.hpp"
#include "model/plan_walk.hpp"
#include "rules/rule.hpp"

namespace planlint {
namespace {

bool is_identity_field(FieldRole r) {
  switch (r) {
    case FieldRole::PushedFilters:
    case FieldRole::DataFilters:
    case FieldRole::PartitionFilters:
    case FieldRole::RequiredDataFilters:
    case FieldRole::OptionalDataFilters:
    case FieldRole::DictionaryFilters:
    case FieldRole::ScanFilters:
    case FieldRole::ReadSchema:
    case FieldRole::Output:
    case FieldRole::Location:
      return true;
    default:
      return false;
  }
}

void append_field_signature(std::string& sig, const Operator& op) {
  for (const Field& f : op.fields) {
    if (!is_identity_field(f.role)) continue;
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

struct Chain {
  const Operator* scan = nullptr;
  const Operator* top = nullptr;  // the highest Filter / transition of the scan-and-filter chain
  std::string signature;
  std::vector<std::string> filters;
  bool untrusted = false;       // a compared list or the location was abbreviated: equality unknown
  bool runtime_filter = false;  // the optimizer's bloom-filter runtime-filter subquery reads it
};

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

// A scan that names what it reads: a table or a location. RDD and local scans (`Scan[obj#1]`,
// `Scan ExistingRDD`, `LocalTableScan`, `Range`) and scans whose names the author cut from a paste
// (`FileScan csv` alone) do not: two of them with the same columns may read different data.
bool has_table_identity(const Operator& scan) {
  if (scan.scan && scan.scan->source == ScanSource::Local) return false;
  if (!scan.table.empty()) return true;
  return scan.field(FieldRole::Location) != nullptr;
}

// The start of a scan's signature: its table and format. Scans whose heads differ cannot be copies.
std::string signature_head(const Operator& scan) {
  const std::string_view table = (scan.table.empty() ? scan.name : scan.table).view();
  std::string head;
  head.reserve(table.size() + scan.scan_format.size() + 2);  // ids dropped make it only shorter
  append_without_ids(head, table);
  head += '|';
  head += scan.scan_format;
  head += '|';
  return head;
}

// Appends the signature of the scan-and-filter chain that starts at `scan` (everything after the
// head) to `sig`; the Filter conditions as printed go to `filters` when given. Returns the top of
// the chain.
const Operator* append_chain_signature(const Plan& plan, const Operator& scan, std::string& sig,
                                       std::vector<std::string>* filters) {
  append_without_ids(sig, scan.arguments);
  sig += '|';
  append_field_signature(sig, scan);
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
      if (filters) filters->push_back(std::move(cond));
    }
    cur = &p;
  }
  return cur;
}

Chain build_chain(const Plan& plan, const Operator& scan, std::string head) {
  Chain c;
  c.scan = &scan;
  c.signature = std::move(head);
  c.top = append_chain_signature(plan, scan, c.signature, &c.filters);
  c.untrusted = c.signature.find("\x01untrusted") != std::string::npos || (scan.scan && scan.scan->location_truncated) ||
                scan.details_missing;
  c.runtime_filter = feeds_bloom_filter(plan, *c.top);
  return c;
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
Cost cost_of(const Chain& c) {
  Cost k;
  k.ms = c.scan->duration_ms;
  k.bytes = first_metric(*c.scan, {Metric::FilesReadBytes});
  if (!k.bytes && c.scan->stats->size_bytes && !c.scan->stats->masked) k.bytes = c.scan->stats->size_bytes;
  k.rows = first_metric(*c.scan, {Metric::RowsScanned});
  if (!k.rows) k.rows = c.scan->rows;
  return k;
}

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
      "conditions above them, where no ReusedExchange or ReusedSubquery replaced the copy.";
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
      "files). Profiles and event logs add the scan's bytes, rows and time, used for the impact "
      "and to skip copies below the size threshold; without any measurement (explain text) the "
      "finding is reported as info, because the cost of the repeated scan is unknown.";
  r.thresholds = {
      {kMinBytes, 134217728, "bytes",
       "when the source measured the scan, copies reading under 128 MiB (one default file "
       "split) are not worth caching"},
  };
  return r;
}

class DuplicateWork final : public DocumentedRule<make_doc> {
 public:
  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    // Grouped by the signature's hashes, in order of first appearance. Only the scan is kept per
    // member: a plan of many scans would otherwise hold every chain's texts at once.
    using Groups = std::map<SignatureKey, std::vector<const Operator*>>;
    Groups groups;
    std::vector<Groups::const_iterator> order;
    // A scan whose table and format no other scan shares has no copy: its chain (the long part of
    // the work) is not built.
    // Each active scan's head, computed once.
    std::vector<std::pair<const Operator*, std::string>> scans;
    scans.reserve(plan.ops.size());
    std::unordered_map<std::string_view, std::uint32_t> heads;
    for (const Operator* op : ctx.active_ops())
      if (op->kind == OpKind::Scan && has_table_identity(*op)) scans.emplace_back(op, signature_head(*op));
    // Each scan's count, looked up once (a map's elements stay where they are as it grows).
    std::vector<const std::uint32_t*> head_count;
    head_count.reserve(scans.size());
    for (const auto& [op, head] : scans) {
      std::uint32_t& n = heads[head];
      ++n;
      head_count.push_back(&n);
    }
    // Only the signature's hashes are kept here: one buffer serves every scan.
    std::string sig;
    for (std::size_t i = 0; i < scans.size(); ++i) {
      const Operator& op = *scans[i].first;
      if (*head_count[i] < 2) continue;
      sig = scans[i].second;
      const Operator* top = append_chain_signature(plan, op, sig, nullptr);
      if (feeds_bloom_filter(plan, *top)) continue;  // a bloom-filter subquery re-reads the creation side on purpose
      auto [it, fresh] = groups.try_emplace(signature_key(sig));
      if (fresh) order.push_back(it);
      it->second.push_back(&op);
    }
    // Each group of two or more, split by the exact signatures (chains built again for these scans only).
    std::vector<std::vector<Chain>> same;
    for (Groups::const_iterator group : order) {
      if (group->second.size() < 2) continue;
      std::map<std::string, std::size_t> by_signature;
      for (const Operator* scan : group->second) {
        Chain c = build_chain(plan, *scan, signature_head(*scan));
        auto [at, fresh] = by_signature.try_emplace(std::move(c.signature), same.size());
        if (fresh) same.emplace_back();
        same[at->second].push_back(std::move(c));
      }
    }
    for (const std::vector<Chain>& copies : same) {
      if (copies.size() < 2) continue;
      // Abbreviated text cannot prove two scans equal.
      if (std::any_of(copies.begin(), copies.end(), [](const Chain& c) { return c.untrusted; })) continue;
      const Chain& first = copies[0];
      const Chain& dup = copies[1];
      Cost k = cost_of(dup);
      double min = ctx.threshold(kMinBytes);
      if (k.bytes && *k.bytes < min) continue;
      std::string table((first.scan->table.empty() ? first.scan->name : first.scan->table).view());
      std::string msg = scan_ref(*dup.scan) + " repeats " + scan_ref(*first.scan) +
                        ": the same scan" + (first.filters.empty() ? "" : " and filter") + " of " + table +
                        " is computed " + std::to_string(copies.size()) +
                        " times in this plan without ReusedExchange";
      Diagnostic d = ctx.make(*dup.scan, std::move(msg));
      // Without a measured size the cost is unknown (a repeated dimension scan is cheap): info.
      if (!k.bytes && !k.ms && !k.rows) d.severity = Severity::Info;
      d.evidence.push_back({"copies", static_cast<double>(copies.size()), Unit::Count});
      for (const Chain& c : copies) d.evidence.push_back({"copy", scan_ref(*c.scan)});
      for (const std::string& f : first.filters) d.evidence.push_back({"filter", f});
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
