#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

#include "lint/engine/parse_errors.hpp"
#include "lint/output/output.hpp"
#include "tests/lint_fixtures.hpp"

using namespace planlint;
using planlint::test::sample_finding;
using planlint::test::sample_report;

namespace {
std::string render(OutputFormat f, const std::vector<FileReport>& files, OutputOptions opt = {}) {
  std::ostringstream out;
  write_report(out, f, files, opt);
  return out.str();
}

Diagnostic second_on_same_operator() {
  Diagnostic d = sample_finding("skew-not-handled", "PL003");
  d.severity = Severity::Error;
  d.message = "SortMergeJoin (5) ran without skew handling; max partition is 9.1x the median";
  d.evidence = {{"max / median partition", 9.1, Unit::Ratio, ""}};
  d.fix = "filter the hot key, broadcast, or salt";
  return d;
}
}  // namespace

TEST_CASE("text: findings grouped by operator, plan line with caret, evidence, fix, summary") {
  auto files = std::vector<FileReport>{sample_report({sample_finding(), second_on_same_operator()})};
  CHECK(render(OutputFormat::Text, files) ==
        "plans/q1.txt:5:6: warning: SortMergeJoin (5) shuffles both sides although the left side is 2.0 MiB "
        "[PL002 shuffle-join-could-broadcast]\n"
        "  |\n"
        "5 |    * SortMergeJoin Inner (5)\n"
        "  |      ^^^^^^^^^^^^^\n"
        "  = evidence: left side size: 2.0 MiB\n"
        "  = evidence: join keys: customer_id#12 = c_customer_id#40\n"
        "  = fix: let Spark broadcast the left side: /*+ BROADCAST(c) */\n"
        "plans/q1.txt:5:6: error: SortMergeJoin (5) ran without skew handling; max partition is 9.1x the median "
        "[PL003 skew-not-handled]\n"
        "  = evidence: max / median partition: 9.1\n"
        "  = fix: filter the hot key, broadcast, or salt\n"
        "\n"
        "Found 2 findings (1 error, 1 warning) in 1 file.\n");
}

TEST_CASE("text: no colour unless asked, ANSI codes when asked") {
  auto files = std::vector<FileReport>{sample_report({sample_finding()})};
  CHECK(render(OutputFormat::Text, files).find('\x1b') == std::string::npos);
  OutputOptions color;
  color.color = true;
  std::string c = render(OutputFormat::Text, files, color);
  CHECK(c.find("\x1b[1;33mwarning\x1b[0m") != std::string::npos);
}

TEST_CASE("text: clean run, statistics, counts of suppressed and baselined findings") {
  FileReport clean = sample_report({});
  clean.suppressed = 2;
  clean.baselined = 1;
  CHECK(render(OutputFormat::Text, {clean}) == "No findings in 1 file (2 suppressed, 1 in the baseline).\n");
  OutputOptions stats;
  stats.statistics = true;
  auto files = std::vector<FileReport>{sample_report({sample_finding(), sample_finding(), second_on_same_operator()})};
  CHECK(render(OutputFormat::Text, files, stats) ==
        "    2  PL002  shuffle-join-could-broadcast\n"
        "    1  PL003  skew-not-handled\n"
        "Found 3 findings (1 error, 2 warnings) in 1 file.\n");
}

TEST_CASE("text: a very long line (minified JSON) is cut around the column") {
  FileReport r = sample_report({});
  r.input = std::make_shared<const std::string>(std::string(5000, 'x') + "SortMergeJoin" + std::string(5000, 'y'));
  Diagnostic d = sample_finding();
  d.range = {1, 5001, 0, 0};
  r.diagnostics = {d};
  std::string out = render(OutputFormat::Text, {r});
  std::istringstream lines(out);
  std::string line;
  std::size_t longest = 0;
  while (std::getline(lines, line)) longest = std::max(longest, line.size());
  CHECK(longest < 300);
  CHECK(out.find("| ...xxxx") != std::string::npos);
  CHECK(out.find("xSortMergeJoiny") != std::string::npos);
  CHECK(out.find("yyy...\n") != std::string::npos);
  CHECK(out.find("^^^^^^^^^^^^^\n") != std::string::npos);
}

TEST_CASE("text: a JSON input names the operator instead of showing its `{` line") {
  FileReport r = sample_report({sample_finding()});
  r.format = InputFormat::QueryProfile;
  r.input = std::make_shared<const std::string>("{\n  \"graphs\": [{\"nodes\": [\n    {\n      \"id\": \"5\",\n      \"name\": \"SortMergeJoin\"\n");
  r.diagnostics[0].range = {4, 5, 0, 0};
  std::string out = render(OutputFormat::Text, {r});
  CHECK(out.find("plans/q1.txt:4:5: warning: SortMergeJoin (5) shuffles") == 0);
  CHECK(out.find("\n  = operator: SortMergeJoin (5)\n  = evidence: left side size: 2.0 MiB\n") != std::string::npos);
  CHECK(out.find("^") == std::string::npos);
}

