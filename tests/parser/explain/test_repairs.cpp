// The repair passes of normalize() (parser/explain/repair/): each pass's cheap `may_apply` check is
// false only where its `run` would change nothing. On every text of the bundled corpus (and of
// ../shared/corpus when it is there) and on crafted pastes, the passes run in normalize()'s order;
// where `may_apply` is false the pass runs anyway and must leave the lines, their source
// positions and the cut exactly as they were. normalize()'s compact line table (4 bytes a line,
// when no repair changed a line) must answer exactly what the full table answers.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parser/explain/normalize.hpp"
#include "parser/explain/repair/lines.hpp"
#include "parser/explain/repair/repair.hpp"
#include "support/byte_scan.hpp"
#include "tests/support.hpp"

namespace fs = std::filesystem;
namespace repair = planlint::repair;

namespace {

// What normalize() hands to the reader: the lines with their text and where their bytes come from.
struct Snapshot {
  std::vector<std::string> text;
  std::vector<std::uint32_t> where;  // per line: its line, where its view starts in the input, the
                                     // source of its first, middle and end byte, and two ranges
  bool cut = false;
  std::size_t cut_line = 0;
  std::string cut_text;
  bool operator==(const Snapshot&) const = default;
};

Snapshot snapshot(const planlint::Normalized& n) {
  Snapshot s;
  const auto at = [&n](std::string_view t) {  // a view into the input: its offset (else a mark)
    const bool in = t.data() >= n.input.data() && t.data() <= n.input.data() + n.input.size();
    return in ? static_cast<std::uint32_t>(t.data() - n.input.data()) : UINT32_MAX;
  };
  const auto range = [&s](const planlint::SourceRange& r) {
    s.where.insert(s.where.end(), {r.line, r.column, r.end_line, r.end_column});
  };
  for (std::size_t i = 0; i < n.line_count(); ++i) {
    const std::string_view t = n.text(i);
    s.text.emplace_back(t);
    s.where.push_back(n.line_number(i));
    s.where.push_back(at(t));
    s.where.push_back(n.plain(i) ? 1 : 0);
    for (std::size_t col : {std::size_t{0}, t.size() / 2, t.size()}) {
      const planlint::SrcPos p = n.pos(i, col);
      s.where.push_back(p.line);
      s.where.push_back(p.col);
    }
    range(n.range(i, 0, t.size()));
    if (i + 1 < n.line_count()) range(n.range(i, t.size() / 2, i + 1, 1));
  }
  range(n.range(n.line_count(), 0, 1));  // past the last line: nothing
  s.cut = n.cut;
  s.cut_line = n.cut_line;
  s.cut_text = n.cut_text;
  return s;
}

struct Tally {
  std::size_t inputs = 0, skipped = 0, ran = 0, wrong = 0, compact = 0, split_shapes = 0;
};

// may_rebuild_flattened_trees' answer (and the one it keeps for may_join_continuations) from a walk
// over the line table, which `relaid` forces (the split's answers hold only while it is false).
struct ShapeAnswer {
  bool flat = false, join = false;
  bool operator==(const ShapeAnswer&) const = default;
};
ShapeAnswer walked_shape_answer(repair::RepairState& s) {
  const bool relaid = s.relaid;
  s.relaid = true;
  ShapeAnswer a;
  a.flat = repair::may_rebuild_flattened_trees(s);
  a.join = s.join_work;
  s.relaid = relaid;
  return a;
}
ShapeAnswer given_shape_answer(repair::RepairState& s) {
  ShapeAnswer a;
  a.flat = repair::may_rebuild_flattened_trees(s);
  a.join = s.join_work;
  return a;
}

// Runs the passes over `text` as normalize() does, and every skipped pass as a check.
void check_input(std::string_view text, const std::string& name, Tally& tally) {
  ++tally.inputs;
  repair::RepairState s = repair::split_lines(text);
  std::vector<std::string> repairs = s.out.repairs;
  bool changed = false;  // a pass changed something (what normalize() asks before compact())
  for (const repair::Repair& r : repair::kRepairs) {
    // The tree-shape checks: where the split's answers are taken (no pass changed a line), they
    // are the walk's over the lines as they are now.
    if (r.may_apply == &repair::may_rebuild_flattened_trees && !s.collapsed) {
      if (!s.relaid && repair::lines_as_split(s)) ++tally.split_shapes;
      const ShapeAnswer walked = walked_shape_answer(s);
      const ShapeAnswer given = given_shape_answer(s);
      CHECK_MESSAGE(walked.flat == given.flat, name);
      CHECK_MESSAGE(walked.join == given.join, name);
    }
    if (r.may_apply(s)) {
      ++tally.ran;
      if (r.run(s)) {
        changed = true;
        if (!r.what.empty()) repairs.emplace_back(r.what);
      }
      continue;
    }
    ++tally.skipped;
    const Snapshot before = snapshot(s.out);
    const bool changed = r.run(s);
    if (changed || !(snapshot(s.out) == before)) {
      ++tally.wrong;
      if (tally.wrong <= 5) FAIL_CHECK("pass '" << std::string(r.what) << "' changed " << name << " though may_apply was false");
    }
  }
  // The split's list of the lines collapsed_lines may split (RepairState::marked) changes nothing:
  // without it, collapsed_lines looks at every line, and the passes end with the same lines.
  repair::RepairState full = repair::split_lines(text);
  full.marked_valid = false;
  full.marked.clear();
  for (const repair::Repair& r : repair::kRepairs)
    if (r.may_apply(full)) r.run(full);
  CHECK_MESSAGE(snapshot(full.out) == snapshot(s.out), name);
  // The loop above is normalize(): the same repairs, the same lines (with the line table compact
  // where it can be: it must answer as the full one).
  const planlint::Normalized n = planlint::normalize(text);
  if (!n.repairs.empty()) CHECK_FALSE(n.starts);  // a repair that changed nothing is no repair
  if (tally.wrong == 0) {
    CHECK(n.repairs == repairs);
    CHECK(snapshot(n) == snapshot(s.out));
  }
  // The compact table made from the full one, where no pass changed a line.
  if (!changed && tally.wrong == 0) {
    planlint::Normalized c = planlint::normalize(text, false);
    if (c.compact()) {
      ++tally.compact;
      CHECK(snapshot(c) == snapshot(s.out));
    } else {
      CHECK_FALSE(c.starts);
    }
  }
}

void check_tree(const fs::path& dir, Tally& tally) {
  if (!fs::is_directory(dir)) return;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string ext = e.path().extension().string();
    if (ext != ".txt" && ext != ".md" && ext != ".log" && ext != ".sql" && ext != ".json" && ext != ".ipynb") continue;
    if (e.file_size() > (std::size_t{2} << 20)) continue;  // the big generated texts add time, not cases
    files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) check_input(planlint::test::read_file(f), f.string(), tally);
}

}  // namespace

