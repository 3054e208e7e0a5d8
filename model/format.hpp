// Number formatting shared by the model's walkers, the rules' messages and evidence, and every
// output format: one spelling of a size, a count or a duration everywhere.
#pragma once

#include <string>

namespace planlint {

std::string format_bytes(double bytes);     // "1.5 GiB"
std::string format_count(double n);         // "1,234,567"
std::string format_millis(double ms);       // "1.2 s", "3 min 20 s"
std::string format_percent(double share);   // 0.42 -> "42%"
std::string format_decimal(double v);       // "2.5" (one decimal)

}  // namespace planlint