TEST_CASE("concise: one line per finding") {
  auto files = std::vector<FileReport>{sample_report({sample_finding(), second_on_same_operator()})};
  CHECK(render(OutputFormat::Concise, files) ==
        "plans/q1.txt:5:6: warning[PL002 shuffle-join-could-broadcast] SortMergeJoin (5) shuffles both sides although the "
        "left side is 2.0 MiB\n"
        "plans/q1.txt:5:6: error[PL003 skew-not-handled] SortMergeJoin (5) ran without skew handling; max partition is 9.1x "
        "the median\n"
        "Found 2 findings (1 error, 1 warning) in 1 file.\n");
}

TEST_CASE("json: the documented shape") {
  FileReport unreadable;
  unreadable.path = "missing.txt";
  unreadable.error = "missing.txt: No such file or directory";
  auto j = nlohmann::ordered_json::parse(render(OutputFormat::Json, {sample_report({sample_finding()}), unreadable}));
  REQUIRE(j["files"].size() == 2);
  const auto& f = j["files"][0];
  CHECK(f["path"] == "plans/q1.txt");
  CHECK(f["format"] == "explain-formatted");
  REQUIRE(f["diagnostics"].size() == 1);
  const auto& d = f["diagnostics"][0];
  std::vector<std::string> keys;
  for (auto it = d.begin(); it != d.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"rule", "code", "severity", "message", "line", "column", "operator_id",
                                         "operator", "evidence", "fix"});
  CHECK(d["rule"] == "shuffle-join-could-broadcast");
  CHECK(d["code"] == "PL002");
  CHECK(d["severity"] == "warning");
  CHECK(d["line"] == 5);
  CHECK(d["column"] == 6);
  CHECK(d["operator_id"] == "5");
  CHECK(d["operator"] == "SortMergeJoin");
  CHECK(d["evidence"][0] == nlohmann::ordered_json{{"name", "left side size"}, {"value", "2.0 MiB"}, {"number", 2097152.0},
                                            {"unit", "bytes"}});
  CHECK(d["fix"] == "let Spark broadcast the left side: /*+ BROADCAST(c) */");
  CHECK(j["files"][1]["error"] == "missing.txt: No such file or directory");
  CHECK(j["files"][1]["diagnostics"].empty());
}

TEST_CASE("json: written file by file, byte for byte what dumping the whole tree wrote") {
  // The tree as write_json built it before it streamed (diagnostic_to_json, message_to_json, one
  // dump with indent 2 and invalid UTF-8 replaced): the streamed text must not differ in a byte.
  auto tree = [](const std::vector<FileReport>& files) {
    nlohmann::ordered_json root;
    root["files"] = nlohmann::ordered_json::array();
    for (const auto& f : files) {
      nlohmann::ordered_json jf;
      jf["path"] = f.path;
      jf["format"] = std::string(to_string(f.format));
      if (!f.error.empty()) jf["error"] = f.error;
      jf["diagnostics"] = nlohmann::ordered_json::array();
      for (const auto& d : f.diagnostics) jf["diagnostics"].push_back(diagnostic_to_json(d));
      if (!f.messages.empty()) {
        jf["messages"] = nlohmann::ordered_json::array();
        for (const auto& m : f.messages) jf["messages"].push_back(message_to_json(m));
      }
      root["files"].push_back(std::move(jf));
    }
    return root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  };
  Diagnostic awkward = sample_finding();
  awkward.message = "quote \" backslash \\ tab \t newline \n bell \x07 del \x7f \xE2\x89\x88 12 min, bad \xC3\x28 \xFF end";
  awkward.operator_id = "";
  awkward.operator_name = "Scan parquet db.t\xE2\x80\x8B";
  awkward.fix = "";
  awkward.plan_label = {-7, "desc \"x\"\r\n"};
  awkward.evidence.push_back({"ratio", 0.1 + 0.2, Unit::Ratio, ""});
  awkward.evidence.push_back({"huge", 1e300, Unit::Rows});
  awkward.evidence.push_back({"whole", 3.0, Unit::Count});
  // Whole numbers are written without nlohmann (its digits and ".0" below 10^15): the edges.
  for (double v : {0.0, -0.0, 1.0, -3.0, 2097152.0, 999999999999999.0, -999999999999999.0, 1e15, 1e16, 123456789012345.0,
                   0.5, 4503599627370497.0, 1e-320})
    awkward.evidence.push_back({"edge", v, Unit::Count});
  awkward.evidence.push_back({"tiny", -2.5e-9, Unit::Ratio, "shown \x01"});
  awkward.evidence.push_back({"not a number", std::nan(""), Unit::Ratio, ""});
  awkward.range.line = 4294967295u;
  Diagnostic bare = sample_finding("parse-error", "PL900");
  bare.evidence.clear();
  FileReport with_messages = sample_report({bare, awkward});
  with_messages.path = "odd \xFE name.txt";
  with_messages.messages.push_back({MessageSeverity::Warning, {3, 9, 3, 10}, "more than 1000 \"executions\""});
  with_messages.messages.push_back({MessageSeverity::Note, {}, ""});
  // Plain strings are told 16 bytes at a time: each byte that needs nlohmann, at every place in and
  // around two blocks and a tail, among plain bytes (and a plain string of each length).
  Diagnostic sweep = sample_finding();
  for (std::string_view odd : {std::string_view("\0", 1), std::string_view("\x1f"), std::string_view("\x20"),
                               std::string_view("\""), std::string_view("\\"), std::string_view("\x7e"),
                               std::string_view("\x7f"), std::string_view("\x80"), std::string_view("\xff"),
                               std::string_view("\xC3\xA9"), std::string_view("\xC3")})
    for (std::size_t at = 0; at <= 35; ++at) {
      std::string s(35, 'a');
      s.insert(at, odd);
      sweep.evidence.push_back({s, std::string(at, '!')});
    }
  FileReport swept = sample_report({sweep});
  FileReport unreadable;
  unreadable.path = "missing.txt";
  unreadable.error = "missing.txt: No such file or directory";
  FileReport empty = sample_report({});
  for (const auto& files : std::vector<std::vector<FileReport>>{
           {}, {empty}, {sample_report({sample_finding()})}, {with_messages, unreadable, empty}, {swept}}) {
    CHECK(render(OutputFormat::Json, files) == tree(files));
  }
}