TEST_CASE("explain repairs: may_apply false means run changes nothing, on every corpus text") {
  Tally tally;
  check_tree(planlint::test::corpus_dir(), tally);
  if (auto shared = planlint::test::shared_dir()) check_tree(*shared / "corpus", tally);
  // Crafted pastes that make each pass run (and others skip).
  const std::vector<std::string> crafted = {
      "",
      "\n\n",
      "# MAGIC == Physical Plan ==\n# MAGIC * Project (1)\n# COMMAND ----------\n",
      "+----+\n|plan|\n+----+\n|== Physical Plan ==\n*(1) Project [a#1]\n+- Scan x   |\n+----+\n",
      "  |== Physical Plan ==\n  |*(1) Project [a#1]\n  |+- Scan x\n",
      R"({"cells": [{"cell_type": "code", "outputs": [{"output_type": "stream", "text": ["== Physical Plan ==\n", "*(1) Project [a#1]\n", "+- *(1) Scan x\n"]}]}]})",
      R"(plan: == Physical Plan ==\n*(1) Project [a#1]\n+- *(1) Scan x\n)",
      "== Physical Plan ==\n*(1) Project [a#1] +- *(1) Filter (a#1 &gt; 1) +- *(1) Scan x\n",
      "00 Project [a#1]\n01 +- Filter (a#1 > 1)\n02    +- Relation t[a#1] parquet\n",
      "== Physical Plan ==\n\n*(1) Project [a#1]\n\n+- *(1) Filter x\n\n+- *(1) Scan x\n\n",
      "== Physical Plan ==\n\t*(1) Project [a#1]\n\t+- *(1) Scan x\n",
      "== Physical Plan ==\n*(1) Project [a#1]\n+- *(1) Scan x... 1234 more characters\n",
      "    == Physical Plan ==\n    *(1) Project [a#1]\n    +- *(1) Scan x\n",
      "== Physical Plan ==\nSortMergeJoin [a#1], [b#2]\n+- Sort [a#1]\n+- Exchange x\n:- Scan y\n+- Scan z\n",
      "== Physical Plan ==\n*(1) Project [a#1, b#2,\nc#3]\n+- *(1) Scan x\n",
      "df.explain()\n    // == Physical Plan ==\n    // *(1) Project [a#1]\n    // +- *(1) Scan x\n    val y = 1\n",
      "# Query Plan:\n# *(1) Project [a#1]\n# +- *(1) Scan x\n# The scan reads every file of the table.\n",
      "/*\n * == Physical Plan ==\n * *(1) Project [a#1]\n * +- *(1) Scan x\n */\n",
      "> == Physical Plan ==\n> *(1) Project [a#1]\n>    +- *(1) Scan x\n",
      "df.explain()      //> == Physical Plan ==\n                  //| *(1) Project [a#1]\n                  //| +- *(1) Scan x\n",
      "== Physical Plan ==\n*(1) Project [a#1]\n+- Exchange x  <-- SHUFFLE\n   ...\n   +- *(1) Scan x \xE2\x86\x90 here\n",
      "== Physical Plan ==\n*(1) Project [a#1]\n+- Exchange x  // shuffle here\n   (...)\n   +- *(1) Scan x\n",
      "The plan:\n\n   +- CollectLimit (3)\n      +- * Filter (2)\n         +- Scan parquet t (1)\n",
      // The compact line table: no newline at the end, empty lines, and lines it cannot take
      // (CR, trailing blanks, blank-only lines).
      "== Physical Plan ==\n*(1) Project [a#1]\n+- *(1) Scan x",
      "== Physical Plan ==\n\n\n*(1) Project [a#1]\n+- *(1) Scan x\n\n",
      "\n",
      "x",
      "== Physical Plan ==\r\n*(1) Project [a#1]\r\n+- *(1) Scan x\r\n",
      "== Physical Plan ==  \n*(1) Project [a#1]\n+- *(1) Scan x\n",
      "== Physical Plan ==\n   \n*(1) Project [a#1]\n+- *(1) Scan x\n",
      // Elisions the split finds (every form, after guides and a marker, CR and blanks after),
      // and ones that only an earlier pass makes (an annotation, a comment prefix, notebook magic).
      "== Physical Plan ==\n*(1) Project [a#1]\n:  +- (...)  \r\n+- [...]\n   +- \xE2\x80\xA6\n(\xE2\x80\xA6)\n....\n",
      "== Physical Plan ==\n*(1) Project [a#1]\n+- ... <- cut here\n   +- *(1) Scan x\n",
      "// == Physical Plan ==\n// *(1) Project [a#1]\n// +- ...\n// +- *(1) Scan x\n",
      "# MAGIC == Physical Plan ==\n# MAGIC *(1) Project [a#1]\n# MAGIC ...\n# MAGIC +- *(1) Scan x\n",
      "== Physical Plan ==\n*(1) Project [a#1]\n+- Filter (a#1 > 1.)\n+- Scan [x...]\n   +- Scan y.\n",
      // Comment tokens with no plan marker after them (formatted plans' `* ` lines), and with one.
      "== Physical Plan ==\n* Sort (3)\n+- * Project (2)\n   +- Scan parquet t (1)\n",
      "notes\n* Sort (3)\n> quoted\n-- == Physical Plan ==\n-- *(1) Scan x\n",
      "# MAGIC %md\n# MAGIC * *(1) Project [a#1]\n# MAGIC * +- *(1) Scan x\n",
      // `//` in every place the input's one walk over its `/` bytes looks: a path, `///`, a comment
      // after code at the end, a gutter right after a path.
      "== Physical Plan ==\n*(1) Scan x [file:/a//b, s3://c///d]\n+- Exchange y  // why\n",
      "val p = 1 ///> no\ndf.explain() //| == Physical Plan ==\n              //| *(1) Scan x\n",
      "== Physical Plan ==\n*(1) Project [a#1]\n+- *(1) Scan x  // ",
  };
  for (std::size_t i = 0; i < crafted.size(); ++i) check_input(crafted[i], "crafted " + std::to_string(i), tally);
  MESSAGE(tally.inputs << " inputs, " << tally.ran << " passes ran, " << tally.skipped << " skipped");
  CHECK(tally.inputs > 500);
  CHECK(tally.skipped > 1000);
  CHECK(tally.wrong == 0);
  MESSAGE(tally.compact << " inputs with a compact line table");
  CHECK(tally.compact > 100);
  MESSAGE(tally.split_shapes << " inputs with the split's tree-shape answers");
  CHECK(tally.split_shapes > 300);
}

TEST_CASE("byte scanners: the 16-byte paths count and find what a byte loop does") {
  std::string s;
  std::size_t tried = 0, differ = 0;
  for (std::size_t n = 0; n < 300; ++n) {
    // Runs of blanks, guides and newlines of every length across the 16-byte blocks.
    s += (n % 7 == 0) ? '\n' : (n % 5 == 0) ? ':' : (n % 11 == 0) ? 'x' : ' ';
    for (std::size_t from = 0; from < s.size(); ++from) {
      const std::string_view v = std::string_view(s).substr(from);
      ++tried;
      const std::size_t nl = v.find('\n');
      std::size_t run = 0;
      while (run < v.size() && (v[run] == ' ' || v[run] == ':')) ++run;
      std::size_t g = 0;
      while (g < v.size() && (v[g] == ' ' || (v[g] == ':' && (g + 1 == v.size() || v[g + 1] == ' ')))) ++g;
      if (planlint::count_newlines(v) != static_cast<std::size_t>(std::count(v.begin(), v.end(), '\n')) ||
          planlint::find_newline(v, 0) != (nl == std::string_view::npos ? v.size() : nl) ||
          planlint::leading_run(v, ' ', ':') != run || planlint::skip_blanks_and_lone_colons(v) != g)
        ++differ;
      // LineCursor: every line end in order (across its 64-byte masks), then v.size() for good;
      // of each line its `:` and `x` bytes, counted up to two.
      // (on a copy with `-` for `:` and `=` for `x`)
      std::string w(v);
      std::replace(w.begin(), w.end(), ':', '-');
      std::replace(w.begin(), w.end(), 'x', '=');
      planlint::LineCursor cursor(w);
      unsigned marks = 0;
      auto counted = [&](std::size_t b, std::size_t e) {
        const auto c = static_cast<unsigned>(std::count_if(w.begin() + static_cast<std::ptrdiff_t>(b),
                                                           w.begin() + static_cast<std::ptrdiff_t>(e),
                                                           [](char ch) { return ch == '-' || ch == '='; }));
        return c < 2 ? c : 2u;
      };
      std::size_t b = 0;
      for (std::size_t at = v.find('\n'); at != std::string_view::npos; b = at + 1, at = v.find('\n', at + 1))
        if (cursor.next(marks) != at || marks != counted(b, at)) ++differ;
      if (cursor.next(marks) != v.size() || marks != counted(b, v.size()) || cursor.next(marks) != v.size()) ++differ;
    }
  }
  CHECK(tried > 40000);
  CHECK(differ == 0);
  CHECK(planlint::count_newlines(std::string(100000, '\n')) == 100000);
  // Every byte a newline: a 64-bit mask with all bits set, many masks in a row.
  const std::string all(1000, '\n');
  planlint::LineCursor cursor(all);
  std::size_t seen = 0;
  unsigned marks = 0;
  while (seen < all.size() && cursor.next(marks) == seen && marks == 0) ++seen;
  CHECK(seen == 1000);
  CHECK(cursor.next(marks) == all.size());
  // Lines of marks longer than a block: counted up to two.
  const std::string dashes = std::string(200, '-') + "\n=\n\n" + std::string(130, 'a') + "=" + std::string(70, 'b') + "-";
  planlint::LineCursor dc(dashes);
  CHECK(dc.next(marks) == 200);
  CHECK(marks == 2);
  CHECK(dc.next(marks) == 202);
  CHECK(marks == 1);
  CHECK(dc.next(marks) == 203);
  CHECK(marks == 0);
  CHECK(dc.next(marks) == dashes.size());
  CHECK(marks == 2);
}

namespace {
// What LineCursor gives for `v`: each line's end and its marks (`-` / `=` bytes, up to two), as a
// byte loop finds them, then v.size() (and 2 for the marks of a line with more).
std::vector<std::pair<std::size_t, unsigned>> line_cursor_reference(std::string_view v) {
  std::vector<std::pair<std::size_t, unsigned>> out;
  unsigned marks = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '\n') {
      out.emplace_back(i, marks);
      marks = 0;
    } else if ((v[i] == '-' || v[i] == '=') && marks < 2) {
      ++marks;
    }
  }
  out.emplace_back(v.size(), marks);
  return out;
}

