#include "parser/model/format.hpp"

#include <cmath>
#include <cstdio>

namespace planlint {

std::string format_bytes(double bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  double v = bytes;
  while (std::fabs(v) >= 1024.0 && u < 6) {
    v /= 1024.0;
    ++u;
  }
  char buf[64];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%.0f B", v);
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

std::string format_count(double n) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", n);
  std::string s = buf;
  std::string out;
  std::size_t start = (!s.empty() && s[0] == '-') ? 1 : 0;
  std::size_t digits = s.size() - start;
  out = s.substr(0, start);
  for (std::size_t i = 0; i < digits; ++i) {
    if (i != 0 && (digits - i) % 3 == 0) out += ',';
    out += s[start + i];
  }
  return out;
}

std::string format_percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", share * 100);
  return buf;
}

std::string format_decimal(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string format_millis(double ms) {
  char buf[64];
  if (ms < 1000)
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
