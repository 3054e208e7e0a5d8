#include "tools/cli/lint_file.hpp"

#include <filesystem>
#include <iostream>

#include "lint/config/config_file.hpp"
#include "lint/engine/input.hpp"
#include "parser/eventlog/eventlog.hpp"

namespace planlint::cli {

std::optional<LintedFile> lint_file(const std::string& path, bool use_config_files, int& rc, bool& config_broken) {
  config_broken = false;
  ConfigError ce;
  std::optional<Config> config = config_for_input(path, use_config_files, ce);
  if (!config) {
    std::cerr << ce.str() << "\n";
    config_broken = true;
    return std::nullopt;
  }
  // Event logs (compressed ones and rolling directories too) are read by the streaming reader.
  std::error_code ec;
  if (path != "-" && std::filesystem::exists(path, ec) && is_event_log_path(path)) {
    LintedFile f{{}, std::move(*config), {}};
    EventLogOptions opts;
    opts.execution = f.config.execution;
    f.result.parse = read_event_log(path, path, opts);
    f.result.diagnostics = run_rules(f.result.parse, f.config);
    return f;
  }
  std::string error;
  auto text = read_input(path, error);
  if (!text) {
    std::cerr << "planlint: error: " << error << "\n";
    rc = 2;
    return std::nullopt;
  }
  LintedFile f{std::move(*text), std::move(*config), {}};
  f.result = lint_text(f.text, path, f.config);
  return f;
}

std::optional<int> for_each_linted_file(const std::vector<std::string>& paths, bool use_config_files,
                         const std::function<void(LintedFile&)>& each) {
  int rc = 0;
  for (const auto& path : paths.empty() ? std::vector<std::string>{"-"} : paths) {
    bool config_broken = false;
    std::optional<LintedFile> f = lint_file(path, use_config_files, rc, config_broken);
    if (config_broken) return std::nullopt;
    if (!f) continue;
    if (f->result.parse.has_errors() && rc == 0) rc = 1;
    each(*f);
  }
  return rc;
}

}  // namespace planlint::cli
