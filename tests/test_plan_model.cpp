#include <doctest/doctest.h>

#include "parser/registry/parse.hpp"
#include "rules/rule.hpp"

using namespace planlint;

TEST_CASE("detect_format tells JSON profiles, event logs and text apart") {
  CHECK(detect_format("  {\"version\":\"1.2\",\"query\":{}}") == InputFormat::QueryProfile);
  CHECK(detect_format("{\"Event\":\"SparkListenerLogStart\"}\n{\"Event\":\"x\"}") == InputFormat::EventLog);
  CHECK(detect_format("== Physical Plan ==\n* Project (1)\n") == InputFormat::Unknown);
  CHECK(detect_format("\xEF\xBB\xBF{\"graphs\":[]}") == InputFormat::QueryProfile);
}

TEST_CASE("Plan::link fills parents and drops duplicate and self edges") {
  Plan p;
  p.ops.resize(3);
  for (std::size_t i = 0; i < 3; ++i) p.ops[i].index = i;
  p.ops[0].children = {1, 2, 1, 0, 7};
  p.link();
  CHECK(p.ops[0].children == std::vector<std::size_t>{1, 2});
  CHECK(p.ops[1].parents == std::vector<std::size_t>{0});
  CHECK(p.ops[2].parents == std::vector<std::size_t>{0});
}

TEST_CASE("formatting helpers") {
  CHECK(format_bytes(512) == "512 B");
  CHECK(format_bytes(10.0 * 1024 * 1024) == "10.0 MiB");
  CHECK(format_count(1234567) == "1,234,567");
  CHECK(format_count(-1000) == "-1,000");
  CHECK(format_millis(250) == "250 ms");
  CHECK(format_millis(1500) == "1.5 s");
  CHECK(format_millis(200'000) == "3 min 20 s");
}