TEST_CASE("plan label: JSON has the execution as a field, every text output writes it before the message") {
  Diagnostic d = sample_finding();
  d.plan_label = {3, "save at etl.py:41"};
  auto files = std::vector<FileReport>{sample_report({d})};
  const std::string prefixed = "execution 3 (save at etl.py:41): " + d.message;

  auto j = nlohmann::ordered_json::parse(render(OutputFormat::Json, files));
  const auto& jd = j["files"][0]["diagnostics"][0];
  std::vector<std::string> keys;
  for (auto it = jd.begin(); it != jd.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"rule", "code", "severity", "message", "execution", "line", "column",
                                         "operator_id", "operator", "evidence", "fix"});
  CHECK(jd["message"] == d.message);
  CHECK(jd["execution"] == nlohmann::ordered_json{{"id", 3}, {"description", "save at etl.py:41"}});

  CHECK(render(OutputFormat::Text, files).rfind("plans/q1.txt:5:6: warning: " + prefixed + " [", 0) == 0);
  CHECK(render(OutputFormat::Concise, files).rfind("plans/q1.txt:5:6: warning[" + (d.code.empty() ? "" : d.code + " ") +
                                                        "shuffle-join-could-broadcast] " + prefixed + "\n", 0) == 0);
  auto sarif = nlohmann::json::parse(render(OutputFormat::Sarif, files));
  CHECK(sarif["runs"][0]["results"][0]["message"]["text"].get<std::string>().rfind(prefixed, 0) == 0);
  CHECK(render(OutputFormat::Github, files).find("::" + prefixed) != std::string::npos);
  CHECK(render(OutputFormat::Junit, files).find("failure message=\"" + prefixed) != std::string::npos);

  // Without a description the label is the id alone.
  d.plan_label.description.clear();
  CHECK(labelled_message(d) == "execution 3: " + d.message);
}

