// The Query Profile reader's entry point.
#pragma once

#include <string>
#include <string_view>

#include "model/plan.hpp"

namespace planlint {

// Databricks Query Profile JSON export.
ParseResult parse_query_profile(std::string_view text, const std::string& path);

}  // namespace planlint
