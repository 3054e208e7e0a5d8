// Number formatting shared by the model's walkers, the rules' messages and evidence, and every
// output format: one spelling of a size, a count or a duration everywhere.
#pragma once

#include <cstdint>
#include <string>

namespace planlint {

// How many decimals a percent keeps: none ("42%"), one ("42.5%"), or none from 1% up and two
// below it, with "<0.01%" for a share too small to show ("0.25%").
enum class PercentDigits : std::uint8_t { Whole, One, Small };

std::string format_bytes(double bytes);     // "1.5 GiB"
std::string format_count(double n);         // "1,234,567"
std::string format_millis(double ms);       // "1.2 s", "3 min 20 s"
std::string format_percent(double share, PercentDigits digits = PercentDigits::Whole);  // 0.42 -> "42%"
std::string format_decimal(double v);       // "2.5" (one decimal)
std::string format_ratio(double r);         // "25.0×", "120×"

}  // namespace planlint
