// parse_query_profile_file (parser/profile/profile_reader.cpp): a Query Profile read from a file in
// pieces, never held whole, gives exactly what reading its bytes whole gives (operators, plans,
// messages with their positions, as `planlint parse --format json` prints them), whatever the size
// of the pieces (a token cut anywhere: 16 bytes is less than most strings), or gives nothing when
// the scanner does not vouch for the bytes (the caller then reads them whole, and nlohmann's
// messages are the user's).
#include <doctest/doctest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "lint/core/plan_json.hpp"
#include "parser/profile/profile.hpp"
#include "tests/support.hpp"
#include "tools/gen/generate.hpp"

using namespace planlint;

namespace {

std::string dumped(const ParseResult& r) { return dump_json(parse_result_json(r)); }

std::size_t operators(const ParseResult& r) {
  std::size_t n = 0;
  for (const Plan& p : r.plans) n += p.ops.size();
  return n;
}

// `text` written to a file (unlinked: only the descriptor names it).
struct TempFile {
  int fd = -1;
  explicit TempFile(const std::string& text) {
    char name[] = "/tmp/planlint-pieces-XXXXXX";
    fd = ::mkstemp(name);
    REQUIRE(fd >= 0);
    ::unlink(name);
    for (std::size_t off = 0; off < text.size();) {
      const ssize_t n = ::write(fd, text.data() + off, text.size() - off);
      REQUIRE(n > 0);
      off += static_cast<std::size_t>(n);
    }
  }
  ~TempFile() { ::close(fd); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
};

struct Read {
  std::optional<std::string> pieces;  // the file read in pieces, nullopt when left to a whole read
  std::string whole;                  // the bytes read whole
  bool expected = false;              // the scanner read them whole, and they hold an operator
};

Read read_both(const std::string& text, std::size_t piece, double max_bytes = 1e12) {
  Read r;
  bool scanned = false;
  ParseResult whole = parse_query_profile(text, "profile.json", ProfileJsonParser::Scanner, &scanned);
  r.whole = dumped(whole);
  r.expected = scanned && operators(whole) > 0;
  TempFile file(text);
  if (auto p = parse_query_profile_file(file.fd, "profile.json", max_bytes, piece)) r.pieces = dumped(*p);
  return r;
}

// Read in pieces exactly when the scanner vouches for the bytes (and they hold an operator), and
// then the same.
#define CHECK_PIECES(text, piece)                                                           \
  do {                                                                                      \
    const Read r_ = read_both((text), (piece));                                             \
    CHECK_MESSAGE(r_.pieces.has_value() == r_.expected, "piece " << (piece));               \
    if (r_.pieces) CHECK_MESSAGE(*r_.pieces == r_.whole, "differs, piece " << (piece));     \
  } while (0)

bool is_golden(const std::filesystem::path& p) {
  const std::string n = p.filename().string();
  for (const char* suffix : {".parse.json", ".check.json", ".expected.json", ".sarif.json", ".golden.json"})
    if (n.ends_with(suffix)) return true;
  return false;
}

// A profile with line breaks, escapes, a BOM-less start and messages at places: a cycle, a
// subgraphParent that names no node, an expression that does not parse, an unknown version.
const std::string kLines = R"J({"version": "9.9",
 "query": {"id": "q1", "queryText": "select \"x\"\n-- planlint: disable=photon-fallback", "status": "FINISHED",
           "metrics": {"totalTimeMs": 12, "readBytes": 1e3, "resultFromCache": false}},
 "graphs": [{"nodes": [
   {"id": "1", "name": "Scan t", "tag": "PHOTON_SCAN_EXEC", "keyMetrics": {"rowsNum": 10, "durationMs": 5},
    "metadata": [{"key": "IS_PHOTON", "value": "true"},
                 {"key": "FILTERS", "values": ["(a > 1)", "isnotnull(b)", "((("]}],
    "metrics": [{"label": "Number of output rows", "key": "NUMBER_OUTPUT_ROWS", "metricType": "UNKNOWN_TYPE", "value": 10}]},
   {"id": "2", "name": "Filter \u00e9\ud83d\ude00", "tag": "PHOTON_FILTER_EXEC", "stageLinks": [3, "4"], "subgraphParent": "nowhere"},
   {"id": "3", "name": "Project", "tag": "PHOTON_PROJECT_EXEC",
    "metadata": [{"key": "CONDITION", "value": "(a#1 = b#2)"}]}],
  "edges": [{"fromId": "2", "toId": "1"}, {"fromId": "3", "toId": "2"}, {"fromId": "1", "toId": "3"}],
  "stageData": [{"stageId": "3", "status": "COMPLETE", "numTasks": 2}]}]}
)J";

}  // namespace

