// normalize(): each paste repair still fires next to the shortcuts that let clean text skip it
// (the whole-input and per-line prechecks in parser/explain/normalize.cpp), and clean text is left
// as it is.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "parser/explain/normalize.hpp"

using namespace planlint;

namespace {

std::vector<std::string> texts(const Normalized& n) {
  std::vector<std::string> v;
  for (std::size_t i = 0; i < n.line_count(); ++i) v.emplace_back(n.text(i));
  return v;
}

bool repaired(const Normalized& n, std::string_view what) {
  return std::any_of(n.repairs.begin(), n.repairs.end(),
                     [&](const std::string& r) { return r.find(what) != std::string::npos; });
}

std::string dump(const Normalized& n) {
  std::string s;
  for (const auto& r : n.repairs) s += "repair: " + r + "\n";
  for (const auto& t : texts(n)) s += "[" + t + "]\n";
  return s;
}

constexpr std::string_view kLost = "newlines were lost";
constexpr std::string_view kFlat = "flattened tree";
constexpr std::string_view kJoined = "hand-wrapped";

}  // namespace

TEST_CASE("normalize: a clean plan is left as it is") {
  const std::string in =
      "== Physical Plan ==\n"
      "* Project (3)\n"
      "+- * Filter (2)\n"
      "   +- Scan parquet t (1)\n"
      "\n"
      "(1) Scan parquet t\n"
      "Output [2]: [a#1, b#2]\n"
      "Input [2]: [a#1, b#2]\n"
      "Condition : (isnotnull(a#1) AND (a#1 = 2022-01-01))\n";
  Normalized n = normalize(in);
  CHECK_MESSAGE(n.repairs.empty(), dump(n));
  CHECK(texts(n) == std::vector<std::string>{"== Physical Plan ==", "* Project (3)", "+- * Filter (2)",
                                             "   +- Scan parquet t (1)", "", "(1) Scan parquet t",
                                             "Output [2]: [a#1, b#2]", "Input [2]: [a#1, b#2]",
                                             "Condition : (isnotnull(a#1) AND (a#1 = 2022-01-01))"});
}

TEST_CASE("normalize: lost newlines are found after lines holding '-' and '=' of their own") {
  // The collapsed line comes after lines whose '-' / '=' are no markers or headers, and after a
  // plain tree line: the search for the next '-' / '=' of the input must not pass it by.
  const std::string in =
      "Condition : (a#1 = 2022-01-01)\n"
      "+- Scan x (1)\n"
      "note - nothing\n"
      "== Physical Plan == *(2) HashAggregate(keys=[a#1]) +- Exchange hashpartitioning(a#1, 200) +- *(1) Scan t\n";
  Normalized n = normalize(in);
  CHECK_MESSAGE(repaired(n, kLost), dump(n));
  const auto t = texts(n);
  CHECK_MESSAGE(std::find(t.begin(), t.end(), "== Physical Plan ==") != t.end(), dump(n));
  CHECK_MESSAGE(std::find(t.begin(), t.end(), "*(2) HashAggregate(keys=[a#1])") != t.end(), dump(n));
}

TEST_CASE("normalize: two collapsed lines, one after the other") {
  const std::string in =
      "== Physical Plan ==\n"
      "*(1) Project [a#1] +- *(1) Filter (a#1 > 1) +- Scan t\n"
      "\n"
      "== Physical Plan ==\n"
      "*(3) Sort [a#1] +- Exchange x +- Scan u\n";
  Normalized n = normalize(in);
  CHECK_MESSAGE(repaired(n, kLost), dump(n));
  CHECK(texts(n) == std::vector<std::string>{"== Physical Plan ==", "*(1) Project [a#1]", "+- *(1) Filter (a#1 > 1)",
                                             "   +- Scan t", "", "== Physical Plan ==", "*(3) Sort [a#1]",
                                             "+- Exchange x", "   +- Scan u"});
}

