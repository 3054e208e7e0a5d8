// The CLI and the editor read one configuration the same way (a finding the CLI reports must not
// vanish in the editor, or the reverse): the same .planlint.toml,
// the same precedence (command line / editor settings > file > defaults), the same units and the
// same validation. Each case lints one plan with `planlint check --format json` (the real
// executable) and with the Language Server (in process, real engine and config loading), and
// compares the findings.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include <unistd.h>

#include "lint/core/settings.hpp"
#include "lint/engine/parse_errors.hpp"
#include "lint/lsp/lsp_framing.hpp"
#include "lint/lsp/lsp_server.hpp"
#include "lint/lsp/lsp_text.hpp"
#include "rules/catalog.hpp"
#include "tests/support.hpp"

using namespace planlint;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

using Findings = std::set<std::pair<std::string, int>>;  // rule, line

// A folder holding a copy of the corpus plan `rel` and, when given, a .planlint.toml.
struct Project {
  fs::path dir;
  fs::path plan;
  Project(const std::string& name, const std::string& rel, const std::string& toml) {
    dir = fs::temp_directory_path() / ("planlint-agree-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    plan = dir / fs::path(rel).filename();
    test::write_file(plan, test::read_file(test::corpus_dir() / rel));
    if (!toml.empty()) test::write_file(dir / ".planlint.toml", toml);
  }
  ~Project() { fs::remove_all(dir); }
};

Findings cli_findings(const Project& p, const std::string& args = "") {
  auto r = test::run_planlint("check --format json " + args + " '" + p.plan.string() + "'");
  REQUIRE(r.exit_code != 2);
  json j = json::parse(r.out);
  Findings out;
  for (const auto& d : j["files"][0]["diagnostics"]) out.emplace(d["rule"].get<std::string>(), d["line"].get<int>());
  return out;
}

struct LspRun {
  Findings findings;
  std::vector<std::string> shown;  // window/showMessage texts
};

LspRun lsp_findings(const Project& p, const json& settings = nullptr) {
  std::ostringstream out;
  lsp::Server s(out);
  s.handle(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
                {"params", {{"capabilities", json::object()}, {"initializationOptions", settings}}}}
               .dump());
  s.handle(R"({"jsonrpc":"2.0","method":"initialized","params":{}})");
  s.handle(json{{"jsonrpc", "2.0"}, {"method", "textDocument/didOpen"},
                {"params", {{"textDocument", {{"uri", lsp::path_to_uri(p.plan.string())}, {"languageId", "spark-plan"},
                                              {"version", 1}, {"text", test::read_file(p.plan)}}}}}}
               .dump());
  s.flush();
  LspRun run;
  std::istringstream in(out.str());
  lsp::FrameReader reader(in);
  bool published = false;
  for (lsp::Frame f = reader.read(); f.status == lsp::FrameStatus::Message; f = reader.read()) {
    json m = json::parse(f.body);
    if (m.value("method", "") == "window/showMessage") run.shown.push_back(m["params"]["message"]);
    if (m.value("method", "") != "textDocument/publishDiagnostics") continue;
    published = true;
    for (const auto& d : m["params"]["diagnostics"])
      run.findings.emplace(d["code"].get<std::string>(), d["range"]["start"]["line"].get<int>() + 1);
  }
  REQUIRE(published);
  return run;
}

bool has_rule(const Findings& f, const std::string& rule) {
  for (const auto& [r, line] : f)
    if (r == rule) return true;
  return false;
}

const std::string kSmallSpill = "rules/disk-spill/near-miss-profile-small-spill.json";

}  // namespace

TEST_CASE("config: a .planlint.toml threshold of 1k gives the same findings in the CLI and the editor") {
  // Without a config the small spill is below the 1 GiB default: no disk-spill finding anywhere.
  Project plain("plain", kSmallSpill, "");
  Findings cli_default = cli_findings(plain);
  CHECK_FALSE(has_rule(cli_default, "disk-spill"));
  CHECK(lsp_findings(plain).findings == cli_default);

  for (const std::string toml : {"[rules.disk-spill]\nmin-spill-bytes = \"1k\"\n", "[thresholds]\nmin-spill-bytes = \"1k\"\n"}) {
    CAPTURE(toml);
    Project p("toml", kSmallSpill, toml);
    Findings cli = cli_findings(p);
    CHECK(has_rule(cli, "disk-spill"));  // 1k = 1024 bytes: the spill is now over it
    LspRun lsp = lsp_findings(p);
    CHECK(lsp.shown.empty());
    CHECK(lsp.findings == cli);
  }
}

TEST_CASE("config: the same setting on the command line and in the editor gives the same findings") {
  // The file says 1k; the command line / the editor put the default back, which wins over the file.
  Project p("override", kSmallSpill, "[rules.disk-spill]\nmin-spill-bytes = \"1k\"\n");
  Findings cli = cli_findings(p, "--set min-spill-bytes=1g");
  CHECK_FALSE(has_rule(cli, "disk-spill"));
  LspRun lsp = lsp_findings(p, {{"globalThresholds", {{"min-spill-bytes", "1g"}}}});
  CHECK(lsp.shown.empty());
  CHECK(lsp.findings == cli);
  // And the other way round, with a unit string as --set takes it.
  Project q("override2", kSmallSpill, "");
  Findings cli2 = cli_findings(q, "--set disk-spill.min-spill-bytes=1k");
  CHECK(has_rule(cli2, "disk-spill"));
  CHECK(lsp_findings(q, {{"thresholds", {{"disk-spill", {{"min-spill-bytes", "1k"}}}}}}).findings == cli2);
  // --ignore adds to the file's ignore list; so does the editor's `ignore`.
  Project r("ignore", kSmallSpill, "ignore = [\"small-files\"]\n[rules.disk-spill]\nmin-spill-bytes = \"1k\"\n");
  Findings cli3 = cli_findings(r, "--ignore disk-spill");
  CHECK_FALSE(has_rule(cli3, "disk-spill"));
  CHECK(lsp_findings(r, {{"ignore", {"disk-spill"}}}).findings == cli3);
}

