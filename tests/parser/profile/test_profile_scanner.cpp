// The Query Profile reader's own JSON scanner (parser/profile/profile_json_scan.hpp) against
// nlohmann's parser: the same ParseResult (operators, plans, diagnostics with their positions and
// messages, as `planlint parse --format json` prints them) for every profile of the corpus, for
// crafted texts (escapes, numbers at the edges of their types, repeated keys, snake_case, BOMs),
// and for thousands of damaged copies (single-byte changes, deletions, truncations): a text the
// scanner does not vouch for must be read by nlohmann, whose messages the user then sees.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "lint/core/plan_json.hpp"
#include "parser/profile/profile.hpp"
#include "tests/support.hpp"

using namespace planlint;

namespace {

std::string scanner_dump(const ParseResult& r) { return dump_json(parse_result_json(r)); }

struct Compared {
  bool same = false;
  bool scanned = false;
};

// Both readings of `text`; `scanned` says whether the scanner read it (else nlohmann did both).
Compared compare(const std::string& text, const std::string& name = "profile.json") {
  bool scanned = false;
  ParseResult fast = parse_query_profile(text, name, ProfileJsonParser::Scanner, &scanned);
  ParseResult reference = parse_query_profile(text, name, ProfileJsonParser::Nlohmann);
  return {scanner_dump(fast) == scanner_dump(reference), scanned};
}

#define CHECK_SAME(text)                              \
  do {                                                \
    const std::string t_ = (text);                    \
    Compared c_ = compare(t_);                        \
    CHECK_MESSAGE(c_.same, "differs on: " << t_);     \
  } while (0)

#define CHECK_SCANNED_SAME(text)                      \
  do {                                                \
    const std::string t_ = (text);                    \
    Compared c_ = compare(t_);                        \
    CHECK_MESSAGE(c_.same, "differs on: " << t_);     \
    CHECK_MESSAGE(c_.scanned, "not scanned: " << t_); \
  } while (0)

bool scanner_golden(const std::filesystem::path& p) {
  const std::string n = p.filename().string();
  for (const char* suffix : {".parse.json", ".check.json", ".expected.json", ".sarif.json", ".golden.json"})
    if (n.size() > std::string_view(suffix).size() && n.ends_with(suffix)) return true;
  return false;
}

// Every JSON input under corpus/ (goldens aside) and ../shared/corpus that holds a `graphs` or
// `graph` key: the profiles, and the damaged ones beside them.
std::vector<std::filesystem::path> profile_files() {
  std::vector<std::filesystem::path> dirs{test::corpus_dir()};
  if (auto shared = test::shared_dir()) dirs.push_back(*shared / "corpus");
  std::vector<std::filesystem::path> out;
  for (const auto& dir : dirs) {
    if (!std::filesystem::exists(dir)) continue;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
      if (!e.is_regular_file() || e.path().extension() != ".json" || scanner_golden(e.path())) continue;
      if (e.file_size() > 20'000'000) continue;
      std::string text = test::read_file(e.path());
      if (text.find("\"graph") == std::string::npos && text.find("\"query\"") == std::string::npos) continue;
      out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

const std::string kSmall = R"J({"version": "1.2",
 "query": {"id": "q1", "queryText": "select 1", "status": "FINISHED", "metrics": {"totalTimeMs": 12, "readBytes": 1e3, "resultFromCache": false}},
 "graphs": [{"nodes": [
   {"id": "1", "name": "Scan t", "tag": "PHOTON_SCAN_EXEC", "keyMetrics": {"rowsNum": 10, "durationMs": 5},
    "metadata": [{"key": "IS_PHOTON", "value": "true"}, {"key": "FILTERS", "values": ["(a > 1)", "isnotnull(b)"]}],
    "metrics": [{"label": "Number of output rows", "key": "NUMBER_OUTPUT_ROWS", "metricType": "UNKNOWN_TYPE", "value": 10}]},
   {"id": "2", "name": "Filter", "tag": "PHOTON_FILTER_EXEC", "stageLinks": [3, "4"]}],
  "edges": [{"fromId": "2", "toId": "1"}],
  "stageData": [{"stageId": "3", "status": "COMPLETE", "numTasks": 2}]}]}
)J";

}  // namespace

TEST_CASE("profile scanner: every corpus profile reads the same as with nlohmann, by the scanner") {
  const auto files = profile_files();
  CHECK(files.size() >= 40);
  std::size_t scanned = 0, valid = 0;
  for (const auto& f : files) {
    const std::string text = test::read_file(f);
    Compared c = compare(text, f.filename().string());
    CHECK_MESSAGE(c.same, "differs: " << f.string());
    if (nlohmann::json::accept(text)) {
      ++valid;
      CHECK_MESSAGE(c.scanned, "valid JSON the scanner left to nlohmann: " << f.string());
    }
    scanned += c.scanned;
  }
  CHECK(valid > 0);
  CHECK(scanned == valid);
  if (!test::shared_dir()) test::shared_missing("../shared/corpus not found: only corpus/ compared");
}

