// The explain-text reader's entry point.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "model/plan.hpp"

namespace planlint {

// What the reader says about explain text (model/plan.hpp), every mode and the Photon Explanation.
inline constexpr InputTraits kExplainTextTraits{.display_name = "explain text"};

// Explain text in any mode (formatted, default, extended, cost), with paste damage repaired.
// Several plans in one text give several Plans. When `input` is given, `text` lies inside it and
// the plans view its bytes instead of copying them (and keep it alive).
ParseResult parse_explain_text(std::string_view text, const std::string& path,
                               std::shared_ptr<const std::string> input = {});

}  // namespace planlint