TEST_CASE("normalize: a flattened tree right after its root, after a title and after a blank line") {
  for (const std::string lead : {"", "== Physical Plan ==\n", "\n\n", "text\n\n== Physical Plan ==\n"}) {
    const std::string in = lead +
                           "*(2) Project [a#1]\n"
                           "+- *(2) Filter (a#1 > 1)\n"
                           "+- *(1) Scan t\n";
    Normalized n = normalize(in);
    CHECK_MESSAGE(repaired(n, kFlat), dump(n));
    const auto t = texts(n);
    CHECK_MESSAGE(t.back() == "   +- *(1) Scan t", dump(n));
  }
}

TEST_CASE("normalize: a flattened pair deep in a tree, and a tree whose lines only look flattened") {
  SUBCASE("a ':-' branch, then two '+-' lines at one column") {
    Normalized n = normalize(
        "== Physical Plan ==\n"
        "*(5) SortMergeJoin [a#1], [b#2], Inner\n"
        ":- *(2) Sort [a#1]\n"
        ":  +- Exchange x\n"
        ":  +- *(1) Scan t\n"
        "+- *(4) Sort [b#2]\n");
    CHECK_MESSAGE(repaired(n, kFlat), dump(n));
  }
  SUBCASE("the same column after a ':-' sibling is a proper tree") {
    Normalized n = normalize(
        "== Physical Plan ==\n"
        "Union\n"
        ":- Scan t\n"
        "+- Scan u\n");
    CHECK_MESSAGE(!repaired(n, kFlat), dump(n));
    CHECK(texts(n).back() == "+- Scan u");
  }
  SUBCASE("a '+-' line after a title is a root, not inside a block") {
    Normalized n = normalize(
        "== Physical Plan ==\n"
        "+- Scan t\n"
        "+- Scan u\n");
    CHECK_MESSAGE(!repaired(n, kFlat), dump(n));
  }
}

TEST_CASE("normalize: a continuation right after the section root and after a marker line") {
  SUBCASE("after the root") {
    Normalized n = normalize(
        "== Physical Plan ==\n"
        "*(1) Project [a#1,\n"
        "b#2]\n"
        "+- Scan t\n");
    CHECK_MESSAGE(repaired(n, kJoined), dump(n));
    CHECK(texts(n) == std::vector<std::string>{"== Physical Plan ==", "*(1) Project [a#1, b#2]", "+- Scan t"});
  }
  SUBCASE("after a marker line, at column 0") {
    Normalized n = normalize(
        "== Physical Plan ==\n"
        "*(1) Project [a#1]\n"
        "+- *(1) Filter (a#1 >\n"
        "1)\n");
    CHECK_MESSAGE(repaired(n, kJoined), dump(n));
    CHECK(texts(n).back() == "+- *(1) Filter (a#1 > 1)");
  }
  SUBCASE("formatted details after a blank line are no continuation") {
    Normalized n = normalize(
        "== Physical Plan ==\n"
        "* Project (2)\n"
        "+- Scan t (1)\n"
        "\n"
        "(1) Scan t\n"
        "Output [1]: [a#1]\n");
    CHECK_MESSAGE(!repaired(n, kJoined), dump(n));
  }
}