// Whether LineCursor gives the reference's answers for the `n` bytes at `p` (a buffer of exactly
// n bytes: the sanitizer builds catch a read past it), and v.size() at two calls more.
bool line_cursor_matches(const char* p, std::size_t n) {
  const std::string_view v(p, n);
  planlint::LineCursor cursor(v);
  unsigned marks = 0;
  for (const auto& [end, m] : line_cursor_reference(v))
    if (cursor.next(marks) != end || marks != m) return false;
  return cursor.next(marks) == n && marks == 0 && cursor.next(marks) == n;
}
}  // namespace

TEST_CASE("byte scanners: LineCursor's 32-byte (AVX2) and 16-byte masks give a byte loop's lines and marks") {
  // Both readings where the processor has AVX2, else the 16-byte one (twice).
  const std::vector<bool> widths = planlint::LineCursor::wide ? std::vector<bool>{false, true} : std::vector<bool>{false};
  // Bytes that are a newline, a mark, or one bit off one (0x10 folds `-` onto `=`; 0x80 the sign).
  const std::string alphabet = std::string("\n-=a \x1D\x0D\x3C\x2C\x1A\x8A\xAD\xBD\x0B\x00", 16);
  std::uint64_t rng = 0x9E3779B97F4A7C15ULL;
  auto next_rand = [&] {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
  };
  std::size_t tried = 0, differ = 0;
  for (const bool wide : widths) {
    const planlint::test::SetForScope<bool> reading(planlint::LineCursor::wide, wide);
    // Every length to 200 (the 16-, 32- and 64-byte blocks and their ends) and around the ends of a
    // fill's blocks (2,048 bytes): one newline, `-` or `=` at every place of a plain text, and
    // texts of random bytes with many of them.
    std::vector<std::size_t> lengths;
    for (std::size_t n = 0; n <= 200; ++n) lengths.push_back(n);
    for (std::size_t n : {1983, 2047, 2048, 2049, 2111, 2112, 2113, 4095, 4096, 4097, 4160})
      lengths.push_back(n);
    for (const std::size_t n : lengths) {
      std::unique_ptr<char[]> buf(new char[n == 0 ? 1 : n]);  // (exactly n bytes are read)
      const std::size_t step = n <= 200 ? 1 : 7;
      for (const char c : {'\n', '-', '='})
        for (std::size_t at = 0; at < n; at += step) {
          std::fill(buf.get(), buf.get() + n, 'x');
          buf[at] = c;
          ++tried;
          if (!line_cursor_matches(buf.get(), n)) ++differ;
        }
      for (int round = 0; round < 40; ++round) {
        const std::uint64_t dense = next_rand() % 4;  // 1 in 2, 4, 8 or 16 bytes from the alphabet
        for (std::size_t i = 0; i < n; ++i) {
          const std::uint64_t r = next_rand();
          buf[i] = (r >> 8) % (std::uint64_t{2} << dense) == 0 ? alphabet[r % alphabet.size()] : 'y';
        }
        ++tried;
        if (!line_cursor_matches(buf.get(), n)) ++differ;
      }
    }
  }
  MESSAGE(tried << " texts, " << widths.size() << " readings");
  CHECK(tried > 100000);
  CHECK(differ == 0);
}

