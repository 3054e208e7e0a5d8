#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "lint/catalog/all_rules.hpp"

int main(int argc, char** argv) {
  planlint::register_all_rules();  // every program installs the rule catalogue first
  doctest::Context context(argc, argv);
  return context.run();
}