TEST_CASE("normalize: notebook prefixes, numbered trees and prompts next to lines that look alike") {
  SUBCASE("MAGIC and COMMAND lines") {
    Normalized n = normalize(
        "-- Databricks notebook source\n"
        "# MAGIC %md\n"
        "# MAGIC == Physical Plan ==\n"
        "# MAGIC * Project (1)\n"
        "-- COMMAND ----------\n");
    CHECK_MESSAGE(repaired(n, "MAGIC"), dump(n));
    const auto t = texts(n);
    CHECK_MESSAGE(std::find(t.begin(), t.end(), "== Physical Plan ==") != t.end(), dump(n));
  }
  SUBCASE("a numbered tree after lines starting with '0'") {
    Normalized n = normalize(
        "0 rows\n"
        "00 x\n"
        "00 Project [a#1]\n"
        "01 +- Filter (a#1 > 1)\n"
        "02    +- Scan t\n");
    CHECK_MESSAGE(repaired(n, "numberedTreeString"), dump(n));
    CHECK(texts(n) == std::vector<std::string>{"0 rows", "00 x", "Project [a#1]", "+- Filter (a#1 > 1)", "   +- Scan t"});
  }
  SUBCASE("prompts and log lines go, formatted Input / Output lines stay") {
    Normalized n = normalize(
        "In [3]: df.explain('formatted')\n"
        "INFO SparkContext: Running\n"
        "Out[3]:\n"
        "== Physical Plan ==\n"
        "Scan t (1)\n"
        "\n"
        "(1) Scan t\n"
        "Output [1]: [a#1]\n"
        "Input [1]: [a#1]\n"
        "INFOrmation: kept\n");
    CHECK_MESSAGE(repaired(n, "log or prompt"), dump(n));
    CHECK(texts(n) == std::vector<std::string>{"", "", "", "== Physical Plan ==", "Scan t (1)", "", "(1) Scan t",
                                               "Output [1]: [a#1]", "Input [1]: [a#1]", "INFOrmation: kept"});
  }
  SUBCASE("notebook JSON") {
    Normalized n = normalize(
        "{\n"
        " \"cells\": [\n"
        "  {\n"
        "   \"cell_type\": \"code\",\n"
        "   \"outputs\": [\n"
        "    {\n"
        "     \"output_type\": \"stream\",\n"
        "     \"text\": [\n"
        "      \"== Physical Plan ==\\n\",\n"
        "      \"*(1) Project [a#1]\\n\",\n"
        "      \"+- Scan t\\n\"\n"
        "     ]\n"
        "    }\n"
        "   ]\n"
        "  }\n"
        " ]\n"
        "}\n");
    CHECK_MESSAGE(repaired(n, "ipynb"), dump(n));
    const auto t = texts(n);
    CHECK_MESSAGE(std::find(t.begin(), t.end(), "+- Scan t") != t.end(), dump(n));
  }
}

TEST_CASE("normalize: guides longer than 16 bytes, and a ':' ending a 16-byte block") {
  // skip_guides works 16 bytes at a time: a ':' at byte 15 is a guide only with a blank after it.
  // The second line below is no tree line then, so it continues the line before it.
  const std::string in =
      "== Physical Plan ==\n"
      "Root\n"
      ":- A\n"
      ":  :- B\n"
      ":  :  :- C\n"
      ":  :  :  :- D\n"
      "               :  +- E\n"
      "               ::  +- F\n";
  Normalized n = normalize(in);
  CHECK_MESSAGE(!repaired(n, kFlat), dump(n));
  CHECK_MESSAGE(repaired(n, kJoined), dump(n));
  CHECK(texts(n).back() == "               :  +- E ::  +- F");
}

TEST_CASE("normalize: a bare '&' is Catalyst's bitwise AND, not markup; entities are still decoded") {
  const std::string clean =
      "== Physical Plan ==\n"
      "*(1) Project [cast((shiftright(spark_grouping_id#24, 0) & 1) as tinyint) AS g#30]\n"
      "+- *(1) Range (0, 10, step=1, splits=2)\n";
  Normalized n = normalize(clean);
  CHECK_MESSAGE(n.repairs.empty(), dump(n));
  CHECK(texts(n)[1] == "*(1) Project [cast((shiftright(spark_grouping_id#24, 0) & 1) as tinyint) AS g#30]");

  const std::string escaped =
      "== Physical Plan ==\n"
      "*(1) Filter ((a#1 & 1) &gt; 0)\n"
      "+- *(1) Project [(b#2 & 3) AS c#4]\n";
  Normalized m = normalize(escaped);
  CHECK_MESSAGE(repaired(m, "escaping"), dump(m));
  const auto t = texts(m);
  REQUIRE(t.size() == 3);
  CHECK(t[1] == "*(1) Filter ((a#1 & 1) > 0)");
  CHECK(t[2] == "+- *(1) Project [(b#2 & 3) AS c#4]");
}