TEST_CASE("explain repairs: a comment prefix on the plan lines is stripped, locations kept") {
  // Indented `// ` comments in code: the code lines are left out, the plan lines keep their columns.
  const std::string in =
      "results.explain();\n"
      "        // == Physical Plan ==\n"
      "        // *(1) Project [a#1]\n"
      "        // +- *(1) Scan x\n"
      "        results.show();\n";
  const planlint::Normalized n = planlint::normalize(in);
  std::vector<std::string> text;
  for (std::size_t i = 0; i < n.line_count(); ++i) text.emplace_back(n.text(i));
  CHECK(text == std::vector<std::string>{"", "== Physical Plan ==", "*(1) Project [a#1]", "+- *(1) Scan x", ""});
  const planlint::SrcPos scan = n.pos(3, 3);  // the `*` of `*(1) Scan x`
  CHECK(scan.line == 4);
  CHECK(scan.col == 15);
  CHECK(std::find_if(n.repairs.begin(), n.repairs.end(), [](const std::string& r) {
          return r.find("comment prefix") != std::string::npos;
        }) != n.repairs.end());
  // A plain plan with one commented line is not a commented plan (the plain plan lines win the vote).
  const planlint::Normalized plain = planlint::normalize("== Physical Plan ==\n// +- note\n*(1) Project [a#1]\n+- *(1) Scan x\n");
  CHECK(std::find_if(plain.repairs.begin(), plain.repairs.end(), [](const std::string& r) {
          return r.find("comment prefix") != std::string::npos;
        }) == plain.repairs.end());
  CHECK(plain.text(0) == "== Physical Plan ==");
}