TEST_CASE("profile scanner: strings, numbers and keys at their edges") {
  auto node = [](const std::string& members) {
    return R"J({"graphs": [{"nodes": [{"id": "1", )J" + members + R"J(}], "edges": []}]})J";
  };
  // Escapes, kept (node name, metric label, metadata) and skipped.
  CHECK_SCANNED_SAME(node(R"J("name": "a\"b\\c\/d\b\f\n\r\t", "tag": "X")J"));
  CHECK_SCANNED_SAME(node(R"J("name": "caf\u00e9 \u20ac \ud83d\ude00 \u0000 end")J"));
  CHECK_SCANNED_SAME(node(R"J("name": "café €😀", "metadata": [{"key": "FILTERS", "value": "(x = 'é')"}])J"));
  CHECK_SCANNED_SAME(node(R"J("na\u006de": "escaped key", "ta\tg": 1)J"));
  CHECK_SAME(node(R"J("name": "\ud83d alone")J"));
  CHECK_SAME(node(R"J("name": "\ude00 alone")J"));
  CHECK_SAME(node(R"J("name": "\ud83d\u0041")J"));
  CHECK_SAME(node(R"J("name": "\x")J"));
  CHECK_SAME(node(R"J("name": "\u12G4")J"));
  CHECK_SAME(node("\"name\": \"tab\tinside\""));
  CHECK_SAME(node("\"name\": \"bad \xC3\x28 utf8\""));
  CHECK_SAME(node("\"name\": \"overlong \xC0\xAF\""));
  CHECK_SAME(node("\"name\": \"surrogate \xED\xA0\x80\""));
  CHECK_SAME(node("\"name\": \"too big \xF4\x90\x80\x80\""));
  CHECK_SCANNED_SAME(node("\"name\": \"max \xF4\x8F\xBF\xBF \xE0\xA0\x80 \xF0\x90\x80\x80\""));
  // Numbers: every type nlohmann gives, as ids (text), key metrics (number) and metric values.
  for (const char* n : {"0", "-0", "7", "-7", "123456789012345678", "1234567890123456789", "18446744073709551615",
                        "18446744073709551616", "-9223372036854775808", "-9223372036854775809", "1.5", "-0.0", "1e3",
                        "1E+3", "2.5e-3", "1e308", "1e-400", "123456789012345678901234567890"}) {
    const std::string v = n;
    CHECK_SCANNED_SAME(node(R"J("name": )J" + v + R"J(, "keyMetrics": {"rowsNum": )J" + v + R"J(, "durationMs": ")J" + v +
                            R"J("}, "metrics": [{"label": "m", "metricType": "TIMING_METRIC_NS", "value": )J" + v +
                            R"J(}], "stageLinks": [)J" + v + "]"));
  }
  for (const char* n : {"1e309", "-1e400", "01", "1.", ".5", "-", "1e", "+1", "0x10", "1.5e+", "--1"})
    CHECK_SAME(node(std::string(R"J("name": "x", "keyMetrics": {"rowsNum": )J") + n + "}"));
  CHECK_SAME(R"J({"query": {"id": "q", "metrics": {"totalTimeMs": 1e999}}})J");
  // Strings that hold numbers (planMetadatas carries int64 as strings), padded and not.
  for (const char* s : {"12", " 12", "12 ", "1e5", "0x1p3", "inf", "nan", "", "\\u0000", "1\\u00002"})
    CHECK_SCANNED_SAME(node(std::string(R"J("keyMetrics": {"rowsNum": ")J") + s + R"J("}, "stageLinks": [")J" + s + "\"]"));
}

