// The fields of a SparkListenerTaskEnd event line that the event-log reader uses. Task-end lines
// are most of an event log (~1.5 KB each, mostly task metrics nobody reads here), so they are read
// without building a JSON document:
//
//   scan_task_end   a one-pass scanner over the line's bytes that checks the JSON as it goes and
//                   only converts the values it keeps (the fast path; about 4x nlohmann's SAX);
//   sax_task_end    nlohmann's SAX parser driving the same field collector (the reference).
//
// The scanner accepts only what it can vouch for: well-formed JSON of plain ASCII whose strings
// use the simple escapes and whose numbers are at most 18 digits without an exponent. For anything
// else (UTF-8 bytes, \u escapes, exponents, very long numbers, a syntax error) it answers
// Fallback and read_task_end asks nlohmann, so the result on every line is nlohmann's.
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace planlint::eventlog {

struct TaskEnd {
  std::optional<double> stage, run_time, launch, finish;
  // Task Metrics > Shuffle Read Metrics: bytes (remote + local) and records this task read.
  std::optional<double> shuffle_remote_bytes, shuffle_local_bytes, shuffle_records;
  bool has_info = false, failed = false, has_accs = false;
  std::vector<std::pair<long long, std::optional<double>>> accs;  // (id, update) of Accumulables entries with an ID

  friend bool operator==(const TaskEnd&, const TaskEnd&) = default;
};

enum class ScanResult { Ok, Fallback };

// The fast scanner. Ok: `out` holds the fields (the line is valid JSON). Fallback: the scanner
// cannot vouch for the line; `out` is unspecified.
ScanResult scan_task_end(std::string_view line, TaskEnd& out);
// nlohmann's SAX parser; false when the line is not valid JSON.
bool sax_task_end(std::string_view line, TaskEnd& out);
// The fast scanner, else nlohmann's: false when the line is not valid JSON.
bool read_task_end(std::string_view line, TaskEnd& out);

}  // namespace planlint::eventlog
