// Helpers shared by the rules: SQL text hints, the names of a join side. The
// generic plan walkers (is_active, op_ref, input_size, first_metric, ...) live in the model,
// model/plan_walk.hpp, and are re-exported here under planlint::rules.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/plan.hpp"
#include "model/plan_walk.hpp"
#include "rules/rule.hpp"

namespace planlint::rules {

using planlint::LogicalJoins;
using planlint::SideSize;
using planlint::SimplePredicate;
using planlint::abbreviate;
using planlint::active_ops;
using planlint::attributes_in;
using planlint::column_key;
using planlint::conjuncts;
using planlint::data_columns;
using planlint::expr_text;
using planlint::field_exprs;
using planlint::field_untrusted;
using planlint::first_metric;
using planlint::has_final_plan;
using planlint::iequals;
using planlint::input_size;
using planlint::is_active;
using planlint::is_attribute;
using planlint::is_constant;
using planlint::is_transparent;
using planlint::logical_child;
using planlint::lower;
using planlint::op_ref;
using planlint::output_columns;
using planlint::output_rows;
using planlint::partition_filter_columns;
using planlint::plan_has_engine;
using planlint::scan_below;
using planlint::simple_predicate;
using planlint::single_scan_under;
using planlint::skip_transparent_down;

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

}  // namespace planlint::rules
