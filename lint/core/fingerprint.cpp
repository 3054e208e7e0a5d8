#include "lint/core/fingerprint.hpp"

#include <cstdint>
#include <cstdio>
#include <map>
#include <string_view>

#include "rules/catalog.hpp"
#include "lint/core/report.hpp"
#include "support/strings.hpp"

namespace planlint {

namespace {

bool is_word(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace

std::string normalise_plan_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '#' && i + 1 < text.size() && is_digit(text[i + 1])) {  // expression id #123 / #123L
      ++i;
      while (i < text.size() && is_digit(text[i])) ++i;
      if (i < text.size() && text[i] == 'L' && (i + 1 >= text.size() || !is_word(text[i + 1]))) ++i;
      continue;
    }
    if (is_digit(c) && (out.empty() || !is_word(out.back()))) {  // a free-standing number
      // 1,234,567.5: thousands separators and decimals belong to the number.
      while (i < text.size() && (is_digit(text[i]) || ((text[i] == '.' || text[i] == ',') && i + 1 < text.size() &&
                                                       is_digit(text[i + 1]))))
        ++i;
      if (!out.empty() && out.back() == '=' && out.size() >= 8 &&
          out.compare(out.size() - 8, 8, "plan_id=") == 0)
        continue;  // plan_id=42 -> plan_id=
      // "3 min 20 s" and "45 s" are one quantity each: N N -> N.
      if (out.size() >= 2 && out.back() == ' ' && out[out.size() - 2] == 'N' &&
          (out.size() == 2 || !is_word(out[out.size() - 3])))
        out.pop_back();
      else
        out += 'N';
      // A measured quantity: its unit changes with the number (980.0 KiB -> 1.1 MiB).
      std::size_t j = i;
      while (j < text.size() && text[j] == ' ') ++j;
      std::size_t k = j;
      while (k < text.size() && is_word(text[k]) && !is_digit(text[k])) ++k;
      static constexpr std::string_view kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "KB", "MB", "GB", "TB",
                                                   "ms", "s", "min", "h", "E"};
      std::string_view word = text.substr(j, k - j);
      for (auto u : kUnits)
        if (word == u) {
          i = k;
          // 1.52E+8: the exponent belongs to the number.
          if (u == "E") {
            if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
            while (i < text.size() && is_digit(text[i])) ++i;
          }
          break;
        }
      continue;
    }
    if (is_blank_or_newline(c)) {
      while (i < text.size() && is_blank_or_newline(text[i])) ++i;
      if (!out.empty()) out += ' ';
      continue;
    }
    out += c;
    ++i;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

namespace {
// The name a finding is fingerprinted under: a renamed rule keeps its first former name, so the
// findings a baseline or code scanning recorded before the rename still match.
std::string fingerprint_name(const std::string& rule) {
  const RuleDoc* doc = find_rule_doc(rule);
  return doc && doc->name == rule && !doc->aliases.empty() ? doc->aliases.front() : rule;
}
}  // namespace

std::string fingerprint(const Diagnostic& d) {
  std::string key = fingerprint_name(d.rule);
  key += '\x1f';
  // The message and the fix name tables, columns and sides; their numbers are normalised away. The
  // message as shown, with its plan label: fingerprints from before the label was a field of its
  // own (when the engine wrote it into the message) still match.
  key += normalise_plan_text(labelled_message(d));
  key += '\x1f';
  key += normalise_plan_text(d.fix);
  key += '\x1f';
  if (!d.operator_name.empty()) {
    key += normalise_plan_text(d.operator_name);
    for (const auto& e : d.evidence) {
      key += '\x1f';
      key += e.name;
      // Measured values change between captures; only textual evidence identifies the finding.
      bool numeric = e.number.has_value() || (!e.value.empty() && (is_digit(e.value[0]) || e.value[0] == '-'));
      if (!numeric) {
        key += '=';
        key += normalise_plan_text(e.value);
      }
    }
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a(key)));
  return buf;
}

std::vector<std::string> fingerprints_with_occurrence(const std::vector<Diagnostic>& diags) {
  std::vector<std::string> out;
  out.reserve(diags.size());
  std::map<std::string, int> seen;
  for (const auto& d : diags) {
    std::string f = fingerprint(d);
    int n = ++seen[f];
    out.push_back(f + ":" + std::to_string(n));
  }
  return out;
}

}  // namespace planlint
