// `planlint check --format ndjson -`: plans in, findings out, one JSON record per line, streaming,
// so that `rdd.pipe("planlint check --format ndjson -")` runs planlint on every Spark executor.
//
// In:  {"id": ANY, "text": "<plan, profile JSON or History Server answer>"}
//      {"id": ANY, "path": "<file on the executor: plan, profile, event log>"}
// Out: {"type":"finding","id":…,"path":…,"rule",…}  one per finding (fields of the json format)
//      {"type":"done","id":…,"path":…,"format":…,"findings":N}  one per record read; with
//          "messages":[{"severity","message","line","column"}] when the reader had warnings or notes
//      {"type":"error","line":L,"id":…,"error":"…"}  a record that could not be read or checked;
//                                                   processing goes on with the next line
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

#include "lint/core/config.hpp"

namespace planlint {

struct NdjsonTotals {
  std::size_t records = 0;   // lines that were records (blank lines are skipped)
  std::size_t errors = 0;    // error records written
  std::size_t findings = 0;
};

// The configuration of a record: `path` is the record's path ("" for a text record). nullopt
// with `error` set when its config file is broken (the record gets an error record).
using NdjsonConfigFor = std::function<std::optional<Config>(const std::string& path, std::string& error)>;

// Reads records from `in` until EOF and writes the output records to `out`, flushing after each
// input record.
NdjsonTotals run_ndjson(std::istream& in, std::ostream& out, const NdjsonConfigFor& config_for);

// One input record (one line, without the newline) to its output lines, each ending in '\n'.
// `line` is the 1-based input line number, used in error records.
std::string ndjson_record(std::string_view line, std::size_t line_number, const NdjsonConfigFor& config_for,
                          NdjsonTotals& totals);

}  // namespace planlint
