// Hostile input (plans come from untrusted places), in process: what outputs echo is sanitised, huge numbers print
// sensibly, event logs whose executions never end stay in bounded memory. The CLI side (pipes,
// output paths, devices, folders) is tests/hostile_cli.sh; the LSP side is in tests/lint/lsp/test_lsp.cpp.
#include <doctest/doctest.h>

#include <zstd.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "lint/core/sanitize.hpp"
#include "parser/eventlog/eventlog.hpp"
#include "model/format.hpp"

using namespace planlint;

TEST_CASE("sanitize: control characters are shown, invalid UTF-8 replaced, text kept") {
  CHECK(visible("db.t\x1b[2J") == "db.t\\x1b[2J");
  CHECK(visible("a\x1b]0;pwned\x07z") == "a\\x1b]0;pwned\\x07z");
  CHECK(visible(std::string("nul\0x", 5)) == "nul\\x00x");
  CHECK(visible("del\x7f") == "del\\x7f");
  CHECK(visible("bad\xff\xfe utf8") == "bad\xEF\xBF\xBD\xEF\xBF\xBD utf8");
  CHECK(visible("caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x94\xA5\ttab") == "caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x94\xA5\ttab");
  CHECK(visible("c1 \xC2\x9B" "31m") == "c1 \\u009b31m");           // CSI as a C1 control
  CHECK(visible("bidi \xE2\x80\xAE" "abc") == "bidi \\u202eabc");     // right-to-left override
  CHECK(visible("over\xC0\xAF" "long") == "over\xEF\xBF\xBD\xEF\xBF\xBD" "long");
  CHECK(visible("two\nlines\r") == "two\\nlines\\r");
  CHECK(visible("two\nlines", true) == "two\nlines");
  CHECK(visible("cut \xE2\x86") == "cut \xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST_CASE("sanitize: no line starts like a GitHub Actions workflow command") {
  CHECK(no_workflow_commands("::add-mask::secret") == "\\x3a:add-mask::secret");
  CHECK(no_workflow_commands("ok\n  ::warning title=x::y\nfine :: here\n") ==
        "ok\n  \\x3a:warning title=x::y\nfine :: here\n");
  CHECK(no_workflow_commands("\t::error::x") == "\t\\x3a:error::x");
  CHECK(no_workflow_commands("") == "");
  CHECK(safe_output("\x1b[2J\n::stop-commands::t") == "\\x1b[2J\n\\x3a:stop-commands::t");
}

TEST_CASE("sanitize: XML 1.0 character data") {
  CHECK(xml_text("a<b & \"c\" 'd'>") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
  CHECK(xml_text(std::string("x\0\x01\x1b y\tz\n", 9)) == "x\\x00\\x01\\x1b y\tz\n");
  CHECK(xml_text("bad\xff") == "bad\xEF\xBF\xBD");
  CHECK(xml_text("nonchar \xEF\xBF\xBE") == "nonchar \xEF\xBF\xBD");  // U+FFFE is not an XML character
  CHECK(xml_text("caf\xC3\xA9") == "caf\xC3\xA9");
}

TEST_CASE("numbers: huge and non-finite values print sensibly") {
  const double inf = std::numeric_limits<double>::infinity();
  const double max = std::numeric_limits<double>::max();
  CHECK(format_bytes(2411725) == "2.3 MiB");
  CHECK(format_bytes(max) == "1.56e+290 EiB");
  CHECK(format_bytes(inf) == "infinity");
  CHECK(format_bytes(std::nan("")) == "not a number");
  CHECK(format_count(2411725) == "2,411,725");
  CHECK(format_count(max) == "1.8e+308");
  CHECK(format_count(-inf) == "-infinity");
  CHECK(format_millis(max) == "4.99e+301 h");
  CHECK(format_millis(inf) == "infinity");
  CHECK(format_percent(max).size() < 16);
  CHECK(format_decimal(max).size() < 16);
  for (double v : {max, inf, -max, 1e20, 1e300})
    for (const std::string& s : {format_bytes(v), format_count(v), format_millis(v)}) {
      CAPTURE(s);
      CHECK(s.size() < 24);
      CHECK(s.find("inf EiB") == std::string::npos);
    }
}

namespace {
// An event log of `n` SQL executions that start and never end.
std::string never_ending_log(int n) {
  std::string log = "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.0\"}\n";
  for (int i = 0; i < n; ++i)
    log += "{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart\",\"executionId\":" +
           std::to_string(i) + ",\"description\":\"q" + std::to_string(i) +
           "\",\"physicalPlanDescription\":\"== Physical Plan ==\\n* Project (2)\\n+- Scan parquet db.t" +
           std::to_string(i) + " (1)\\n\",\"sparkPlanInfo\":{\"nodeName\":\"Project\",\"simpleString\":\"Project\","
           "\"children\":[],\"metrics\":[{\"name\":\"rows\",\"accumulatorId\":" + std::to_string(1000000 + i) +
           ",\"metricType\":\"sum\"}]},\"time\":1}\n";
  return log;
}
}  // namespace

TEST_CASE("event logs: executions that never end are capped, the oldest handed on as unfinished" *
          doctest::test_suite("slow")) {
  // The hostile log: 100,000 executions that never end, a few hundred KB of zstd that once took
  // 647 MB of memory. Level 3 compresses it to about the same size as level 19 (470 KB against
  // 430 KB) in a fraction of a second instead of about 20: the reader sees the same stream.
  std::string log = never_ending_log(100000);
  std::string comp(ZSTD_compressBound(log.size()), '\0');
  comp.resize(ZSTD_compress(comp.data(), comp.size(), log.data(), log.size(), 3));
  CHECK(comp.size() < 2'000'000);
  EventLogOptions opts;
  opts.max_open_executions = 100;
  std::size_t plans = 0, running = 0;
  std::istringstream in(comp);
  ParseResult r = parse_event_log_stream(in, "x.zstd", opts, [&](Plan&& p) {
    ++plans;
    if (p.query.status == "RUNNING") ++running;
  });
  CHECK(plans == 100000);
  CHECK(running == 100000);
  bool warned = false;
  for (const auto& m : r.messages) warned |= m.message.find("more than 100 SQL executions") != std::string::npos;
  CHECK(warned);

  // Plans are handed on while the log is read (not all at its end), oldest first: the first one
  // arrives before the reader is 2 MB into a 6.6 MB log.
  std::string plain = never_ending_log(20000);
  REQUIRE(plain.size() > 6'000'000);
  for (int by_bytes = 0; by_bytes < 2; ++by_bytes) {
    EventLogOptions o;
    if (by_bytes) o.max_open_bytes = 256 * 1024;  // the byte cap alone
    else o.max_open_executions = 100;
    std::istringstream in2(plain);
    std::vector<long long> order;
    std::streamoff first_at = -1;
    parse_event_log_stream(in2, "x", o, [&](Plan&& p) {
      if (order.empty()) first_at = in2.tellg();
      order.push_back(std::stoll(p.query.statement_id));
    });
    CAPTURE(by_bytes);
    REQUIRE(order.size() == 20000);
    CHECK(first_at > 0);
    CHECK(first_at < 2'000'000);
    CHECK(std::is_sorted(order.begin(), order.end()));
  }
  // Without a cap hit, nothing changes: every plan at the end, no warning.
  std::string few = never_ending_log(10);
  std::istringstream in3(few);
  ParseResult quiet = parse_event_log_stream(in3, "x", opts);
  CHECK(quiet.plans.size() == 10);
  for (const auto& m : quiet.messages) CHECK(m.message.find("more than") == std::string::npos);
}
