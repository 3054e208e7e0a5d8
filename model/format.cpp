#include "model/format.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace planlint {

namespace {
// NaN and infinities (a metric overflowed, or a hostile input): said in words, never "inf EiB".
std::string non_finite(double v) { return std::isnan(v) ? "not a number" : v < 0 ? "-infinity" : "infinity"; }
}  // namespace

std::string format_bytes(double bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (!std::isfinite(bytes)) return non_finite(bytes);
  int u = 0;
  double v = bytes;
  while (std::fabs(v) >= 1024.0 && u < 6) {
    v /= 1024.0;
    ++u;
  }
  char buf[64];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%.0f B", v);
  else if (std::fabs(v) >= 10000)  // beyond 10,000 EiB: a short exponent, not 300 digits
    std::snprintf(buf, sizeof buf, "%.3g %s", v, units[u]);
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

std::string format_count(double n) {
  if (!std::isfinite(n)) return non_finite(n);
  char buf[64];
  if (std::fabs(n) >= 1e15) {  // 1,000 trillion and above: "1.8e+308", not 309 digits
    std::snprintf(buf, sizeof buf, "%.3g", n);
    return buf;
  }
  std::string s;
  if (n == std::trunc(n) && !(n == 0 && std::signbit(n))) {
    // A whole number (what counts almost always are): its digits are what "%.0f" prints, without
    // the cost of printf's floating-point conversion. (-0.0 still goes through printf: "-0".)
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, static_cast<long long>(n));
    s.assign(buf, end);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f", n);
    s = buf;
  }
  std::string out;
  std::size_t start = (!s.empty() && s[0] == '-') ? 1 : 0;
  std::size_t digits = s.size() - start;
  out.reserve(s.size() + digits / 3);
  out.assign(s, 0, start);
  for (std::size_t i = 0; i < digits; ++i) {
    if (i != 0 && (digits - i) % 3 == 0) out += ',';
    out += s[start + i];
  }
  return out;
}

std::string format_percent(double share, PercentDigits digits) {
  if (!std::isfinite(share)) return non_finite(share);
  char buf[32];
  const char* form = "%.0f%%";
  if (std::fabs(share) >= 1e6) form = "%.3g%%";
  else if (digits == PercentDigits::One) form = "%.1f%%";
  else if (digits == PercentDigits::Small && share < 0.01) {
    if (share > 0 && share < 0.0001) return "<0.01%";
    form = "%.2f%%";
  }
  std::snprintf(buf, sizeof buf, form, share * 100);
  return buf;
}

std::string format_ratio(double r) {
  char buf[64];
  std::snprintf(buf, sizeof buf, r >= 100 ? "%.0f×" : "%.1f×", r);
  return buf;
}

std::string format_decimal(double v) {
  if (!std::isfinite(v)) return non_finite(v);
  char buf[32];
  std::snprintf(buf, sizeof buf, std::fabs(v) >= 1e15 ? "%.3g" : "%.1f", v);
  return buf;
}

std::string format_millis(double ms) {
  if (!std::isfinite(ms)) return non_finite(ms);
  char buf[64];
  if (std::fabs(ms) >= 3.6e15)  // a million hours and more (or a negative giant): a short exponent
    std::snprintf(buf, sizeof buf, "%.3g h", ms / 3'600'000);
  else if (ms < 1000)
    std::snprintf(buf, sizeof buf, "%.0f ms", ms);
  else if (ms < 60'000)
    std::snprintf(buf, sizeof buf, "%.1f s", ms / 1000);
  else if (ms < 3'600'000)
    std::snprintf(buf, sizeof buf, "%.0f min %.0f s", std::floor(ms / 60'000), std::fmod(ms / 1000, 60));
  else
    std::snprintf(buf, sizeof buf, "%.0f h %.0f min", std::floor(ms / 3'600'000), std::fmod(ms / 60'000, 60));
  return buf;
}

}  // namespace planlint
