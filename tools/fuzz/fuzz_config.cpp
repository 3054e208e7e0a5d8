// libFuzzer target: the configuration reader (.planlint.toml and pyproject.toml's [tool.planlint]).
// The input is the file text; it is read as a pyproject.toml when it mentions `[tool.`, so any
// crash file is itself a config file that reproduces. Build and run: tools/fuzz.sh.
#include <cstdint>
#include <string_view>

#include "lint/catalog/all_rules.hpp"
#include "lint/core/config_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  planlint::register_all_rules();  // the rule catalogue (idempotent)
  std::string_view text(reinterpret_cast<const char*>(data), size);
  bool pyproject = text.find("[tool.") != std::string_view::npos;
  planlint::ConfigError error;
  auto project = planlint::parse_config_text(text, pyproject ? "pyproject.toml" : ".planlint.toml", pyproject, error);
  if (project) (void)planlint::config_for_path(*project, "plans/q1.explain.txt");
  for (const char* unit : {"bytes", "rows", "ms", "percent"}) (void)planlint::parse_quantity(text.substr(0, 64), unit);
  return 0;
}
