// truncated-metadata (PL008, info): a list the rules need was abbreviated by Spark.
#include <algorithm>
#include <memory>

#include "model/plan_walk.hpp"
#include "rules/rule.hpp"

namespace planlint {

namespace {

RuleDoc make_doc() {
  RuleDoc d;
  d.name = "truncated-metadata";
  d.code = "PL008";
  d.family = RuleFamily::Plan;
  d.severity = Severity::Info;
  d.summary = "Spark abbreviated a list the rules need, so some checks were skipped";
  d.what =
      "Reports an operator whose scan filters (`PushedFilters`, `DataFilters`, `RequiredDataFilters`, "
      "`PartitionFilters`, `ReadSchema`, profile `FILTERS`), filter condition or join keys were cut by "
      "Spark: a value ending in `...` (spark.sql.maxMetadataStringLength, 100 characters by default, in "
      "`explain()` / `explain(true)` / `EXPLAIN COST` and in scan nodes of the simple modes) or an "
      "argument list ending in `... N more fields` (spark.sql.debug.maxToStringFields, 25).";
  d.why =
      "planlint never guesses what the missing part said: a `PushedFilters` list cut after three "
      "filters may well contain the fourth. Rules that need the list (filter-not-pushed-down above all) "
      "stay silent on that operator, so the plan may hide a finding. This note says which list was cut "
      "and how to capture the plan again in full.";
  d.example =
      "+- FileScan parquet db.orders[id#1L,status#2,amount#3] Batched: true, DataFilters: [isnotnull(status#2), "
      "(status#2 = SHIPPED)], Format: Parquet, Location: InMemoryFileIndex(1 paths)[s3://bucket/orders], "
      "PartitionFilters: [], PushedFilters: [IsNotNull(status), EqualTo(status,SHIPPED), GreaterThan(amount,10..., "
      "ReadSchema: ...";
  d.use_instead =
      "SET spark.sql.maxMetadataStringLength = 10000;\n"
      "SET spark.sql.debug.maxToStringFields = 1000;\n"
      "EXPLAIN FORMATTED SELECT ...;   -- formatted mode never cuts scan metadata";
  d.evidence = "The parser's truncation flag on a field (`...` / `... N more fields` at the end of a value).";
  return d;
}

// The fields a rule needs whole.
bool needed(FieldRole r) {
  switch (r) {
    case FieldRole::PushedFilters:
    case FieldRole::DataFilters:
    case FieldRole::RequiredDataFilters:
    case FieldRole::PartitionFilters:
    case FieldRole::ReadSchema:
    case FieldRole::ScanFilters:
    case FieldRole::Condition:
    case FieldRole::LeftKeys:
    case FieldRole::RightKeys:
    case FieldRole::JoinCondition:
      return true;
    default:
      return false;
  }
}

class TruncatedMetadata final : public DocumentedRule<make_doc> {
 public:
  void check(RuleContext& ctx) const override {
    for (const Operator* op : ctx.active_ops()) {
      std::vector<std::string> keys;
      bool more_fields = false;
      for (const auto& f : op->fields) {
        // Whether a rule needs the field first (one test of the role: most fields, Output and
        // Input, are not needed, and their lists of expressions are then not walked), then cut.
        if (!needed(f.role)) continue;
        if (!f.truncated && std::none_of(f.exprs.begin(), f.exprs.end(), [](const auto& e) { return e.truncated; })) continue;
        if (std::find(keys.begin(), keys.end(), f.key) == keys.end()) keys.push_back(f.key.str());
        if (f.more_fields) more_fields = true;
      }
      if (keys.empty()) continue;
      std::string list;
      for (std::size_t i = 0; i < keys.size(); ++i) list += (i ? ", " : "") + keys[i];
      Diagnostic d = ctx.make(*op, op_ref(*op) + ": Spark abbreviated " + list +
                                       ", so planlint could not check " + (keys.size() > 1 ? "them" : "it") +
                                       " (filter-not-pushed-down is skipped for this operator)");
      for (const auto& k : keys) d.evidence.push_back({"abbreviated", k});
      d.fix = more_fields
                  ? "Capture the plan again with spark.sql.debug.maxToStringFields=1000 (and "
                    "spark.sql.maxMetadataStringLength=10000), or with EXPLAIN FORMATTED."
                  : "Capture the plan again with spark.sql.maxMetadataStringLength=10000 (default 100), or with "
                    "EXPLAIN FORMATTED, which does not abbreviate scan metadata.";
      ctx.report(std::move(d));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_truncated_metadata() { return std::make_unique<TruncatedMetadata>(); }

}  // namespace planlint
