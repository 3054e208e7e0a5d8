// The reader interface and its registry (parser/registry/reader.hpp): one list of readers, one
// detection from the first bytes, and one Photon Explanation parser for explain text and profiles.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "parser/common/photon.hpp"
#include "parser/explain/explain.hpp"
#include "parser/registry/parse.hpp"
#include "parser/registry/reader.hpp"
#include "tests/support.hpp"

using namespace planlint;

TEST_CASE("readers: one registry list, explain text last") {
  const auto& all = readers();
  std::vector<std::string> names;
  for (const Reader& r : all) {
    names.emplace_back(r.name);
    const bool has_detect = r.detect != nullptr, has_parse = r.parse != nullptr;
    const bool claims_and_reads = (r.claims == nullptr) == (r.read == nullptr);
    CHECK(has_detect);
    CHECK(has_parse);
    CHECK(claims_and_reads);
  }
  CHECK(names == std::vector<std::string>{"event-log", "history-server", "query-profile", "explain-text"});
  const bool event_logs_stream = all.front().stream != nullptr;
  CHECK(event_logs_stream);
  CHECK(all.back().detect("anything at all"));
}

TEST_CASE("readers: detection from the first bytes") {
  CHECK(reader_for(R"({"Event":"SparkListenerLogStart","Spark Version":"3.5.1"})" "\n").name == "event-log");
  CHECK(reader_for("\xEF\xBB\xBF\n  {\"Event\":\"SparkListenerApplicationStart\"}").name == "event-log");
  CHECK(reader_for(std::string("\x28\xB5\x2F\xFD", 4) + "zstd frame").name == "event-log");
  CHECK(reader_for("{\n  \"graphs\": []\n}").name == "query-profile");
  CHECK(reader_for("== Physical Plan ==\n* Project (2)\n").name == "explain-text");
  CHECK(reader_for("").name == "explain-text");
  CHECK(detect_format("{\"graphs\": []}") == InputFormat::QueryProfile);
  CHECK(detect_format("{\"Event\":\"x\"}") == InputFormat::EventLog);
  CHECK(detect_format("AdaptiveSparkPlan isFinalPlan=true") == InputFormat::Unknown);
}

TEST_CASE("readers: detect_format and parse_input look at the first kDetectBytes only, as the lint engine does") {
  // A notebook marker past the first kDetectBytes: the lint engine never sees it, so `parse` must
  // not either (it used to search the whole input and could pick another reader than `check`).
  const std::string text = "{\"graphs\": [], \"pad\": \"" + std::string(2 * kDetectBytes, 'x') + "\", \"cell_type\": \"code\"}";
  REQUIRE(text.find("\"cell_type\"") > kDetectBytes);
  CHECK(reader_for(std::string_view(text).substr(0, kDetectBytes)).name == "query-profile");
  CHECK(detect_format(text) == InputFormat::QueryProfile);
  CHECK(parse_input(text, "x.json").format == InputFormat::QueryProfile);
  // Within the first bytes the marker still hands the notebook to the explain-text reader.
  CHECK(detect_format("{\"cell_type\": \"code\", \"outputs\": []}") == InputFormat::Unknown);
}

TEST_CASE("readers: every corpus input is parsed by the reader detection picks") {
  for (const char* rel : {"eventlog/multi-exec.eventlog", "examples/orders-by-region.explain.txt"}) {
    CAPTURE(rel);
    std::string text = test::read_file(test::corpus_dir() / rel);
    ParseResult whole = parse_input(text, rel);
    ParseResult direct = reader_for(text).parse(text, rel, ReadOptions{});
    CHECK(whole.plans.size() == direct.plans.size());
    CHECK_FALSE(whole.plans.empty());
  }
}

namespace {
const char* const kPhotonTabs =
    "== Photon Explanation ==\n"
    "Photon does not fully support the query because:\n"
    "\tUDF(name#2964) is not supported:\n"
    "\t\tThe expression `scalaudf` is currently unimplemented.\n"
    "Reference node:\n"
    "\tProject [id#2963L, UDF(name#2964) AS clean_name#2989]\n";
}  // namespace