TEST_CASE("explain repairs: a worksheet gutter wrapped mid-word is joined, captions start plans, prose ends them") {
  const std::string in =
      "val c = x      //> cols  : Array[String] = Array(a, b, c, d, e, f, g, hxxxxxxxxxxxxxxxxxxx\n"
      "df.explain()   //> == Physical Plan ==\n"
      "               //| InMemoryRelation [a#1, b#2, c#3, d#4, e#5, f#6, g#7], true, 10000, Stor\n"
      "               //| ageLevel(disk, memory, deserialized, 1 replicas)\n"
      "               //|    +- LocalTableScan [a#1]\n";
  const planlint::Normalized n = planlint::normalize(in);
  std::vector<std::string> text;
  for (std::size_t i = 0; i < n.line_count(); ++i) text.emplace_back(n.text(i));
  REQUIRE(text.size() >= 4);
  CHECK(text[2] == "InMemoryRelation [a#1, b#2, c#3, d#4, e#5, f#6, g#7], true, 10000, StorageLevel(disk, memory, deserialized, 1 replicas)");
  CHECK(text[3] == "   +- LocalTableScan [a#1]");
  const planlint::SrcPos a = n.pos(2, 71);  // the `a` of `ageLevel`, on the next input line
  CHECK(a.line == 4);
  CHECK(a.col == 20);

  const std::string cap =
      "    # Query Plan:\n"
      "    # *(1) Range (1, 10, step=1, splits=6)\n"
      "    # Spark creates a range of numbers in 6 partitions.\n"
      "    # Query Plan:\n"
      "    # Exchange RoundRobinPartitioning(7)\n"
      "    # +- *(1) Range (1, 10, step=1, splits=6)\n";
  const planlint::Normalized c = planlint::normalize(cap);
  CHECK(c.text(0) == "== Physical Plan ==");
  CHECK(c.pos(0, 0).col == 7);
  CHECK(c.text(2).empty());
  CHECK(c.text(3) == "== Physical Plan ==");
}

