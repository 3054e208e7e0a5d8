// The doctest runner, plus one thing doctest lacks: a test case can skip itself at run time
// (test::skip in tests/support.hpp, for example when ../shared is absent). Skipped cases are
// listed after doctest's summary, and a run in which every test case skipped exits 77, CTest's
// skip code (CMakeLists.txt sets SKIP_RETURN_CODE 77; each CTest runs one test case).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include "lint/catalog/all_rules.hpp"
#include "tests/support.hpp"

namespace {

// Counts the test cases run and collects the names of those that called test::skip.
struct SkipListener : doctest::IReporter {
  explicit SkipListener(const doctest::ContextOptions&) {}
  const doctest::TestCaseData* running = nullptr;
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData& d) override {
    running = &d;
    ++planlint::test::skip_state().ran;
    planlint::test::skip_state().current = false;
  }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {
    auto& s = planlint::test::skip_state();
    if (s.current && running) s.names.emplace_back(running->m_name);
    s.current = false;
  }
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

}  // namespace

REGISTER_LISTENER("planlint-skips", 1, SkipListener);

int main(int argc, char** argv) {
  planlint::register_all_rules();  // every program installs the rule catalogue first
  doctest::Context context(argc, argv);
  int rc = context.run();
  if (context.shouldExit()) return rc;
  const auto& s = planlint::test::skip_state();
  if (s.names.empty()) return rc;
  std::printf("[planlint] %zu of %zu test cases skipped themselves (not passed):\n", s.names.size(), s.ran);
  for (const auto& n : s.names) std::printf("[planlint]   %s\n", n.c_str());
  return rc == 0 && s.names.size() == s.ran ? 77 : rc;
}
