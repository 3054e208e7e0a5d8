// The fast task-end scanner (parser/eventlog/task_end.hpp) against nlohmann's SAX parser: on every
// line it accepts, the fields are nlohmann's, and every line it does not vouch for goes to nlohmann.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "parser/eventlog/task_end.hpp"
#include "tests/support.hpp"

using planlint::eventlog::read_task_end;
using planlint::eventlog::sax_task_end;
using planlint::eventlog::scan_task_end;
using planlint::eventlog::ScanResult;
using planlint::eventlog::TaskEnd;
using planlint::test::corpus_dir;
using planlint::test::read_file;

namespace {

std::vector<std::string> task_end_lines() {
  std::vector<std::string> out;
  for (const char* name : {"eventlog/skewed-join.eventlog", "eventlog/multi-exec.eventlog", "eventlog/even-join.eventlog"}) {
    std::istringstream in(read_file(corpus_dir() / name));
    for (std::string line; std::getline(in, line);)
      if (line.find("\"SparkListenerTaskEnd\"") != std::string::npos) out.push_back(line);
  }
  return out;
}

// NaN never equals itself: compare optionals by bits of meaning.
bool same(const std::optional<double>& a, const std::optional<double>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  return (std::isnan(*a) && std::isnan(*b)) || *a == *b;
}
bool same(const TaskEnd& a, const TaskEnd& b) {
  if (!same(a.stage, b.stage) || !same(a.run_time, b.run_time) || !same(a.launch, b.launch) || !same(a.finish, b.finish) ||
      !same(a.shuffle_remote_bytes, b.shuffle_remote_bytes) || !same(a.shuffle_local_bytes, b.shuffle_local_bytes) ||
      !same(a.shuffle_records, b.shuffle_records) || a.has_info != b.has_info || a.failed != b.failed ||
      a.has_accs != b.has_accs || a.accs.size() != b.accs.size())
    return false;
  for (std::size_t i = 0; i < a.accs.size(); ++i)
    if (a.accs[i].first != b.accs[i].first || !same(a.accs[i].second, b.accs[i].second)) return false;
  return true;
}

// The scanner's promise on one line: Ok only for valid JSON, with nlohmann's fields; and
// read_task_end always answers as nlohmann does. Returns the scanner's answer.
ScanResult check_line(const std::string& line) {
  TaskEnd fast, reference, combined;
  ScanResult r = scan_task_end(line, fast);
  bool valid = sax_task_end(line, reference);
  INFO("line: " << line);
  if (r == ScanResult::Ok) {
    CHECK(valid);
    CHECK(same(fast, reference));
  }
  CHECK(read_task_end(line, combined) == valid);
  if (valid) CHECK(same(combined, reference));
  return r;
}

}  // namespace

TEST_CASE("task-end scanner: the corpus's task-end lines take the fast path and read as nlohmann reads them") {
  auto lines = task_end_lines();
  REQUIRE(lines.size() >= 300);
  for (const auto& line : lines) CHECK(check_line(line) == ScanResult::Ok);
  TaskEnd t;
  REQUIRE(scan_task_end(lines.front(), t) == ScanResult::Ok);
  CHECK(t.stage.has_value());
  CHECK(t.has_info);
  CHECK(t.run_time.has_value());
}

TEST_CASE("task-end scanner: values kept as the reader always read them") {
  TaskEnd t;
  std::string line =
      R"({"Event":"SparkListenerTaskEnd","Stage ID":7,"Task Info":{"Launch Time":-12,"Finish Time":"  250x",)"
      R"("Failed":false,"Killed":true,"Accumulables":[{"ID":3,"Update":"4.5"},{"ID":4},{"Update":9},5,)"
      R"({"ID":6,"Update":null,"Name":"a\"b\\c\/d\n"}]},"Task Metrics":{"Executor Run Time":12.25,)"
      R"("Shuffle Read Metrics":{"Remote Bytes Read":0,"Local Bytes Read":true,"Total Records Read":"x"}}})";
  REQUIRE(check_line(line) == ScanResult::Ok);
  REQUIRE(scan_task_end(line, t) == ScanResult::Ok);
  CHECK(t.stage == std::optional<double>(7));
  CHECK(t.launch == std::optional<double>(-12));
  CHECK(t.finish == std::optional<double>(250));
  CHECK(t.failed);
  CHECK(t.has_accs);
  CHECK(t.run_time == std::optional<double>(12.25));
  CHECK(t.shuffle_local_bytes == std::optional<double>(0));
  CHECK(t.shuffle_records == std::optional<double>(0));
  REQUIRE(t.accs.size() == 3);
  CHECK(t.accs[0] == std::pair<long long, std::optional<double>>{3, 4.5});
  CHECK(t.accs[1] == std::pair<long long, std::optional<double>>{4, std::nullopt});
  CHECK(t.accs[2] == std::pair<long long, std::optional<double>>{6, 0.0});
}

TEST_CASE("task-end scanner: what it does not vouch for goes to nlohmann") {
  const std::string head = R"({"Event":"SparkListenerTaskEnd","Stage ID":)";
  // Valid JSON the scanner leaves to nlohmann.
  for (const char* tail : {"1e3}", "12345678901234567890}", "1,\"s\":\"\\u00e9\"}", "1,\"s\":\"caf\xc3\xa9\"}",
                           "1,\"Task Metrics\":{\"Executor Run Time\":\"1\\n\"}}"}) {
    std::string line = head + tail;
    CHECK(check_line(line) == ScanResult::Fallback);
    TaskEnd t;
    CHECK(sax_task_end(line, t));
  }
  // Invalid JSON: never Ok, and rejected.
  for (const char* tail : {"1,}", "01}", "1.}", "-}", "1", "1}}", "1} x", "[1,]}", "1,\"a\" 2}", "1,\"a\":tru}",
                           "1,\"a\":\"\x01\"}", "1,\"a\":\"\\x\"}", "1,\"a\":[1 2]}", "1,\"a\":{\"b\"}}", "1,\"a\":1,}"}) {
    std::string line = head + tail;
    CHECK(check_line(line) == ScanResult::Fallback);
    TaskEnd t;
    CHECK_FALSE(read_task_end(line, t));
  }
}

TEST_CASE("task-end scanner: mutated corpus lines read as nlohmann reads them") {
  auto lines = task_end_lines();
  REQUIRE(!lines.empty());
  // Deterministic single-byte edits (replace, delete, insert) at spread positions of a few lines.
  const std::string alphabet = "{}[]\",:\\ 0-.eEtfnu\x01\x80x";
  std::uint32_t seed = 12345;
  auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
  std::size_t fallbacks = 0, oks = 0;
  for (std::size_t n = 0; n < 4000; ++n) {
    std::string line = lines[next() % lines.size()];
    std::size_t at = next() % line.size();
    char c = alphabet[next() % alphabet.size()];
    switch (next() % 3) {
      case 0: line[at] = c; break;
      case 1: line.erase(at, 1); break;
      default: line.insert(line.begin() + static_cast<std::ptrdiff_t>(at), c); break;
    }
    (check_line(line) == ScanResult::Ok ? oks : fallbacks)++;
  }
  CHECK(oks > 0);
  CHECK(fallbacks > 0);
}
