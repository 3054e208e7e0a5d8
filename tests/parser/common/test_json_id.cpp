// id_from_double: the one rule the JSON readers share for ids written as numbers.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "parser/common/json_id.hpp"
#include "parser/registry/parse.hpp"

using namespace planlint;

TEST_CASE("id_from_double: only finite doubles within long long's range are ids") {
  CHECK(id_from_double(0) == 0);
  CHECK(id_from_double(42) == 42);
  CHECK(id_from_double(42.9) == 42);  // truncated toward zero, as a cast would
  CHECK(id_from_double(-3) == -3);
  CHECK(id_from_double(8.9e18) == static_cast<long long>(8.9e18));
  CHECK_FALSE(id_from_double(9.0e18).has_value());
  CHECK_FALSE(id_from_double(-9.0e18).has_value());
  CHECK_FALSE(id_from_double(2.2e32).has_value());  // a damaged log's accumulator id
  CHECK_FALSE(id_from_double(1e308).has_value());
  CHECK_FALSE(id_from_double(std::numeric_limits<double>::infinity()).has_value());
  CHECK_FALSE(id_from_double(std::nan("")).has_value());
}

TEST_CASE("id_from_double in the readers: an execution id out of range is no id") {
  // The event log's executionId and the History Server's id go through the same rule: a
  // 1e30 execution is no execution 1e30 (and no undefined conversion).
  const std::string log =
      "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n"
      "{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart\",\"executionId\":1e30,"
      "\"description\":\"x\",\"physicalPlanDescription\":\"== Physical Plan ==\\nLocalTableScan [a#1]\\n\","
      "\"sparkPlanInfo\":{\"nodeName\":\"LocalTableScan\",\"simpleString\":\"LocalTableScan [a#1]\",\"children\":[],"
      "\"metrics\":[]},\"time\":1}\n";
  ParseResult r = parse_input(log, "big-id.eventlog");
  REQUIRE(r.plans.size() == 1);
  CHECK(r.plans[0].query.statement_id == "-1");
  const std::string hs =
      "[{\"id\": 1e30, \"status\": \"COMPLETED\", \"description\": \"x\", \"planDescription\": "
      "\"== Physical Plan ==\\nLocalTableScan [a#1]\\n\", \"successJobIds\": [1e30, 7], \"nodes\": [], \"edges\": []}]";
  ParseResult h = parse_input(hs, "big-id.sql.json");
  REQUIRE(h.plans.size() == 1);
  CHECK(h.plans[0].query.statement_id == "-1");
  REQUIRE(h.plans[0].jobs.size() == 1);  // the out-of-range job id is left out
  CHECK(h.plans[0].jobs[0].id == "7");
}
