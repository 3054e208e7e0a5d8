// The Query Profile reader's entry point.
#pragma once

#include <string>
#include <string_view>

#include "model/plan.hpp"

namespace planlint {

// What the reader says about Query Profiles (model/plan.hpp): JSON, each operator at its node object.
inline constexpr InputTraits kQueryProfileTraits{
    .display_name = "Query Profile", .json = true, .operator_at_node_start = true};

// Databricks Query Profile JSON export.
ParseResult parse_query_profile(std::string_view text, const std::string& path);

}  // namespace planlint