TEST_CASE("explain repairs: an author's annotation is cut, an elision line is a gap") {
  const planlint::Normalized n = planlint::normalize(
      "== Physical Plan ==\n*(1) Project [a#1]\n+- Exchange x  <-- SHUFFLE\n   \xE2\x80\xA6\n   +- *(1) Scan x  // here\n");
  std::vector<std::string> text;
  for (std::size_t i = 0; i < n.line_count(); ++i) text.emplace_back(n.text(i));
  CHECK(text == std::vector<std::string>{"== Physical Plan ==", "*(1) Project [a#1]", "+- Exchange x", "   +- *(1) Scan x"});
  CHECK(n.line_number(3) == 5);  // the scan keeps its own line
  CHECK(n.pos(3, 6).col == 7);
}

TEST_CASE("explain repairs: a tree quoted from its second line is read with its first operator as the root") {
  // corpus/real/101: a knowledge-base page left out the AdaptiveSparkPlan line of a formatted outline.
  const std::string in =
      "The following is the SQL plan.\n"
      "\n"
      "   +- CollectLimit (3)\n"
      "      +- * Filter (2)\n"
      "         +- Scan parquet t (1)\n"
      "\n"
      "Cause\n";
  const planlint::Normalized n = planlint::normalize(in);
  std::vector<std::string> text;
  for (std::size_t i = 0; i < n.line_count(); ++i) text.emplace_back(n.text(i));
  CHECK(text == std::vector<std::string>{"The following is the SQL plan.", "", "CollectLimit (3)", "+- * Filter (2)",
                                         "   +- Scan parquet t (1)", "", "Cause"});
  CHECK(n.pos(2, 0).line == 3);
  CHECK(n.pos(2, 0).col == 7);  // `CollectLimit` where the user's text has it
  CHECK(n.pos(4, 3).col == 10);
  CHECK(std::find_if(n.repairs.begin(), n.repairs.end(), [](const std::string& r) {
          return r.find("root line was left out") != std::string::npos;
        }) != n.repairs.end());
  // Not when the line above is not blank (it may be the root), when a header is there, or when the
  // paste starts inside a subtree (a `:` guide before the first marker, a later line as shallow).
  for (const std::string& other : {std::string("Project [a#1]\n   +- Filter x\n      +- Scan y\n"),
                                   std::string("== Physical Plan ==\n\n   +- Filter x\n      +- Scan y\n"),
                                   std::string("\n   :  +- Filter x\n   +- Scan y\n"),
                                   std::string("\n   +- Filter x\n      +- Scan y\n +- Scan z\n")}) {
    const planlint::Normalized o = planlint::normalize(other);
    CHECK(std::find_if(o.repairs.begin(), o.repairs.end(), [](const std::string& r) {
            return r.find("root line was left out") != std::string::npos;
          }) == o.repairs.end());
  }
}

TEST_CASE("explain repairs: the split's quick lines (empty, Input and Output lines) and its marked lines, counted or not") {
  // Lines starting with `I` or `O` are kept as plain lines unless they are prompts or log lines.
  const std::string io =
      "== Physical Plan ==\nIn [3]: df.explain()\nInput [1]: [a#1]\nOut[4]: x\nOutput [1]: [a#1]\n"
      "INFO Foo: bar\nIN\nI\nO\nOu\nInp\n\nError in query: x\nInput [2]: [b#2]\n\n== Physical Plan ==\nOutput [2]: [c#3]";
  repair::RepairState s = repair::split_lines(io);
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < s.out.lines.size(); ++i) kept.emplace_back(s.out.text(i));
  CHECK(kept == std::vector<std::string>{"== Physical Plan ==", "", "Input [1]: [a#1]", "", "Output [1]: [a#1]", "", "IN",
                                         "I", "O", "Ou", "Inp", "", "", "", "", "== Physical Plan ==",
                                         "Output [2]: [c#3]"});
  CHECK(s.nonempty == 10);
  CHECK(s.out.lines[16].line == 17);
  CHECK(s.out.repairs == std::vector<std::string>{"removed log or prompt lines"});

  // RepairState::marked: the lines with two `-` / `=` or more, kept while there are at most
  // newlines / 8 + 64 of them; the same whether the split counted the lines first (a large input)
  // or not.
  for (const std::size_t filler : {std::size_t{0}, std::size_t{300000}}) {
    for (const std::size_t many : {std::size_t{70}, std::size_t{200}}) {
      std::string text(filler, 'x');  // one long first line: a large input, few lines
      std::vector<std::uint32_t> want;
      std::size_t lines = 1;
      for (std::size_t i = 0; i < 800; ++i) {
        text += i % 4 == 0 && want.size() < many ? "\n+- a = b" : "\nFilter c";
        if (text.ends_with("b")) want.push_back(static_cast<std::uint32_t>(lines));
        ++lines;
      }
      const repair::RepairState m = repair::split_lines(text);
      const bool valid = want.size() <= (lines - 1) / 8 + 64;
      CAPTURE(filler);
      CAPTURE(many);
      CHECK(m.marked_valid == valid);
      CHECK(m.marked == (valid ? want : std::vector<std::uint32_t>{}));
      CHECK(m.out.lines.size() == lines);
    }
  }
}