TEST_CASE("profile in pieces: every corpus profile, in pieces of every size, reads as it reads whole") {
  std::vector<std::filesystem::path> dirs{test::corpus_dir()};
  if (auto shared = test::shared_dir()) dirs.push_back(*shared / "corpus");
  std::size_t files = 0, read = 0;
  for (const auto& dir : dirs) {
    if (!std::filesystem::exists(dir)) continue;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
      if (!e.is_regular_file() || e.path().extension() != ".json" || is_golden(e.path())) continue;
      if (e.file_size() > 20'000'000) continue;
      const std::string text = test::read_file(e.path());
      if (text.find("\"graph") == std::string::npos && text.find("\"query\"") == std::string::npos) continue;
      ++files;
      INFO(e.path().string());
      for (std::size_t piece : {std::size_t{16}, std::size_t{61}, std::size_t{1} << 16}) {
        const Read r = read_both(text, piece);
        CHECK(r.pieces.has_value() == r.expected);
        if (r.pieces) CHECK(*r.pieces == r.whole);
        read += r.pieces.has_value();
      }
    }
  }
  CHECK(files >= 40);
  CHECK(read > 0);
}

TEST_CASE("profile in pieces: line breaks, escapes, BOMs, messages, generated profiles") {
  for (std::size_t piece : {16, 17, 23, 64, 4096}) {
    CHECK_PIECES(kLines, piece);
    CHECK_PIECES("\xEF\xBB\xBF" + kLines, piece);
    CHECK_PIECES(" \r\n\t" + kLines + "\r\n\n", piece);
    CHECK_PIECES(gen::profile_json(200), piece);
    CHECK_PIECES(gen::profile_json(50, true), piece);
  }
  // A string longer than many pieces (the window grows), and one cut at every place near a piece's end.
  std::string long_text = kLines;
  long_text.replace(long_text.find("select"), 6, std::string(100'000, 's'));
  CHECK_PIECES(long_text, 16);
  for (std::size_t pad = 0; pad < 40; ++pad) CHECK_PIECES(std::string(pad, ' ') + kLines, 32);
  // Not read in pieces: nothing but the query, no operators, too deep, not JSON, no export.
  for (const std::string& t : {std::string(R"J({"query": {"id": "q"}, "graphs": []})J"), std::string("{\"graphs\": [{}]}"),
                               std::string(300, '[') + std::string(300, ']'), std::string("{\"graphs\": ["),
                               std::string(R"J({"other": 1})J"), std::string(""), std::string("\xEF\xBB\xBF")}) {
    const Read r = read_both(t, 16);
    CHECK_FALSE(r.pieces.has_value());
    CHECK_FALSE(r.expected);
  }
}

TEST_CASE("profile in pieces: damaged profiles are left to the whole read, unless they read the same") {
  const std::string base = kLines;
  std::mt19937 rng(71);
  const std::string bytes = std::string("\"\\{}[],:0123456789.eE+-utfnlrx /\t\n\r", 36) + std::string("\x00\x7F\x80\xC3\xE0\xED\xFF", 7);
  std::size_t pieces = 0;
  for (int i = 0; i < 600; ++i) {
    std::string t = base;
    const std::size_t at = std::uniform_int_distribution<std::size_t>(0, t.size() - 1)(rng);
    switch (i % 3) {
      case 0: t[at] = bytes[std::uniform_int_distribution<std::size_t>(0, bytes.size() - 1)(rng)]; break;
      case 1: t.erase(at, 1); break;
      default: t.resize(at); break;
    }
    const Read r = read_both(t, 16 + static_cast<std::size_t>(i % 7));
    CHECK_MESSAGE(r.pieces.has_value() == r.expected, "case " << i << ": " << t);
    if (r.pieces) CHECK_MESSAGE(*r.pieces == r.whole, "case " << i << ": " << t);
    pieces += r.pieces.has_value();
  }
  CHECK(pieces > 0);    // a change inside a string or a number keeps the text valid
  CHECK(pieces < 600);  // most do not
}

TEST_CASE("profile in pieces: a file larger than the limit is left to the whole read (which refuses it)") {
  const std::string text = gen::profile_json(20);
  TempFile file(text);
  CHECK_FALSE(parse_query_profile_file(file.fd, "p.json", static_cast<double>(text.size() - 1), 64).has_value());
  CHECK(parse_query_profile_file(file.fd, "p.json", static_cast<double>(text.size()), 64).has_value());
  // The descriptor is the caller's, read from the start each time: again the same.
  auto again = parse_query_profile_file(file.fd, "p.json", 1e12, 1 << 16);
  REQUIRE(again.has_value());
  CHECK(dumped(*again) == dumped(parse_query_profile(text, "p.json")));
}
