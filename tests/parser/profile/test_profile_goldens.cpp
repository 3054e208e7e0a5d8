// Goldens: `planlint parse --format json corpus/profile/<case>.json` must equal
// corpus/profile/<case>.parse.json (profiles we wrote by hand, one per variant). Regenerate with
// PLANLINT_UPDATE_GOLDENS=1, then READ the diff before committing.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support.hpp"

namespace fs = std::filesystem;

namespace {

bool golden_profile(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.size() > 11 && name.compare(name.size() - 11, 11, ".parse.json") == 0;
}

}  // namespace

TEST_CASE("corpus/profile: parse goldens through the planlint executable") {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(planlint::test::corpus_dir() / "profile"))
    if (e.path().extension() == ".json" && !golden_profile(e.path())) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 8);
  for (const auto& f : files) {
    std::string rel = "corpus/profile/" + f.filename().string();
    INFO(rel);
    auto r = planlint::test::run_planlint("parse --format json '" + rel + "'");
    fs::path golden = f;
    golden.replace_extension(".parse.json");
    planlint::test::check_golden(golden, r.out);
    bool has_error = r.out.find("\"severity\": \"error\"") != std::string::npos;
    CHECK(r.exit_code == (has_error ? 1 : 0));
    CHECK(r.out.find("\"format\": \"query-profile\"") != std::string::npos);
  }
}

TEST_CASE("planlint parse on profiles: detected format, located errors and warnings") {
  auto bad = planlint::test::run_planlint("parse corpus/profile/malformed-truncated.json", true);
  CHECK(bad.exit_code == 1);
  CHECK(bad.out.find("corpus/profile/malformed-truncated.json:25:39: error: invalid JSON: syntax error while parsing "
                     "object - unexpected end of input; expected '}'") != std::string::npos);
  auto cycle = planlint::test::run_planlint("parse corpus/profile/cycle-and-dangling-edge.json", true);
  CHECK(cycle.exit_code == 0);
  CHECK(cycle.out.find("corpus/profile/cycle-and-dangling-edge.json:26:9: warning: edge from node '3' to node '2' "
                       "closes a cycle; the edge is ignored") != std::string::npos);
  auto none = planlint::test::run_planlint("parse corpus/profile/no-graphs.json", true);
  CHECK(none.exit_code == 0);
  CHECK(none.out.find("the export holds no plan (graphs missing); query-level facts only") != std::string::npos);
  auto text = planlint::test::run_planlint("parse corpus/profile/v12-photon-broadcast-join.json");
  CHECK(text.out.find("graph 0 (query-profile, 14 operators, AQE)") != std::string::npos);
  CHECK(text.out.find("PhotonBroadcastHashJoin (532) [join photon Inner BuildRight") != std::string::npos);
}