TEST_CASE("explain repairs: the split's tree-shape answers are the walk's, on random tree texts") {
  // Lines made of tree prefixes, markers, titles, details, noise and prompt lines the split drops,
  // fences, CR and trailing blanks: the split feeds its ShapeWalk every kept line (an emptied one as
  // empty), and its answers must be what the walk over its line table finds.
  const std::vector<std::string_view> leads = {"", "", "", " ", "   ", ":  ", ":  :  ", ":", "\t", "  :- ", "+- "};
  const std::vector<std::string_view> bodies = {
      "+- Project [a#1]", ":- Scan x", "+- == Physical Plan ==", "== Physical Plan ==", "== Analyzed Logical Plan ==",
      "== Parsed ==", "(1) Scan parquet", "(x) y", "Project [a#1]", "*(1) Sort [a#1]", "Input [2]: a#1, b#2",
      "In [3]: df.explain()", "INFO Foo: bar", "Error in query: x", "```", "+----+", "=", "+", ":", "(", "(1",
      "Subtree 1 Plan ==", "",  "+- ", "== A == x"};
  const std::vector<std::string_view> tails = {"", "", "", " ", "\r", "  "};
  std::uint64_t seed = 0x9E3779B97F4A7C15ULL;
  const auto next = [&seed](std::size_t n) {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return static_cast<std::size_t>(seed % n);
  };
  std::size_t flats = 0, joins = 0, both = 0;
  for (int round = 0; round < 6000; ++round) {
    std::string text;
    const std::size_t n = 1 + next(14);
    for (std::size_t k = 0; k < n; ++k) {
      text += leads[next(leads.size())];
      text += bodies[next(bodies.size())];
      text += tails[next(tails.size())];
      if (k + 1 < n || next(2) == 0) text += '\n';
    }
    repair::RepairState s = repair::split_lines(text);
    if (s.collapsed) continue;  // (never: no pass ran)
    const ShapeAnswer walked = walked_shape_answer(s);
    const ShapeAnswer split{s.split_flat, s.split_join};
    const ShapeAnswer given = given_shape_answer(s);
    CAPTURE(text);
    REQUIRE(split == walked);
    REQUIRE(given == walked);
    flats += walked.flat;
    joins += walked.join;
    both += walked.flat && walked.join;
  }
  MESSAGE(flats << " texts with a flattened pair, " << joins << " with a continuation, " << both << " with both");
  CHECK(flats > 150);
  CHECK(joins > 1000);
  CHECK(both > 100);
}

namespace {
// What split_lines keeps and counts, line by line with every check (none of its quick paths): the
// kept lines' text and where they start in the input, and the RepairState fields the passes read.
struct SplitRef {
  std::vector<std::string> text;
  std::vector<std::size_t> offset, borders;
  std::size_t nonempty = 0, margin = 0;
  bool magic_start = false, comment_start = false, comment_vote = false, any_tab = false, elision = false,
       zero_start = false;
  bool operator==(const SplitRef&) const = default;
};

SplitRef split_by_every_check(std::string_view in) {
  using namespace planlint;
  if (in.starts_with("\xEF\xBB\xBF")) in.remove_prefix(3);
  SplitRef r;
  bool in_error = false;
  for (std::size_t pos = 0;;) {
    std::size_t nl = in.find('\n', pos);
    if (nl == std::string_view::npos) nl = in.size();
    std::string_view t = rtrim_blank_cr(in.substr(pos, nl - pos));
    if (t.starts_with("Error in query") || t.starts_with("org.apache.spark.sql.AnalysisException"))
      in_error = true;
    else if (in_error && (t.starts_with("== ") || repair::is_noise(t)))
      in_error = false;
    if (in_error) t = {};
    const std::size_t f = leading_run(t, ' ', '\t');
    if (f < t.size()) {
      const char c = t[f];
      if (repair::is_fence(t)) {
        t = {};
      } else if (repair::is_table_border(t)) {
        t = {};
        r.borders.push_back(r.text.size());
      } else if ((f == 0 && repair::is_noise(t)) || repair::is_continuation_prompt(t)) {
        t = {};
      } else {
        ++r.nonempty;
        if (f == 0 && (c == '#' || c == '-' || c == '/')) r.magic_start = true;
        if (f == 0 && c == '0') r.zero_start = true;
        const char d = f + 1 < t.size() ? t[f + 1] : ' ';
        if (!r.comment_vote && (c == '#' || c == '%' || ((c == '/' || c == '-') && d == c) ||
                                (c == '*' && is_blank(d)) || (c == '>' && d != '>'))) {
          r.comment_start = true;
          r.comment_vote = repair::comment_line_votes(t);
        }
        const std::string_view body = t.substr(f);
        if (c == '|' || body.starts_with("\"\"\"|") || body.starts_with("s\"\"\"|")) ++r.margin;
        if (t.find('\t') != std::string_view::npos) r.any_tab = true;
        if (repair::is_elision_line(t)) r.elision = true;
      }
    }
    r.text.emplace_back(t);
    r.offset.push_back(t.empty() ? 0 : static_cast<std::size_t>(t.data() - in.data()));
    if (nl == in.size()) break;
    pos = nl + 1;
  }
  if (!in.empty() && in.back() == '\n' && r.text.back().empty()) {
    r.text.pop_back();
    r.offset.pop_back();
  }
  return r;
}

SplitRef split_as_split(std::string_view in) {
  const repair::RepairState s = repair::split_lines(in);
  SplitRef r;
  for (std::size_t i = 0; i < s.out.lines.size(); ++i) {
    const std::string_view t = s.out.text(i);
    r.text.emplace_back(t);
    r.offset.push_back(t.empty() ? 0 : static_cast<std::size_t>(t.data() - s.out.input.data()));
  }
  r.borders = s.borders;
  r.nonempty = s.nonempty;
  r.margin = s.margin;
  r.magic_start = s.magic_start;
  r.comment_start = s.comment_start;
  r.comment_vote = s.comment_vote;
  r.any_tab = s.any_tab;
  r.elision = s.elision;
  r.zero_start = s.zero_start;
  return r;
}
}  // namespace

