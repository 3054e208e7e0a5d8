// Helpers of the join rules that the model has no use for: SQL text hints, the names of a join
// side. Everything else a rule asks of a plan is a model question: include the model header that
// answers it (model/plan_walk.hpp, model/phases.hpp, model/expr_util.hpp, ...).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/facts.hpp"
#include "model/plan.hpp"

namespace planlint {

// ---- hints ---------------------------------------------------------------------------------

// The SQL text's hints are PlanFacts::sql_hints (typed by HintKind).
// A shuffle-forcing hint: SHUFFLE_HASH, MERGE, SHUFFLE_MERGE, MERGEJOIN.
inline bool is_shuffle_hint(HintKind k) { return k == HintKind::ShuffleHash || k == HintKind::Merge; }

// Qualifiers ("T2") and table names ("master_itagaki") that identify one side of a join.
std::set<std::string> side_names(const Plan& plan, const Operator& join, std::size_t child_pos);

// ---- table formats -----------------------------------------------------------------------------

// What a scan's files belong to, for remedies only one format can follow (Delta's OPTIMIZE,
// Iceberg's rewrite_data_files): Files are plain Parquet / ORC / CSV / JSON / Avro files and Hive
// tables; Unknown when the input does not say (ScanFacts::source).
enum class TableKind : std::uint8_t { Unknown, Delta, Iceberg, Files };
TableKind table_kind(const Operator& scan);

// Iceberg's compaction procedure for `table`: `CALL cat.system.rewrite_data_files(table => 'db.t')`
// (`<catalog>` when the name has no catalog part); `args` are added after the table argument.
std::string iceberg_rewrite_call(std::string_view table, std::string_view args = "");

}  // namespace planlint
