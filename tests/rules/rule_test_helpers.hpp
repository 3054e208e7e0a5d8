// Helpers of the rule tests that lint a text with one rule and look at its findings.
#pragma once

#include <string>
#include <string_view>

#include "lint/engine/engine.hpp"

namespace planlint::test {

// A config that runs `rule` alone.
inline Config only_rule(const std::string& rule) {
  Config c;
  c.select = {rule};
  return c;
}

// The first finding of `rule`, or null.
inline const Diagnostic* find(const LintResult& lr, std::string_view rule) {
  for (const auto& d : lr.diagnostics)
    if (d.rule == rule) return &d;
  return nullptr;
}

// The evidence item called `name`, or null.
inline const Evidence* evidence(const Diagnostic& d, std::string_view name) {
  for (const auto& e : d.evidence)
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace planlint::test
