// The reader interface: every input format is one folder of parser/ that provides one Reader, and
// parser/registry/registry.cpp lists them. Adding a format = a folder + one line in that list
// (docs/architecture.md). A reader builds plans in the model (model/plan.hpp) and its own
// messages; it never decides what is wrong with a plan.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/plan.hpp"

namespace planlint {

// Receives each plan as soon as the reader has it (streaming readers, and ReadOptions::each_plan).
using PlanSink = std::function<void(Plan&&)>;

struct ReadOptions {
  std::optional<long long> execution;  // event logs: only this SQL execution id (`--execution N`)
  // The input's owner, when the caller shares it (the text given to `parse` lies inside it): plans
  // view its bytes instead of copying them, and keep it alive. Unset: plans copy what they keep.
  std::shared_ptr<const std::string> input;
  // Set: a reader that reads a buffer plan by plan (explain text) hands each plan to it as soon as
  // the plan is finished, in order, instead of keeping it in the result
  // (ParseResult::handed_over_plans counts them), so that only one plan is alive at a time. A
  // reader that cannot ignores it and keeps its plans.
  PlanSink each_plan;
};

// How many first bytes detection looks at.
inline constexpr std::size_t kDetectBytes = 4096;

struct Reader {
  std::string_view name;  // "event-log", "query-profile", "explain-text"
  // What detection reports for this reader (explain text: Unknown, its parser refines the mode).
  InputFormat format = InputFormat::Unknown;
  // What front ends need to know about inputs of this kind (model/plan.hpp): its display name, is
  // it JSON, are its plans SQL executions, ... The reader's results carry the same
  // (ParseResult::traits), so front ends ask them instead of branching on InputFormat.
  InputTraits traits;
  // True when the input starts like this format. `head` is the first bytes of the input (up to
  // kDetectBytes, or the whole buffer), byte-order mark and leading blank lines included.
  bool (*detect)(std::string_view head) = nullptr;
  // Parses a whole buffer.
  ParseResult (*parse)(std::string_view text, const std::string& path, const ReadOptions& options) = nullptr;
  // Formats whose large files can be read in pieces (a Query Profile): reads the regular file open
  // as `fd` (from its first byte; the descriptor stays the caller's) without holding it whole, for
  // a caller that needs nothing of the input's bytes afterwards (the plans copy what they keep).
  // The result is what `parse` gives for the file's bytes, and holds at least one operator; nullopt
  // when the caller must read the file whole and call `parse` instead (bytes this way does not
  // vouch for: damaged JSON, no operators, ...; a read error; more than `max_bytes`).
  // nullptr: read whole.
  std::optional<ParseResult> (*parse_file)(int fd, const std::string& path, double max_bytes) = nullptr;
  // Formats that stream: reads `in` a plan at a time and hands each plan to `sink` (the result then
  // holds only the messages). nullptr for formats that are read whole.
  ParseResult (*stream)(std::istream& in, const std::string& path, const ReadOptions& options,
                        const PlanSink& sink) = nullptr;
  // Inputs the reader opens itself from a path (a directory of rolling files, a compressed file):
  // `claims` says whether `path` is one, `read` reads it (streamed to `sink` when one is given, else
  // the plans are in the result). nullptr when the reader only takes bytes.
  bool (*claims)(const std::filesystem::path& path) = nullptr;
  // What `claims` answers for a regular file whose first bytes (up to kDetectBytes) are `head`:
  // so that a caller that opened the file already need not open it again to ask.
  bool (*claims_file)(std::string_view head) = nullptr;
  ParseResult (*read)(const std::filesystem::path& path, const std::string& display, const ReadOptions& options,
                      const PlanSink& sink) = nullptr;
};

// Every reader, in detection order; the last one (explain text) accepts any input.
const std::vector<Reader>& readers();

// The first reader whose detect() accepts `head`.
const Reader& reader_for(std::string_view head);

// The reader that opens `path` itself (Reader::claims), or nullptr.
const Reader* reader_claiming(const std::filesystem::path& path);
// The reader that opens the regular file `path` itself, asked from its first bytes `head` (up to
// kDetectBytes) where the reader can answer from them (Reader::claims_file): the answer of
// reader_claiming(path), or nullptr.
// (`path` is made a std::filesystem::path only for a reader that must be asked by it.)
const Reader* reader_claiming_file(const std::string& path, std::string_view head);

}  // namespace planlint
