// `planlint check --format text` (KeepInput::Lines): a large Query Profile is read in pieces, never
// held whole, and the lines its findings show are fetched from the file when printed
// (FileReport::source): the output is byte for byte the output of the file read whole; a file that
// changed between the read and the print shows its findings without any line of it.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lint/core/report.hpp"
#include "lint/core/source_file.hpp"
#include "lint/engine/check.hpp"
#include "lint/engine/engine.hpp"
#include "lint/output/output.hpp"
#include "tests/support.hpp"
#include "tools/gen/generate.hpp"

using namespace planlint;
namespace fs = std::filesystem;

namespace {

std::string text_of(const std::vector<FileReport>& reports) {
  std::ostringstream out;
  write_text(out, reports, OutputOptions{});
  return out.str();
}

bool is_golden(const fs::path& p) {
  const std::string n = p.filename().string();
  for (const char* suffix : {".parse.json", ".check.json", ".expected.json", ".sarif.json", ".golden.json"})
    if (n.ends_with(suffix)) return true;
  return false;
}

// The corpus's profiles, each padded past kPiecesMinBytes so that it is read in pieces: every line
// moved down (leading line breaks) and blank lines after it; the same with "\r\n" breaks; on one
// line with blanks after it on that line (a line of more than 1 MiB: windows cut on both sides).
std::vector<std::pair<std::string, std::string>> padded_profiles() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e : fs::recursive_directory_iterator(test::corpus_dir())) {
    if (!e.is_regular_file() || e.path().extension() != ".json" || is_golden(e.path())) continue;
    const std::string text = test::read_file(e.path());
    if (text.find("\"graph") == std::string::npos) continue;
    const std::string name = e.path().stem().string();
    out.emplace_back(name + "-moved.json", std::string(2000, '\n') + text + std::string(1'100'000, '\n'));
    std::string crlf;
    for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    out.emplace_back(name + "-crlf.json", std::string(100, '\n') + crlf + std::string(1'100'000, ' ') + "\r\n");
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(text, nullptr, false);
    if (!j.is_discarded()) out.emplace_back(name + "-one-line.json", j.dump() + std::string(1'100'000, ' '));
  }
  out.emplace_back("generated.json", gen::profile_json(3000));
  return out;
}

// `text` written over the file at `p`, its modification time 5 s later than before (a change a
// coarse clock would miss still shows).
void rewrite_later(const fs::path& p, const std::string& text) {
  test::write_file(p, text);
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  const struct timespec times[2] = {{st.st_mtim.tv_sec + 5, 0}, {st.st_mtim.tv_sec + 5, 0}};
  REQUIRE(::utimensat(AT_FDCWD, p.c_str(), times, 0) == 0);
}

}  // namespace

TEST_CASE("text output of a large profile read in pieces: the lines shown are those of the whole read") {
  const test::Scratch scratch("planlint-test-text-pieces");
  std::size_t files = 0, in_pieces = 0, windows = 0, named = 0;
  for (const auto& [name, text] : padded_profiles()) {
    const std::string file_name = name;
    CAPTURE(file_name);
    const fs::path p = scratch.dir / name;
    test::write_file(p, text);
    REQUIRE(text.size() >= kPiecesMinBytes);
    const FileReport whole = check_input(p.string(), Config{}, "", false, KeepInput::Whole);
    const FileReport lines = check_input(p.string(), Config{}, "", false, KeepInput::Lines);
    CHECK(whole.input != nullptr);
    CHECK(whole.source == nullptr);
    const std::string expected = text_of({whole});
    CHECK(text_of({lines}) == expected);
    // Twice: the file is opened again, the lines found again.
    CHECK(text_of({lines}) == expected);
    ++files;
    if (lines.input == nullptr && lines.error.empty()) {
      CHECK(lines.source != nullptr);
      ++in_pieces;
      windows += expected.find("^") != std::string::npos;
      named += expected.find("= operator:") != std::string::npos;
    }
  }
  CHECK(files > 60);
  CHECK(in_pieces > 60);
  // Both kinds of source shown: a window of the line with carets, and the operator named.
  CHECK(windows >= 3);
  CHECK(named >= 10);
}

TEST_CASE("text output of a profile read in pieces: several files in one output, and --format json keeps no source") {
  const test::Scratch scratch("planlint-test-text-pieces-many");
  std::vector<FileReport> whole, lines;
  for (std::size_t i = 0; i < 3; ++i) {
    const fs::path p = scratch.dir / ("p" + std::to_string(i) + ".json");
    test::write_file(p, std::string(i * 7, '\n') + gen::profile_json(2000 + i * 100, i == 1));
    whole.push_back(check_input(p.string(), Config{}, "", false, KeepInput::Whole));
    lines.push_back(check_input(p.string(), Config{}, "", false, KeepInput::Lines));
    CHECK(lines.back().source != nullptr);
    const FileReport nothing = check_input(p.string(), Config{}, "", false, KeepInput::Nothing);
    CHECK(nothing.input == nullptr);
    CHECK(nothing.source == nullptr);
  }
  CHECK(text_of(lines) == text_of(whole));
}

