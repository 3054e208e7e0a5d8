// lint/engine: the LintMode names of lint_input's option sets.
#include <doctest/doctest.h>

#include "lint/engine/engine.hpp"

using namespace planlint;

namespace {
bool is(const LintOptions& o, bool finish, bool keep_plans, bool refuse_non_plans) {
  return o.finish == finish && o.keep_plans == keep_plans && o.refuse_non_plans == refuse_non_plans;
}
}  // namespace

TEST_CASE("lint_options: each mode's finish, keep_plans and refuse_non_plans") {
  CHECK(is(lint_options(LintMode::Check), true, false, true));
  CHECK(is(lint_options(LintMode::Editor), true, true, false));
  CHECK(is(lint_options(LintMode::Show), true, true, true));
  CHECK(is(lint_options(LintMode::Inspect), false, true, true));
  CHECK(is(lint_options(LintMode::Test), false, true, false));
  CHECK(is(lint_options(LintMode::Editor), LintOptions{}.finish, LintOptions{}.keep_plans, LintOptions{}.refuse_non_plans));
}
