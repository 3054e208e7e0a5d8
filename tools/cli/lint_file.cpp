#include "tools/cli/lint_file.hpp"

#include <iostream>
#include <new>
#include <stdexcept>
#include <sstream>

#include "lint/engine/check.hpp"
#include "lint/core/config_file.hpp"
#include "lint/core/sanitize.hpp"

namespace planlint::cli {

std::optional<LintedFile> lint_file(const std::string& path, bool use_config_files, bool finish, int& rc,
                                    bool& config_broken, double max_input_bytes, std::optional<long long> execution) {
  config_broken = false;
  ConfigError ce;
  std::optional<Config> config = config_for_input(path, use_config_files, ce);
  if (!config) {
    std::cerr << visible(ce.str()) << "\n";
    config_broken = true;
    return std::nullopt;
  }
  if (max_input_bytes > 0) config->max_input_bytes = max_input_bytes;
  if (execution) config->execution = execution;
  LintRequest request;
  request.path = path;
  LintOptions options = lint_options(finish ? LintMode::Show : LintMode::Inspect);
  Linted linted;
  try {
    linted = lint_input(request, *config, options);
  } catch (const std::bad_alloc&) {  // this file is reported, the next one is read
    linted = Linted{};
    linted.error = path + ": out of memory";
  } catch (const std::length_error&) {
    linted = Linted{};
    linted.error = path + ": out of memory";
  }
  if (!linted.error.empty()) {
    std::cerr << "planlint: error: " << visible(linted.error) << "\n";
    rc = 2;
    return std::nullopt;
  }
  return LintedFile{std::move(linted.input), std::move(*config), std::move(linted.result)};
}

std::optional<int> for_each_linted_file(const std::vector<std::string>& paths, bool use_config_files, bool finish,
                                        const std::function<void(LintedFile&)>& each, double max_input_bytes,
                                        std::optional<long long> execution) {
  int rc = 0;
  for (const auto& path : paths.empty() ? std::vector<std::string>{"-"} : paths) {
    bool config_broken = false;
    std::optional<LintedFile> f = lint_file(path, use_config_files, finish, rc, config_broken, max_input_bytes, execution);
    if (config_broken) return std::nullopt;
    if (!f) continue;
    if (f->result.parse.has_errors() && rc == 0) rc = 1;
    try {
      each(*f);
    } catch (const std::bad_alloc&) {  // showing or reporting this file ran out of memory
      std::cerr << "planlint: error: " << visible(path) << ": out of memory\n";
      rc = 2;
    } catch (const std::length_error&) {
      std::cerr << "planlint: error: " << visible(path) << ": out of memory\n";
      rc = 2;
    }
  }
  return rc;
}

std::optional<double> max_input_size_option(const std::string& text) {
  if (text.empty()) return 0.0;
  auto v = parse_quantity(text, "bytes");
  if (!v || *v < 1) return std::nullopt;
  return v;
}

}  // namespace planlint::cli
