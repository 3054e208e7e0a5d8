#include "rules/plan_util.hpp"

#include <cctype>
#include <cstdio>

namespace planlint::rules {

namespace {
std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}
}  // namespace

// ---- SQL text hints --------------------------------------------------------------------------

std::vector<SqlHint> sql_hints(const QueryInfo& q) {
  std::vector<SqlHint> out;
  std::string_view s = q.sql_text;
  std::size_t pos = 0;
  while ((pos = s.find("/*+", pos)) != std::string_view::npos) {
    std::size_t end = s.find("*/", pos + 3);
    if (end == std::string_view::npos) break;
    std::string_view body = s.substr(pos + 3, end - pos - 3);
    pos = end + 2;
    std::size_t i = 0;
    while (i < body.size()) {
      while (i < body.size() && (std::isspace(static_cast<unsigned char>(body[i])) || body[i] == ',')) ++i;
      std::size_t ns = i;
      while (i < body.size() && (std::isalnum(static_cast<unsigned char>(body[i])) || body[i] == '_')) ++i;
      if (i == ns) {
        ++i;
        continue;
      }
      SqlHint h;
      for (char c : body.substr(ns, i - ns)) h.name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      while (i < body.size() && std::isspace(static_cast<unsigned char>(body[i]))) ++i;
      if (i < body.size() && body[i] == '(') {
        std::size_t close = body.find(')', i);
        if (close == std::string_view::npos) close = body.size();
        std::string_view args = body.substr(i + 1, close - i - 1);
        std::size_t a = 0;
        while (a <= args.size()) {
          std::size_t c = args.find(',', a);
          if (c == std::string_view::npos) c = args.size();
          auto arg = trim(args.substr(a, c - a));
          if (!arg.empty()) h.args.emplace_back(arg);
          a = c + 1;
        }
        i = close + 1;
      }
      out.push_back(std::move(h));
    }
  }
  return out;
}

bool is_broadcast_hint(std::string_view n) { return n == "BROADCAST" || n == "BROADCASTJOIN" || n == "MAPJOIN"; }
bool is_shuffle_hint(std::string_view n) {
  return n == "SHUFFLE_HASH" || n == "MERGE" || n == "SHUFFLE_MERGE" || n == "MERGEJOIN";
}

std::set<std::string> side_names(const Plan& plan, const Operator& join, std::size_t child_pos) {
  std::set<std::string> out;
  const auto& keys = child_pos == 0 ? join.join.left_keys : join.join.right_keys;
  for (const auto& k : keys) {
    if (!k.root) continue;
    for (const Expr* a : attributes_in(*k.root)) {
      std::string_view n = a->name;
      if (auto d = n.rfind('.'); d != std::string_view::npos) out.insert(lower(n.substr(0, d)));
    }
  }
  if (child_pos < join.children.size()) {
    if (const Operator* scan = single_scan_under(plan, join.children[child_pos])) {
      std::string t = scan->table;
      if (t.empty())
        if (const Field* f = scan->field("SCAN_IDENTIFIER")) t = f->value;
      if (!t.empty()) {
        out.insert(lower(t));
        if (auto d = t.rfind('.'); d != std::string::npos) out.insert(lower(t.substr(d + 1)));
      }
    }
  }
  return out;
}

// ---- evidence helpers ------------------------------------------------------------------------

std::string format_ratio(double r) {
  char buf[64];
  std::snprintf(buf, sizeof buf, r >= 100 ? "%.0f×" : "%.1f×", r);
  return buf;
}

Evidence ev_bytes(std::string name, double bytes) {
  return Evidence{std::move(name), format_bytes(bytes) + " (" + format_count(bytes) + " bytes)", bytes, "bytes"};
}
Evidence ev_rows(std::string name, double rows) { return Evidence{std::move(name), format_count(rows), rows, "rows"}; }
Evidence ev_ms(std::string name, double ms) { return Evidence{std::move(name), format_millis(ms), ms, "ms"}; }
Evidence ev_ratio(std::string name, double r) { return Evidence{std::move(name), format_ratio(r), r, "ratio"}; }
Evidence ev_text(std::string name, std::string text) { return Evidence{std::move(name), std::move(text), std::nullopt, ""}; }

}  // namespace planlint::rules
