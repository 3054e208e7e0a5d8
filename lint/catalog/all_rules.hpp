// The top of lint/: the one place that knows every rule family (rules/catalog.hpp). Every program
// calls register_all_rules() before it lints, validates a configuration or lists rules: the CLI's
// main, the tests' main, the Python module, the fuzz targets and the benchmark. A family left out
// here fails tests/lint/catalog/test_catalog.cpp; a program that does not call it aborts on its
// first read of the catalogue.
#pragma once

namespace planlint {

// Registers the plan, builtin, diff and history families and installs the catalogue. Idempotent and
// thread-safe; the first call does the work.
void register_all_rules();

}  // namespace planlint
