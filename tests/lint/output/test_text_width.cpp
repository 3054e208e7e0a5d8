// Display widths (lint/core/text_width.hpp, utf8proc): wide characters take two columns,
// combining marks none; the caret under a finding and show's cut lines count columns, not bytes.
#include <doctest/doctest.h>

#include <sstream>

#include "lint/core/text_width.hpp"
#include "lint/output/output.hpp"
#include "tests/lint_fixtures.hpp"

using namespace planlint;

TEST_CASE("display_width: ASCII, wide, combining, invalid bytes") {
  CHECK(display_width("") == 0);
  CHECK(display_width("SortMergeJoin") == 13);
  CHECK(display_width("订单") == 4);                 // East Asian wide
  CHECK(display_width("e\xCC\x81") == 1);            // e + combining acute
  CHECK(display_width("→├─") == 3);                  // narrow symbols and box drawing
  CHECK(display_width("\xFF\xFE") == 2);             // not UTF-8: a column per byte
}

TEST_CASE("fit_columns: cuts at a column, never inside a character") {
  CHECK(fit_columns("abcdef", 6) == "abcdef");
  CHECK(fit_columns("abcdef", 5) == "abcd…");
  CHECK(fit_columns("订单订单", 5) == "订单…");     // 4 columns + the ellipsis
  CHECK(fit_columns("订单订单", 4) == "订…");       // a wide character that does not fit stays out
  CHECK(fit_columns("abe\xCC\x81xyz", 4) == "abe\xCC\x81…");  // the mark stays with its letter
}

TEST_CASE("text: the caret is under the operator name when wide characters come before it") {
  FileReport r;
  r.path = "paste.txt";
  std::string line = "订单表 → +- Scan parquet 订单 (1)";
  r.input = std::make_shared<const std::string>(line + "\n");
  Diagnostic d = test::sample_finding();
  d.operator_name = "Scan parquet 订单";
  std::size_t at = line.find("Scan");
  d.range = {1, static_cast<std::uint32_t>(at + 1), 1, static_cast<std::uint32_t>(at + 1 + d.operator_name.size())};
  r.diagnostics.push_back(d);
  std::ostringstream out;
  write_text(out, {r}, {});
  std::string text = out.str();
  // 订单表 (6 columns) + " → +- " (6) = 12 columns before the name; the name is 17 columns.
  CHECK_MESSAGE(text.find("\n  |             " + std::string(17, '^') + "\n") != std::string::npos, text);
}