TEST_CASE("explain repairs: the split's quick lines keep and count what every check would, on random texts") {
  // Lines of every kind the split's quick paths (plain first bytes, `Input` / `Output`, blanks then
  // a plain byte, `+` and `*` tree lines) must tell from the lines its slow path drops or counts:
  // fences, table borders, prompts and log lines, comment and quote tokens, margins, tabs, elisions,
  // an error block.
  const std::vector<std::string_view> leads = {"", "", "", " ", "  ", "   ", "\t", " \t ", "    ", ":  "};
  const std::vector<std::string_view> bodies = {
      "+- Scan x", "+----+", "+", "+-+", "+- a +", "*(1) Project [a#1]", "* Sort (3)", "*", "* ", "*\t+- x", "```",
      "~~~x", "> q", "> +- Scan x", ">> x", "# c", "# +- Scan", "% x", "// c", "// +- Scan x", "/x", "-- c", "-x",
      "| a", "|", "\"\"\"|x", "s\"\"\"|x", "\"x", "scala> x", "sx", "0 a", "00 x", "7", "Error in query: x",
      "org.apache.spark.sql.AnalysisException: y", "== Physical Plan ==", "In [3]: x", "Input [1]: a", "INFO Foo: bar",
      "IN", "Out[2]: x", "Output [1]: a", "25/11/30 10:00:00 INFO x", "...", "(...)", "[...]", "+- ...", ":- x", "x\ty",
      "\xE2\x80\xA6", "Time taken: 1", "$ ls", "res6: String = x", "WARN X: y", "DEBUG a: b", "ERROR c: d", "Project",
      "(1) Scan", "=", ":", "<x>", "\x01x", "\xC3\xA9t\xC3\xA9", "E", "o", "r", "T", "W", "D"};
  const std::vector<std::string_view> tails = {"", "", "", " ", "\r", "\t", " \r"};
  std::uint64_t seed = 0xD1B54A32D192ED03ULL;
  const auto next = [&seed](std::size_t n) {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return static_cast<std::size_t>(seed % n);
  };
  std::size_t votes = 0, borders = 0, margins = 0, elisions = 0;
  for (int round = 0; round < 8000; ++round) {
    std::string text = round % 50 == 0 ? "\xEF\xBB\xBF" : "";
    const std::size_t n = 1 + next(16);
    for (std::size_t k = 0; k < n; ++k) {
      text += leads[next(leads.size())];
      text += bodies[next(bodies.size())];
      text += tails[next(tails.size())];
      if (k + 1 < n || next(2) == 0) text += '\n';
    }
    const SplitRef want = split_by_every_check(text);
    const SplitRef got = split_as_split(text);
    CAPTURE(text);
    REQUIRE(got == want);
    votes += want.comment_vote;
    borders += !want.borders.empty();
    margins += want.margin > 0;
    elisions += want.elision;
  }
  MESSAGE(votes << " texts with a comment vote, " << borders << " with a border, " << margins << " with margins, "
                << elisions << " with an elision");
  CHECK(votes > 300);
  CHECK(borders > 300);
  CHECK(margins > 300);
  CHECK(elisions > 300);
}