TEST_CASE("sarif: rules metadata, locations, logical location, fingerprints") {
  Diagnostic parse_error;
  parse_error.rule = "parse-error";
  parse_error.code = "PL900";
  parse_error.severity = Severity::Error;
  parse_error.message = "expected ']' after the list";
  parse_error.range = {8, 4, 0, 0};
  auto j = nlohmann::json::parse(render(OutputFormat::Sarif, {sample_report({sample_finding(), parse_error})}));
  CHECK(j["version"] == "2.1.0");
  const auto& run = j["runs"][0];
  const auto& rules = run["tool"]["driver"]["rules"];
  // Every documented rule is described, built-in ones included.
  std::size_t documented = 0;
  for (const RuleDoc* d : all_rule_docs()) documented += 1 + d->also_reports.size();
  CHECK(rules.size() >= documented);
  const auto& results = run["results"];
  REQUIRE(results.size() == 2);
  const auto& r = results[0];
  CHECK(r["ruleId"] == "shuffle-join-could-broadcast");
  CHECK(rules[r["ruleIndex"].get<std::size_t>()]["id"] == "shuffle-join-could-broadcast");
  CHECK(r["level"] == "warning");
  CHECK(r["message"]["text"] ==
        "SortMergeJoin (5) shuffles both sides although the left side is 2.0 MiB. Fix: let Spark broadcast the left "
        "side: /*+ BROADCAST(c) */.");
  const auto& loc = r["locations"][0];
  CHECK(loc["physicalLocation"]["artifactLocation"]["uri"] == "plans/q1.txt");
  CHECK(loc["physicalLocation"]["region"]["startLine"] == 5);
  CHECK(loc["physicalLocation"]["region"]["startColumn"] == 6);
  CHECK(loc["physicalLocation"]["region"]["endColumn"] == 19);
  CHECK(loc["logicalLocations"][0]["name"] == "SortMergeJoin");
  CHECK(loc["logicalLocations"][0]["fullyQualifiedName"] == "SortMergeJoin (5)");
  CHECK(r["partialFingerprints"]["planlintFingerprint/v1"].get<std::string>().size() == 18);  // 16 hex + ":1"
  const auto& p = results[1];
  CHECK(p["ruleId"] == "parse-error");
  CHECK(p["level"] == "error");
  CHECK(rules[p["ruleIndex"].get<std::size_t>()]["defaultConfiguration"]["level"] == "error");
  CHECK(rules[p["ruleIndex"].get<std::size_t>()]["help"]["markdown"].get<std::string>().find("## Why is this bad?") !=
        std::string::npos);
  CHECK(!p["locations"][0].contains("logicalLocations"));
  CHECK(run["invocations"][0]["executionSuccessful"] == true);
}

TEST_CASE("sarif: uris are percent-encoded; an unreadable file is a tool notification") {
  FileReport r = sample_report({sample_finding()});
  r.path = "plans/my plan#1.txt";
  FileReport bad;
  bad.path = "gone.txt";
  bad.error = "gone.txt: No such file or directory";
  auto j = nlohmann::json::parse(render(OutputFormat::Sarif, {r, bad}));
  CHECK(j["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "plans/my%20plan%231.txt");
  CHECK(j["runs"][0]["invocations"][0]["executionSuccessful"] == false);
  CHECK(j["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]["level"] == "error");
}

TEST_CASE("github: workflow commands with escaped properties and data") {
  Diagnostic d = sample_finding();
  d.message = "100% of rows, a: b";
  auto files = std::vector<FileReport>{sample_report({d})};
  files[0].path = "plans/a,b.txt";
  CHECK(render(OutputFormat::Github, files) ==
        "::warning file=plans/a%2Cb.txt,line=5,col=6,endColumn=19,title=planlint shuffle-join-could-broadcast "
        "(PL002)::100%25 of rows, a: b%0Afix: let Spark broadcast the left side: /*+ BROADCAST(c) */\n");
  Diagnostic info = sample_finding();
  info.severity = Severity::Info;
  info.range = {};
  info.fix.clear();
  CHECK(render(OutputFormat::Github, {sample_report({info})}).rfind("::notice file=plans/q1.txt,line=1,col=1,", 0) == 0);
}

TEST_CASE("junit: one failed test case per finding, a passing one for a clean file") {
  FileReport clean = sample_report({});
  clean.path = "plans/clean.txt";
  Diagnostic d = sample_finding();
  d.message = "a < b & c";
  std::string x = render(OutputFormat::Junit, {sample_report({d}), clean});
  CHECK(x.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"planlint\" tests=\"2\" failures=\"1\" errors=\"0\">", 0) == 0);
  CHECK(x.find("<testsuite name=\"plans/q1.txt\" tests=\"1\" failures=\"1\" errors=\"0\">") != std::string::npos);
  CHECK(x.find("<failure message=\"a &lt; b &amp; c\" type=\"shuffle-join-could-broadcast\">line 5, col 6, warning: a &lt; b &amp; c\noperator: SortMergeJoin (5)") != std::string::npos);
  CHECK(x.find("<testcase name=\"planlint\" classname=\"plans/clean.txt\"/>") != std::string::npos);
  CHECK(x.substr(x.size() - 14) == "</testsuites>\n");
}

TEST_CASE("text, concise: quiet leaves out the summary line only") {
  auto files = std::vector<FileReport>{sample_report({sample_finding()})};
  OutputOptions quiet;
  quiet.quiet = true;
  for (OutputFormat f : {OutputFormat::Text, OutputFormat::Concise}) {
    std::string loud = render(f, files), q = render(f, files, quiet);
    CHECK(loud.find("Found 1 finding") != std::string::npos);
    CHECK(q.find("Found 1 finding") == std::string::npos);
    CHECK(q.find("[PL002 shuffle-join-could-broadcast]") != std::string::npos);
    CHECK(render(f, {sample_report({})}, quiet).empty());  // a clean run prints nothing
  }
}
