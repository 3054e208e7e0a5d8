#include "tools/cli/lint_file.hpp"

#include <iostream>

#include "lint/config_file.hpp"
#include "lint/input.hpp"

namespace planlint::cli {

std::optional<LintedFile> lint_file(const std::string& path, bool use_config_files, int& rc, bool& config_broken) {
  config_broken = false;
  std::string error;
  auto text = read_input(path, error);
  if (!text) {
    std::cerr << "planlint: error: " << error << "\n";
    rc = 2;
    return std::nullopt;
  }
  ConfigError ce;
  std::optional<Config> config = config_for_input(path, use_config_files, ce);
  if (!config) {
    std::cerr << ce.str() << "\n";
    config_broken = true;
    return std::nullopt;
  }
  LintedFile f{std::move(*text), std::move(*config), {}};
  f.result = lint_text(f.text, path, f.config);
  return f;
}

}  // namespace planlint::cli