TEST_CASE("text output of a profile read in pieces that changed before the print: its findings without its lines") {
  const test::Scratch scratch("planlint-test-text-pieces-changed");
  const std::string original = test::read_file(test::corpus_dir() / "rules/slow-phase/trigger-profile-compilation.json");
  const std::string text = std::string(2000, '\n') + original + std::string(1'100'000, '\n');
  const fs::path p = scratch.dir / "profile.json";
  test::write_file(p, text);
  const FileReport whole = check_input(p.string(), Config{}, "", false, KeepInput::Whole);
  FileReport without = whole;
  without.input.reset();
  const std::string with_lines = text_of({whole});
  const std::string no_lines = text_of({without});
  REQUIRE(with_lines != no_lines);  // the finding shows a line
  REQUIRE(with_lines.find("SELECT order_id") != std::string::npos);

  const FileReport lines = check_input(p.string(), Config{}, "", false, KeepInput::Lines);
  REQUIRE(lines.source != nullptr);
  CHECK(text_of({lines}) == with_lines);
  // The same bytes with one letter of the query changed, and a later modification time: the
  // finding is printed as if the input were not kept, never with the new line.
  std::string changed = text;
  changed.replace(changed.find("SELECT order_id"), 6, "select");
  rewrite_later(p, changed);
  const std::string after = text_of({lines});
  CHECK(after == no_lines);
  CHECK(after.find("select order_id") == std::string::npos);
  // Removed: the same.
  fs::remove(p);
  CHECK(text_of({lines}) == no_lines);
}

TEST_CASE("text output of a large explain plan: its lines fetched from the file, its outline given back") {
  // KeepInput::Lines on explain text of kGiveBackMinBytes or more: read whole, linted with its
  // outline given back (parser/common/input_pages.hpp), not kept: the lines its findings show come
  // from the file (FileReport::source), byte for byte those of the input kept whole.
  const test::Scratch scratch("planlint-test-text-explain");
  const std::string big = gen::formatted_plan(12000);
  REQUIRE(big.size() >= kGiveBackMinBytes);
  std::string crlf;
  for (char c : gen::formatted_plan(9000, 3)) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const std::vector<std::pair<std::string, std::string>> inputs{
      {"big.txt", big}, {"moved.txt", std::string(3000, '\n') + big}, {"crlf.txt", crlf},
      {"two.txt", big + "\n" + gen::formatted_plan(8000, 5)}};
  std::vector<FileReport> all_whole, all_lines;
  for (const auto& input : inputs) {
    const std::string name = input.first;
    CAPTURE(name);
    const fs::path p = scratch.dir / name;
    test::write_file(p, input.second);
    for (bool listed : {false, true}) {
      const FileReport whole = check_input(p.string(), Config{}, "", listed, KeepInput::Whole);
      const FileReport lines = check_input(p.string(), Config{}, "", listed, KeepInput::Lines);
      REQUIRE(whole.input != nullptr);
      CHECK(lines.input == nullptr);
      REQUIRE(lines.source != nullptr);
      const std::string expected = text_of({whole});
      CHECK(expected.find(" | ") != std::string::npos);  // lines are shown
      CHECK(text_of({lines}) == expected);
      all_whole.push_back(whole);
      all_lines.push_back(lines);
    }
  }
  CHECK(text_of(all_lines) == text_of(all_whole));
  // A small plan is kept whole, as before.
  const fs::path small = scratch.dir / "small.txt";
  test::write_file(small, gen::formatted_plan(200));
  const FileReport lines = check_input(small.string(), Config{}, "", false, KeepInput::Lines);
  CHECK(lines.input != nullptr);
  // Changed after the check: its findings without its lines, never the new text.
  const fs::path p = scratch.dir / "big.txt";
  const FileReport before = check_input(p.string(), Config{}, "", false, KeepInput::Lines);
  FileReport without = check_input(p.string(), Config{}, "", false, KeepInput::Whole);
  without.input.reset();
  const std::string no_lines = text_of({without});
  REQUIRE(text_of({before}) != no_lines);
  std::string changed = big;
  for (std::size_t at = changed.find("Project"); at != std::string::npos; at = changed.find("Project", at + 7))
    changed.replace(at, 7, "PROJECT");
  rewrite_later(p, changed);
  const std::string after = text_of({before});
  CHECK(after == no_lines);
  CHECK(after.find("PROJECT") == std::string::npos);
}
