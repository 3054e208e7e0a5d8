// The parser stage's face: detect the input format and run the matching reader. Each reader turns
// one input into a ParseResult holding plans in the shared model (model/plan.hpp) plus its own
// messages; none of them decides what is wrong with a plan. A single reader's entry points are in
// its own folder's header (parser/explain/explain.hpp, parser/profile/profile.hpp,
// parser/eventlog/eventlog.hpp, parser/history_server/history_server.hpp).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/plan.hpp"
#include "parser/registry/detect.hpp"

namespace planlint {

// detect_format + the matching reader.
ParseResult parse_input(std::string_view text, const std::string& path);
// The same on a shared input: the plans view its bytes instead of copying them. `execution`: only
// that SQL execution of an event log or History Server answer (ReadOptions::execution).
ParseResult parse_input(std::shared_ptr<const std::string> input, const std::string& path,
                        std::optional<long long> execution = std::nullopt);

}  // namespace planlint
