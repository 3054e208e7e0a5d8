// lint/engine: `planlint check` lints an input read whole plan by plan (LintOptions::lint_each_plan):
// each plan is dropped once its findings are made, and the findings, messages and errors are those
// of linting the plans kept (issue 37 item 3: memory bounded by the plan, not the file).
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "lint/core/report.hpp"
#include "lint/engine/engine.hpp"
#include "model/read_check.hpp"
#include "parser/explain/explain.hpp"
#include "tests/support.hpp"
#include "tools/gen/generate.hpp"

using namespace planlint;
namespace fs = std::filesystem;

namespace {

// What a front end can see of a lint: every finding as the json format writes it, the reader's
// messages, the error, the format, the operators read.
std::string seen(const Linted& l) {
  nlohmann::ordered_json j;
  j["error"] = l.error;
  j["format"] = std::string(to_string(l.result.parse.format));
  j["suppressed"] = l.suppressed;
  j["operators"] = operator_count(l.result.parse);
  j["read_nothing"] = read_nothing(l.result.parse);
  for (const auto& d : l.result.diagnostics) {
    nlohmann::ordered_json f = diagnostic_to_json(d);
    f["plan_index"] = d.plan_index;
    j["findings"].push_back(std::move(f));
  }
  for (const auto& m : l.result.parse.messages) {
    nlohmann::ordered_json f = message_to_json(m);
    f["error"] = m.severity == MessageSeverity::Error;
    j["messages"].push_back(std::move(f));
  }
  return j.dump(1);
}

// Each input (name, text) written to a file in `dir` and linted as `check` lints it, listed by a
// folder walk and not, keeping its input whole (`kept`) and keeping `keep` of it (`other`).
using NamedInputs = std::vector<std::pair<std::string, std::string>>;
void lint_kept_and(const fs::path& dir, const NamedInputs& inputs, KeepInput keep,
                   const std::function<void(const std::string& name, const std::string& text, const Linted& kept,
                                            const Linted& other)>& check) {
  for (const auto& input : inputs) {
    const std::string& name = input.first;
    CAPTURE(name);
    const fs::path p = dir / name;
    test::write_file(p, input.second);
    for (bool listed : {false, true}) {
      LintRequest request;
      request.path = p.string();
      request.listed_regular = listed;
      const Linted kept = lint_input(request, Config{}, lint_options(LintMode::Check));
      request.keep = keep;
      check(name, input.second, kept, lint_input(request, Config{}, lint_options(LintMode::Check)));
    }
  }
}

Linted lint_path(const fs::path& p, bool each_plan) {
  LintRequest request;
  request.path = p.string();
  LintOptions options = lint_options(LintMode::Show);  // finish, refuse non-plans, plans kept
  if (each_plan) options = lint_options(LintMode::Check);
  return lint_input(request, Config{}, options);
}

}  // namespace

TEST_CASE("lint_options: check lints inputs read whole plan by plan, the others keep their plans") {
  CHECK(lint_options(LintMode::Check).lint_each_plan);
  CHECK_FALSE(lint_options(LintMode::Show).lint_each_plan);
  CHECK_FALSE(lint_options(LintMode::Editor).lint_each_plan);
  CHECK_FALSE(lint_options(LintMode::Inspect).lint_each_plan);
  CHECK_FALSE(lint_options(LintMode::Test).lint_each_plan);
}

TEST_CASE("lint_each_plan: the same findings, messages and errors as the plans kept, on every corpus file") {
  std::size_t files = 0, several = 0;
  for (const auto& e : fs::recursive_directory_iterator(test::corpus_dir())) {
    if (!e.is_regular_file()) continue;
    const fs::path& p = e.path();
    const std::string ext = p.extension().string();
    if (ext != ".txt" && ext != ".json" && ext != ".explain" && ext != ".plan") continue;
    CAPTURE(p.string());
    const Linted kept = lint_path(p, false);
    const Linted each = lint_path(p, true);
    CHECK(seen(each) == seen(kept));
    ++files;
    if (!each.error.empty()) continue;
    // The plans are gone once linted, and counted.
    CHECK(each.result.parse.plans.empty());
    CHECK(each.result.parse.handed_over_plans == kept.result.parse.plans.size());
    if (kept.result.parse.plans.size() > 1) ++several;
  }
  CHECK(files > 100);
  CHECK(several > 3);  // inputs of several plans were among them
}

