// Reader side of the typed facts (model/facts.hpp): each reader maps its own spellings (field
// keys, metric labels, operator names) to the model's enums and facts. Called once per plan by
// the reader, before derive_common_facts.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>

#include "model/plan.hpp"

namespace planlint {

// One reader's name table of metrics: label as the reader's input spells it -> Metric id.
template <std::size_t N>
using MetricNameTable = std::pair<std::string_view, Metric::Id>[N];

// The id of `label` in `table`, or Metric::Unknown.
template <std::size_t N>
Metric::Id lookup_metric(const MetricNameTable<N>& table, std::string_view label) {
  for (const auto& [l, id] : table)
    if (l == label) return id;
  return Metric::Unknown;
}

// What a reader knows of the whole text a plan came from, which lets fill_explain_facts skip
// searches of every operator's texts for a word the text does not hold. The defaults search
// everything.
struct ExplainFillHints {
  bool comet_notes = true;         // a Comet fallback note ("[COMET: ...]") may be in an operator's text
  bool executor_broadcast = true;  // so may EXECUTOR_BROADCAST (Photon's executor-side broadcast)
  bool plan_ids = true;            // and "[plan_id=" (Spark 3.3 and later)
};
// Explain text (every mode); also the plans embedded in event logs.
void fill_explain_facts(Plan& plan, const ExplainFillHints& hints = {});
// The hints for plans read from `text`; `rewritten`: some operator texts are not views into
// `text` (normalize rewrote lines), so no word can be ruled out.
ExplainFillHints explain_fill_hints(std::string_view text, bool rewritten);
// Databricks Query Profile JSON.
void fill_profile_facts(Plan& plan);
// Spark event logs: metric names of SQL metrics, and the Spark version when the log states it.
void fill_eventlog_facts(Plan& plan, std::string_view spark_version);

// The fill of the reader that produces `plan.format` (QueryProfile: profile; EventLog: explain and
// event log; anything else: explain). For models built by hand (tests, generators).
void fill_facts_for_format(Plan& plan);

// Which kind of unsupported expression the Photon Explanation's reasons name.
void fill_photon_explanation_facts(PhotonExplanation& pe);

// Operator-name facts shared by explain text and profiles (both print Spark's node names):
// Python UDF evaluators, streaming operators, Coalesce, result stages, logical joins.
void fill_operator_name_facts(Operator& op);

}  // namespace planlint