TEST_CASE("config: a setting the CLI refuses is shown to the editor user and left out") {
  Project p("refused", kSmallSpill, "");
  CHECK(test::run_planlint("check --set disk-spill.no-such-option=1 '" + p.plan.string() + "'").exit_code == 2);
  CHECK(test::run_planlint("check --ignore no-such-rule '" + p.plan.string() + "'").exit_code == 2);
  LspRun lsp = lsp_findings(p, {{"thresholds", {{"disk-spill", {{"no-such-option", 1}}}}}, {"ignore", {"no-such-rule"}}});
  REQUIRE(lsp.shown.size() == 2);
  CHECK(lsp.shown[0].find("unknown rule `no-such-rule`") != std::string::npos);
  CHECK(lsp.shown[1].find("unknown option `no-such-option` for rule `disk-spill`") != std::string::npos);
  CHECK(lsp.findings == cli_findings(p));  // linting goes on with the valid settings
}

TEST_CASE("config: an option several rules share has one unit, so a bare `--set option=1k` reads one way") {
  std::map<std::string, std::string> unit_of;
  for (const RuleDoc* doc : all_rule_docs()) {
    for (const Threshold& t : doc->thresholds) {
      CAPTURE(doc->name);
      CAPTURE(t.name);
      auto [it, fresh] = unit_of.emplace(t.name, t.unit);
      CHECK(it->second == t.unit);
    }
  }
  REQUIRE(unit_of.count("broadcast-threshold"));
}

TEST_CASE("settings: extend-select adds to a selection, changes nothing when all rules run, loses to ignore") {
  Settings s;
  std::string err;
  REQUIRE(settings_extend_select(s, "PL002", err));
  CHECK_FALSE(settings_extend_select(s, "no-such-rule", err));
  CHECK(err.find("unknown rule") != std::string::npos);
  const RuleDoc* pl002 = find_rule_doc("PL002");
  const RuleDoc* pl001 = find_rule_doc("PL001");
  REQUIRE(pl002);
  REQUIRE(pl001);
  Config file;  // the file selects PL001 only
  file.select = {"PL001"};
  Config merged = apply_settings(file, s);
  CHECK(merged.enabled(*pl001, pl001->name));
  CHECK(merged.enabled(*pl002, pl002->name));
  // No select anywhere: every rule runs, and extend-select must not narrow that to PL002.
  Config all = apply_settings(Config{}, s);
  CHECK(all.select.empty());
  CHECK(all.enabled(*pl001, pl001->name));
  // An ignore wins.
  REQUIRE(settings_ignore(s, "shuffle-join-could-broadcast", err));
  CHECK_FALSE(apply_settings(file, s).enabled(*pl002, pl002->name));
  // A command-line --select replaces the file's, and extend-select adds to it.
  Settings t;
  REQUIRE(settings_select(t, "PL005", err));
  REQUIRE(settings_extend_select(t, "PL002", err));
  Config cli = apply_settings(file, t);
  CHECK_FALSE(cli.enabled(*pl001, pl001->name));
  CHECK(cli.enabled(*pl002, pl002->name));
}

TEST_CASE("config file: extend-select adds to the file's select, is checked like select, and is listed") {
  const RuleDoc* pl001 = find_rule_doc("PL001");
  const RuleDoc* pl002 = find_rule_doc("PL002");
  const RuleDoc* pl005 = find_rule_doc("PL005");
  REQUIRE(pl001);
  REQUIRE(pl002);
  REQUIRE(pl005);
  ConfigError error;
  auto pc = parse_config_text("select = [\"PL001\"]\nextend-select = [\"PL002\"]\n", ".planlint.toml", false, error);
  REQUIRE(pc);
  CHECK(pc->config.enabled(*pl001, pl001->name));
  CHECK(pc->config.enabled(*pl002, pl002->name));
  CHECK_FALSE(pc->config.enabled(*pl005, pl005->name));
  // Before `select` in the file: the same.
  auto before = parse_config_text("extend-select = [\"PL002\"]\nselect = [\"PL001\"]\n", ".planlint.toml", false, error);
  REQUIRE(before);
  CHECK(before->config.enabled(*pl002, pl002->name));
  // Without `select` every rule runs: extend-select must not narrow that.
  auto alone = parse_config_text("extend-select = [\"PL002\"]\n", ".planlint.toml", false, error);
  REQUIRE(alone);
  CHECK(alone->config.select.empty());
  CHECK(alone->config.enabled(*pl005, pl005->name));
  // An unknown rule is refused with its place; an unknown key lists extend-select among the known.
  CHECK_FALSE(parse_config_text("extend-select = [\"no-such-rule\"]\n", ".planlint.toml", false, error));
  CHECK(error.message.find("extend-select") != std::string::npos);
  CHECK_FALSE(parse_config_text("extend-selekt = [\"PL002\"]\n", ".planlint.toml", false, error));
  CHECK(error.message.find("known: select, extend-select,") != std::string::npos);
}