TEST_CASE("parse_explain_text with each_plan: the plans handed over one at a time are the plans kept") {
  // Reader messages in the first plan (handed over while the text is read) and in the last one.
  const std::string cut = "== Physical Plan ==\nTruncated plan of 5000 characters\n\n";
  const std::string text = cut + gen::formatted_plans(200000, 12) + cut;
  const auto input = std::make_shared<const std::string>(text);
  const ParseResult kept = parse_explain_text(*input, "x.txt", input);
  std::vector<std::string> names;
  std::vector<std::size_t> ops;
  std::vector<InputFormat> formats;
  std::vector<std::optional<bool>> aqe;
  std::size_t alive = 0, most_alive = 0;
  const std::function<void(Plan&&)> each = [&](Plan&& p) {
    ++alive;
    most_alive = std::max(most_alive, alive);
    const Plan one = std::move(p);
    names.emplace_back(one.name);
    ops.push_back(one.ops.size());
    formats.push_back(one.format);
    aqe.push_back(one.facts.aqe);  // facts filled before the plan is handed over
    --alive;
  };
  const ParseResult handed = parse_explain_text(*input, "x.txt", input, &each);
  REQUIRE(kept.plans.size() > 10);
  CHECK(handed.plans.empty());
  CHECK(handed.handed_over_plans == kept.plans.size());
  CHECK(most_alive == 1);
  CHECK(handed.format == kept.format);
  CHECK(operator_count(handed) == operator_count(kept));
  REQUIRE(names.size() == kept.plans.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    CHECK(names[i] == std::string(kept.plans[i].name));
    CHECK(ops[i] == kept.plans[i].ops.size());
    CHECK(formats[i] == kept.plans[i].format);
    CHECK(aqe[i] == kept.plans[i].facts.aqe);
  }
  REQUIRE(handed.messages.size() == kept.messages.size());
  for (std::size_t i = 0; i < kept.messages.size(); ++i) CHECK(handed.messages[i].message == kept.messages[i].message);
  CHECK(kept.messages.size() == 2);
}

TEST_CASE("KeepInput::Nothing: a large Query Profile is read in pieces, with the findings of the whole read") {
  // LintRequest::keep Nothing (`planlint check` with an output format that shows no source
  // lines): a profile of kPiecesMinBytes or more is never held whole (Linted::input stays null);
  // what is seen is what reading it whole shows. A damaged one, or one without operators, is read
  // whole after all, with the same result.
  const test::Scratch scratch("planlint-test-pieces");
  std::string big = gen::profile_json(2000);
  // A directive-like text in a JSON string is no directive, whichever way the file is read.
  big.replace(big.find("select 1"), 8, "select 1 -- planlint: disable=photon-fallback");
  REQUIRE(big.size() >= kPiecesMinBytes);
  std::string no_ops = R"J({"query": {"id": "q", "queryText": ")J" + std::string(kPiecesMinBytes, 'x') + R"J("}, "graphs": []})J";
  const NamedInputs inputs{{"big.json", big}, {"cut.json", big.substr(0, big.size() - 100)}, {"none.json", no_ops},
                           {"small.json", gen::profile_json(20)}};
  lint_kept_and(scratch.dir, inputs, KeepInput::Nothing,
                [](const std::string& name, const std::string&, const Linted& kept, const Linted& pieces) {
                  CHECK(seen(pieces) == seen(kept));
                  CHECK(kept.input != nullptr);
                  // Read in pieces exactly when it is large and its reader vouched for it.
                  CHECK((pieces.input == nullptr) == (name == "big.json"));
                });
  // Every operator was read and linted.
  LintRequest request;
  request.path = (scratch.dir / "big.json").string();
  request.keep = KeepInput::Nothing;
  const Linted pieces = lint_input(request, Config{}, lint_options(LintMode::Check));
  CHECK(pieces.error.empty());
  CHECK(pieces.result.parse.handed_over_ops == 2000);
}

