// `planlint history FILE`: the estate's regression report from an export of Databricks'
// `system.query.history` (CSV with a header row, or JSON lines). Statements are fingerprinted as
// the troubleshooting method does (the query tag when there is one, else a hash of the first 200
// characters of the normalised statement text); per fingerprint the p95 of total_duration_ms in a
// baseline window (seven days) is compared with the p95 of the recent window (one day), and a
// fingerprint whose recent p95 reached `factor` x the baseline is reported with the phase that grew
// most (waiting for compute, queueing at capacity, compilation, execution, result fetch).
// Columns used: docs/history.md.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/core/config.hpp"
#include "lint/core/report.hpp"
#include "rules/catalog.hpp"
#include "rules/rule.hpp"

namespace planlint {

inline constexpr std::string_view kQueryRegressed = "query-regressed";
const RuleDoc& history_regression_doc();
// query-regressed as the catalogue's family "history".
void register_history_rules(RuleCatalog& catalog);

// The phases of one execution, in the method's order.
inline constexpr std::array<std::string_view, 5> kHistoryPhases = {
    "waiting for compute", "queueing at capacity", "compilation", "execution", "result fetch"};

struct HistoryRecord {
  std::uint32_t line = 0;                           // 1-based line where the record starts
  std::string statement_id;
  std::string statement_text;
  std::string tags;                                  // normalised query tags ("k=v,k2=v2"), empty when none
  double start_ms = 0;                               // start_time, Unix epoch milliseconds (UTC)
  double total_ms = 0;                               // total_duration_ms
  std::array<std::optional<double>, 5> phase_ms;     // kHistoryPhases order
  std::optional<double> spill_bytes;                 // spilled_local_bytes
  std::optional<double> read_bytes;                  // read_bytes
  bool from_result_cache = false;
  std::string compute_type;                          // compute.type (WAREHOUSE, SERVERLESS_COMPUTE, ...)
  std::string status;                                // execution_status
};

struct HistoryRead {
  std::vector<HistoryRecord> records;
  std::vector<ParseMessage> messages;                // rows that could not be read
  std::string error;                                 // nothing could be read (missing columns, not CSV/JSON lines)
  std::size_t skipped = 0;                           // rows left out: unfinished, cached, no duration
};

// CSV (RFC 4180, a header row) or JSON lines, recognised from the first non-blank character.
HistoryRead read_query_history(std::string_view text);

// "2024-05-01T12:34:56.789Z", "2024-05-01 12:34:56", "+02:00" offsets, or epoch milliseconds.
std::optional<double> parse_timestamp_ms(std::string_view s);

// The method's fingerprint of a statement: "tag:<tags>" or "sql:<16 hex digits>".
std::string statement_fingerprint(const HistoryRecord& r);
// Lower case, literals to `?`, whitespace collapsed; the hash uses the first 200 characters of this.
std::string normalise_statement(std::string_view sql);

// 95th percentile, nearest rank.
double p95(std::vector<double> values);

// read_query_history + the regression analysis, as a report on `path`. `now_ms`: the end of the
// recent window (default: the latest start_time in the file, so a saved export gives the same
// answer tomorrow).
FileReport check_history(std::string text, const std::string& path, const Config& config,
                         std::optional<double> now_ms = std::nullopt);

}  // namespace planlint
