// lint/core/describe_settings: `check --show-settings` as text, with where each value came from.
#include <doctest/doctest.h>

#include <string>

#include "lint/core/describe_settings.hpp"

using namespace planlint;

namespace {

bool has_line(const std::string& text, const std::string& line) {
  return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

}  // namespace

TEST_CASE("describe_settings: defaults without a config file") {
  Config config;
  Settings cli;
  SettingsSources s;
  s.shown = "q.plan";
  s.config = &config;
  s.cli = &cli;
  s.include = {"*.plan", "*.txt"};
  std::string text = describe_settings(s);
  CHECK(text.rfind("# settings for q.plan (config file: none found)\n", 0) == 0);
  CHECK(has_line(text, "select = []  # default: every rule"));
  CHECK(has_line(text, "ignore = []  # default"));
  CHECK(has_line(text, "include = [\"*.plan\", \"*.txt\"]  # default"));
  CHECK(has_line(text, "[severity]"));
  CHECK(has_line(text, "parse-error = \"error\"  # default"));
  CHECK(has_line(text, "[thresholds]"));
  s.no_config = true;
  CHECK(describe_settings(s).rfind("# settings for q.plan (config file: none, --no-config)\n", 0) == 0);
}

TEST_CASE("describe_settings: values from the command line and from the config file") {
  ConfigError err;
  auto pc = parse_config_text(
      "ignore = [\"unused-suppression\"]\n"
      "include = [\"*.plan\"]\n"
      "[severity]\n"
      "parse-error = \"warning\"\n",
      "repo/.planlint.toml", false, err);
  REQUIRE_MESSAGE(pc, err.str());
  Settings cli;
  std::string e;
  REQUIRE(settings_ignore(cli, "parse-error", e));
  Config config = apply_settings(config_for_path(*pc, "repo/q.plan"), cli);
  SettingsSources s;
  s.shown = "repo/q.plan";
  s.config = &config;
  s.cli = &cli;
  s.project = &*pc;
  s.include = pc->include;
  std::string text = describe_settings(s);
  CHECK(text.rfind("# settings for repo/q.plan (config file: repo/.planlint.toml)\n", 0) == 0);
  CHECK(has_line(text, "ignore = [\"parse-error\", \"unused-suppression\"]  # parse-error: --ignore, "
                       "unused-suppression: repo/.planlint.toml"));
  CHECK(has_line(text, "include = [\"*.plan\"]  # repo/.planlint.toml"));
  CHECK(has_line(text, "parse-error = \"warning\"  # repo/.planlint.toml"));
  s.include_from_cli = true;
  CHECK(has_line(describe_settings(s), "include = [\"*.plan\"]  # --include"));
}