TEST_CASE("KeepInput::Nothing: a large formatted plan's outline is given back, with the findings of the whole read") {
  // KeepInput::Nothing: the engine owns the input's buffer and reads nothing of it once
  // linted, so the explain reader gives back the pages of a large outline (kGiveBackMinBytes) once
  // read (parser/common/input_pages.hpp). What is seen is what keeping the input shows: the findings,
  // the directives (found before the parse), the messages.
  const test::Scratch scratch("planlint-test-give-back");
  const std::string big = gen::formatted_plan(12000);
  const std::size_t first = big.find('\n') + 1, outline_end = big.find("\n\n");
  REQUIRE(outline_end - first >= kGiveBackMinBytes + 65536);
  LintRequest probe;
  probe.path = (scratch.dir / "probe.txt").string();
  test::write_file(probe.path, big);
  const Linted plain = lint_input(probe, Config{}, lint_options(LintMode::Check));
  REQUIRE_FALSE(plain.result.diagnostics.empty());
  const std::string rule = plain.result.diagnostics.front().rule;
  std::string damaged = big;
  damaged.insert(outline_end / 2 + big.substr(outline_end / 2).find('\n') + 1, "@@ not a tree line @@\n");
  const NamedInputs inputs{{"big.txt", big},
                           {"directive.txt", "-- planlint: disable=" + rule + "\n" + big},
                           {"unused-directive.txt", "# planlint: disable=no-such-rule\n" + big},
                           {"two.txt", big + "\n" + big},
                           {"damaged.txt", damaged},
                           {"small.txt", gen::formatted_plan(200)}};
  const std::size_t outline = outline_end - first;
  lint_kept_and(scratch.dir, inputs, KeepInput::Nothing,
                [outline](const std::string& name, const std::string& text, const Linted& kept, const Linted& given) {
                  CHECK(seen(given) == seen(kept));
                  REQUIRE(kept.input != nullptr);
                  REQUIRE(given.input != nullptr);
                  CHECK(*kept.input == text);
                  // The pages given back read as zeros: the whole pages of each outline of a large input.
                  std::size_t zeros = 0;
                  for (char c : *given.input) zeros += c == '\0';
                  if (name == "small.txt" || name == "damaged.txt") CHECK(zeros == 0);
                  else CHECK(zeros >= (name == "two.txt" ? 2 : 1) * (outline - 2 * 65536));
                });
  const Linted directive = [&] {
    LintRequest request;
    request.path = (scratch.dir / "directive.txt").string();
    request.keep = KeepInput::Nothing;
    return lint_input(request, Config{}, lint_options(LintMode::Check));
  }();
  CHECK(directive.suppressed > 0);
}

TEST_CASE("KeepInput::Nothing: a large plan read from a FIFO is given back too; KeepInput::Lines keeps it") {
  // Standard input, a pipe or a FIFO is read once into the engine's own buffer, as a file is: with
  // nothing of it kept, the explain reader gives back a large outline's pages once read. Its lines
  // cannot be fetched again, so KeepInput::Lines keeps the input whole.
  const test::Scratch scratch("planlint-test-give-back-fifo");
  const std::string big = gen::formatted_plan(12000) + "\n-- planlint: disable=no-such-rule\n";
  const fs::path file = scratch.dir / "big.txt";
  test::write_file(file, big);
  LintRequest from_file;
  from_file.path = file.string();
  const Linted kept = lint_input(from_file, Config{}, lint_options(LintMode::Check));
  REQUIRE(kept.input != nullptr);
  const fs::path fifo = scratch.dir / "plan.fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  for (KeepInput keep : {KeepInput::Nothing, KeepInput::Lines, KeepInput::Whole}) {
    CAPTURE(static_cast<int>(keep));
    std::thread writer([&] {
      const int fd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);  // waits for the reader below
      if (fd < 0) return;
      for (std::size_t off = 0; off < big.size();) {
        const ssize_t n = ::write(fd, big.data() + off, big.size() - off);
        if (n <= 0) break;
        off += static_cast<std::size_t>(n);
      }
      ::close(fd);
    });
    LintRequest request;
    request.path = fifo.string();
    request.keep = keep;
    const Linted given = lint_input(request, Config{}, lint_options(LintMode::Check));
    writer.join();
    CHECK(given.error.empty());
    CHECK(seen(given) == seen(kept));  // the same findings, messages and unused directive
    REQUIRE(given.input != nullptr);
    REQUIRE(given.input->size() == big.size());
    std::size_t zeros = 0;
    for (char c : *given.input) zeros += c == '\0';
    if (keep == KeepInput::Nothing) CHECK(zeros > kGiveBackMinBytes);
    else CHECK(*given.input == big);
  }
}
