#include "lint/core/baseline.hpp"

#include "lint/core/output_file.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <tuple>

#include "lint/core/config_file.hpp"
#include "lint/core/fingerprint.hpp"
#include "lint/core/input.hpp"
#include "lint/core/json_nesting.hpp"

namespace planlint {

namespace fs = std::filesystem;

namespace {
std::string path_key(const std::string& path, const fs::path& baseline_file) {
  if (path == "-") return path;
  fs::path dir = baseline_file.parent_path();
  return relative_generic(path, dir.empty() ? fs::path(".") : dir);
}
}  // namespace

std::string baseline_json(const std::vector<FileReport>& files, const fs::path& baseline_file) {
  struct Entry {
    std::string path, rule, fingerprint, message;
  };
  std::vector<Entry> entries;
  for (const auto& f : files) {
    std::string key = path_key(f.path, baseline_file);
    for (const auto& d : f.diagnostics) entries.push_back({key, d.rule, fingerprint(d), labelled_message(d)});
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.path, a.rule, a.fingerprint) < std::tie(b.path, b.rule, b.fingerprint);
  });
  nlohmann::ordered_json root;
  root["version"] = 1;
  root["tool"] = "planlint";
  root["findings"] = nlohmann::ordered_json::array();
  for (const auto& e : entries) {
    nlohmann::ordered_json j;
    j["path"] = e.path;
    j["rule"] = e.rule;
    j["fingerprint"] = e.fingerprint;
    j["message"] = e.message;
    root["findings"].push_back(std::move(j));
  }
  return root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

bool write_baseline(const fs::path& baseline_file, const std::vector<FileReport>& files, std::string& error) {
  std::string text = baseline_json(files, baseline_file);
  std::string why;
  if (!write_file_atomically(baseline_file.string(), text, why)) {
    error = baseline_file.string() + ": cannot write the baseline (" + why + ")";
    return false;
  }
  return true;
}

namespace {
// A baseline nests 3 levels ({"findings": [{...}]}); the limit leaves room for anything a tool
// might add, and keeps nlohmann's recursive parse, dump and destruction off deep values.
constexpr std::size_t kMaxBaselineNesting = 64;
// An error quotes at most this many bytes of a value.
constexpr std::size_t kMaxQuote = 200;

std::string short_dump(const nlohmann::json& v) {
  std::string s = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (s.size() <= kMaxQuote) return s;
  const std::size_t full = s.size();
  std::size_t cut = kMaxQuote;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // a UTF-8 boundary
  s.resize(cut);
  return s + "... (" + std::to_string(full) + " bytes)";
}
}  // namespace

std::optional<Baseline> parse_baseline(std::string_view text, std::string& error) {
  if (nests_deeper_than(text, kMaxBaselineNesting)) {
    error = "not a planlint baseline (arrays or objects nested deeper than " + std::to_string(kMaxBaselineNesting) +
            " levels)";
    return std::nullopt;
  }
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("findings") || !j["findings"].is_array()) {
    error = "not a planlint baseline (expected {\"version\": 1, \"findings\": [...]})";
    return std::nullopt;
  }
  if (j.contains("version") && j["version"] != 1) {
    error = "unsupported baseline version " + short_dump(j["version"]);
    return std::nullopt;
  }
  Baseline b;
  for (const auto& e : j["findings"]) {
    if (!e.is_object() || !e.contains("path") || !e.contains("fingerprint") || !e["path"].is_string() ||
        !e["fingerprint"].is_string()) {
      error = "baseline entry without \"path\" and \"fingerprint\": " + short_dump(e);
      return std::nullopt;
    }
    ++b.counts[{e["path"].get<std::string>(), e["fingerprint"].get<std::string>()}];
  }
  return b;
}

std::optional<Baseline> read_baseline(const fs::path& baseline_file, std::string& error) {
  // Regular files only, at most 16 MiB (lint/core/input.hpp): /dev/zero or a FIFO is refused.
  std::string why;
  auto text = read_regular_file(baseline_file.string(), why);
  if (!text) {
    error = baseline_file.string() + ": cannot read the baseline (" + why + ")";
    return std::nullopt;
  }
  auto b = parse_baseline(*text, error);
  if (!b) error = baseline_file.string() + ": " + error;
  return b;
}

std::size_t apply_baseline(Baseline& baseline, FileReport& report, const fs::path& baseline_file) {
  std::string key = path_key(report.path, baseline_file);
  std::vector<Diagnostic> kept;
  std::size_t removed = 0;
  for (auto& d : report.diagnostics) {
    auto it = baseline.counts.find({key, fingerprint(d)});
    if (it != baseline.counts.end() && it->second > 0) {
      --it->second;
      ++removed;
    } else {
      kept.push_back(std::move(d));
    }
  }
  report.diagnostics = std::move(kept);
  report.baselined += removed;
  return removed;
}

}  // namespace planlint
