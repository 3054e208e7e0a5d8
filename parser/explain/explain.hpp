// The explain-text reader's entry point.
#pragma once

#include <functional>
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
// With `each_plan`, every plan is handed to it once finished (its facts filled) instead of being
// kept in the result (ParseResult::handed_over_plans): only one plan is alive at a time.
ParseResult parse_explain_text(std::string_view text, const std::string& path,
                               std::shared_ptr<const std::string> input = {},
                               const std::function<void(Plan&&)>* each_plan = nullptr);

}  // namespace planlint