TEST_CASE("photon explanation: one parser, the same result from a profile string and from explain text") {
  PhotonExplanation from_profile;
  parse_photon_explanation(kPhotonTabs, from_profile);
  CHECK(from_profile.present);
  CHECK_FALSE(from_profile.fully_supported);
  REQUIRE(from_profile.reasons.size() == 1);
  CHECK(from_profile.reasons[0] == "UDF(name#2964) is not supported:\nThe expression `scalaudf` is currently unimplemented.");
  CHECK(from_profile.reference_nodes == std::vector<std::string>{"Project [id#2963L, UDF(name#2964) AS clean_name#2989]"});

  // The same section at the end of an explain plan: the explain reader finds it as a trailer.
  std::string plan = std::string("== Physical Plan ==\n* Project (2)\n+- * Scan parquet db.t (1)\n\n") + kPhotonTabs;
  ParseResult r = parse_explain_text(plan, "p.txt");
  REQUIRE_FALSE(r.plans.empty());
  const PhotonExplanation& from_explain = r.plans.back().photon;
  CHECK(from_explain.present);
  CHECK(from_explain.fully_supported == from_profile.fully_supported);
  CHECK(from_explain.reasons == from_profile.reasons);
  CHECK(from_explain.reference_nodes == from_profile.reference_nodes);

  PhotonExplanation full;
  parse_photon_explanation("== Photon Explanation ==\nThe query is fully supported by Photon.\n", full);
  CHECK(full.fully_supported);
  CHECK(full.reasons.empty());
}

TEST_CASE("readers: a shared input is viewed, not copied, and lives as long as its plans") {
  const std::string plan_text =
      "== Physical Plan ==\n"
      "*(1) Project [id#1]\n"
      "+- *(1) Filter (isnotnull(id#1) AND (id#1 > 5))\n"
      "   +- *(1) ColumnarToRow\n"
      "      +- FileScan parquet db.t[id#1] Batched: true, DataFilters: [isnotnull(id#1), (id#1 > 5)], "
      "Format: Parquet, Location: InMemoryFileIndex[file:/data/t], PartitionFilters: [], "
      "PushedFilters: [IsNotNull(id), GreaterThan(id,5)], ReadSchema: struct<id:int>\n";
  auto input = std::make_shared<const std::string>(plan_text);
  const char* begin = input->data();
  const char* end = begin + input->size();
  auto inside = [&](std::string_view s) { return s.data() >= begin && s.data() + s.size() <= end; };

  ParseResult shared = parse_input(input, "t.txt");
  REQUIRE(shared.plans.size() == 1);
  const Plan& p = shared.plans[0];
  REQUIRE(p.ops.size() == 4);
  // Labels and scan arguments are printed as they are: views into the input.
  for (const Operator& op : p.ops) CHECK(inside(op.label.view()));
  const Operator* scan = nullptr;
  for (const Operator& op : p.ops)
    if (op.kind == OpKind::Scan) scan = &op;
  REQUIRE(scan != nullptr);
  CHECK(inside(scan->arguments.view()));
  // The plan holds the input: dropping the caller's pointer leaves the views valid.
  CHECK(input.use_count() > 1);
  input.reset();
  CHECK(p.ops[0].label == "Project [id#1]");

  // A plain view is copied: the plan must not point into a buffer it does not hold.
  std::string buffer = plan_text;
  ParseResult copied = parse_input(std::string_view(buffer), "t.txt");
  REQUIRE(copied.plans.size() == 1);
  const char* b = buffer.data();
  for (const Operator& op : copied.plans[0].ops) {
    const char* d = op.label.view().data();
    CHECK((d < b || d >= b + buffer.size()));
  }
  buffer.assign(buffer.size(), 'x');
  CHECK(copied.plans[0].ops[0].label == "Project [id#1]");
  for (std::size_t i = 0; i < p.ops.size(); ++i) CHECK(copied.plans[0].ops[i].label == p.ops[i].label);
}

TEST_CASE("readers: a null shared input reads as the empty input") {
  ParseResult none = parse_input(std::shared_ptr<const std::string>(), "none.txt");
  ParseResult empty = parse_input(std::string_view(), "none.txt");
  CHECK(none.plans.size() == empty.plans.size());
  CHECK(none.messages.size() == empty.messages.size());
  CHECK(none.format == empty.format);
}