TEST_CASE("profile scanner: repeated keys, snake_case, nulls, odd shapes") {
  CHECK_SCANNED_SAME(kSmall);
  CHECK_SCANNED_SAME("\xEF\xBB\xBF" + kSmall);
  CHECK_SAME("\xEF\xBB\xBF\xEF\xBB\xBF" + kSmall);
  CHECK_SAME("\xEF\xBB" + kSmall);
  CHECK_SCANNED_SAME(" \n\t\r" + kSmall + " \n");
  // Repeated keys: the last one counts, at every level.
  CHECK_SCANNED_SAME(R"J({"graphs": [{"nodes": [{"id": "9"}]}], "graphs": [{"nodes": [{"id": "1", "id": "2", "name": "A", "name": null}], "nodes": [{"id": "3"}, {"id": "4"}], "edges": [{"fromId": "3", "toId": "4"}], "edges": [{"fromId": "4", "toId": "3", "toId": "9"}]}]})J");
  CHECK_SCANNED_SAME(R"J({"graph": {"nodes": [{"id": "1"}, 5, [1, {"id": "x"}], null, {"id": "2"}], "edges": [7, {"fromId": "1", "toId": "2"}, []]}, "graph": {"nodes": [{"id": "a"}, {"id": "b", "subgraphParent": "a"}], "edges": []}})J");
  CHECK_SCANNED_SAME(R"J({"graph": {"nodes": [{"id": "a"}]}, "graphs": [{"nodes": [{"id": "b"}]}]})J");
  CHECK_SCANNED_SAME(R"J({"graphs": [5, {"nodes": [{"id": "b"}]}, [], {"nodes": {"id": "c"}}, {"nodes": [{"id": "d", "key_metrics": {"rows_num": 3}, "stage_links": [1], "subgraph_parent": "d"}], "stage_data": [{"stage_id": 1}]}]})J");
  CHECK_SCANNED_SAME(R"J({"graphs": [{"nodes": [{"id": "1", "keyMetrics": null, "key_metrics": {"rowsNum": 4}, "metadata": [{"key": "JOIN_ALGORITHM", "value": "sort merge"}, 3, {"label": "JOIN_TYPE", "value": "Inner"}]}]}]})J");
  CHECK_SCANNED_SAME(R"J({"graphs": {"nodes": [{"id": "1"}]}, "graph": [{"nodes": []}], "query": {"queryText": "a\nb"}})J");
  CHECK_SCANNED_SAME(R"J({"graphs": [{"edges": [{"fromId": 1, "toId": 2.0}], "nodes": [{"id": 1}, {"id": 2.0}]}]})J");
  CHECK_SCANNED_SAME(R"J({"graphs": [{"nodes": [{"id": "1", "nodes": [{"id": "2"}], "metrics": [{"value": "3", "label": "x", "hidden": "true"}, {"name": "y", "hidden": true}]}]}], "photonExplain": ["x"]})J");
  CHECK_SCANNED_SAME(R"J({"graphs": [{"nodes": [], "photonExplain": ["Photon does not fully support the query because: x"], "photon_explain": [{"text": "y"}]}]})J");
  CHECK_SCANNED_SAME(R"J({"planDescription": "x", "nodes": []})J");
  CHECK_SCANNED_SAME(R"J({"other": 1})J");
  CHECK_SCANNED_SAME(R"J({"graphs": null, "query": null, "graph": null})J");
  CHECK_SCANNED_SAME(R"J([{"graphs": []}])J");
  CHECK_SCANNED_SAME(R"J("text")J");
  CHECK_SCANNED_SAME("42");
  CHECK_SCANNED_SAME("null");
  CHECK_SCANNED_SAME(R"J({"version": "2.0", "graphs": []})J");
  CHECK_SCANNED_SAME(R"J({"version": 1.2, "graphs": [{}]})J");
  // Not JSON at all, or cut short: nlohmann's messages.
  for (const char* t : {"", " ", "{", "{\"graphs\": [", "{\"graphs\": [{\"nodes\": [{\"id\": \"1\"", "{} x", "{}{}",
                        "{\"a\" 1}", "{\"a\": 1,}", "[1,]", "{'a': 1}", "{\"a\": tru}", "{\"a\": nul}", "// c\n{}",
                        "{\"a\": 1}\x00", "\x00"}) {
    CHECK_SAME(std::string(t));
  }
  CHECK_SAME(std::string("{\"graphs\": []}\0", 15));
}

TEST_CASE("profile scanner: thousands of damaged profiles read the same as with nlohmann") {
  std::vector<std::string> texts{kSmall};
  for (const auto& f : profile_files()) {
    if (std::filesystem::file_size(f) > 60'000 || texts.size() >= 12) continue;
    texts.push_back(test::read_file(f));
  }
  if (auto shared = test::shared_dir()) {
    auto big = *shared / "corpus" / "databricks" / "profile-03-itagaki-query3.json";
    if (std::filesystem::exists(big)) texts.push_back(test::read_file(big));
  }
  REQUIRE(texts.size() >= 8);
  std::mt19937 rng(37);
  const std::string bytes = std::string("\"\\{}[],:0123456789.eE+-utfnlrx /\t\n\r", 36) + std::string("\x00\x01\x7F\x80\xBF\xC3\xE0\xED\xF0\xF4\xFF", 11);
  std::size_t cases = 0, scanned = 0, differ = 0;
  for (std::size_t ti = 0; ti < texts.size(); ++ti) {
    const std::string& base = texts[ti];
    const bool huge = base.size() > 100'000;  // profile-03: fewer cases, each costs ~10 ms
    const int rounds = huge ? 60 : 300;
    for (int i = 0; i < rounds; ++i) {
      std::string t = base;
      const std::size_t at = std::uniform_int_distribution<std::size_t>(0, t.size() - 1)(rng);
      switch (i % 4) {
        case 0:
        case 1:
          t[at] = bytes[std::uniform_int_distribution<std::size_t>(0, bytes.size() - 1)(rng)];
          break;
        case 2:
          t.erase(at, 1);
          break;
        default:
          t.resize(at);  // truncated
          break;
      }
      Compared c = compare(t);
      ++cases;
      scanned += c.scanned;
      if (!c.same) {
        ++differ;
        if (differ <= 5) CHECK_MESSAGE(c.same, "text " << ti << ", case " << i << " at byte " << at << " differs");
      }
    }
  }
  CHECK(differ == 0);
  CHECK(cases >= 2000);
  // A change inside a string or a digit for a digit keeps the text valid: the scanner reads those.
  CHECK(scanned > cases / 10);
  MESSAGE(cases << " damaged texts, " << scanned << " read by the scanner, the rest by nlohmann");
}
