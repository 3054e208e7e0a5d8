// Substring test shared by the readers' fact code (explain text, Query Profiles, operator names).
#pragma once

#include <string_view>

namespace planlint {

inline bool contains(std::string_view s, std::string_view w) noexcept { return s.find(w) != std::string_view::npos; }

}  // namespace planlint
