#include "lint/engine/baseline.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <tuple>

#include "lint/config/config_file.hpp"
#include "lint/engine/fingerprint.hpp"

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
    for (const auto& d : f.diagnostics) entries.push_back({key, d.rule, fingerprint(d), d.message});
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
  std::ofstream out(baseline_file, std::ios::binary | std::ios::trunc);
  if (out) out << text;
  if (!out) {
    error = baseline_file.string() + ": cannot write the baseline";
    return false;
  }
  return true;
}

std::optional<Baseline> parse_baseline(std::string_view text, std::string& error) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("findings") || !j["findings"].is_array()) {
    error = "not a planlint baseline (expected {\"version\": 1, \"findings\": [...]})";
    return std::nullopt;
  }
  if (j.contains("version") && j["version"] != 1) {
    error = "unsupported baseline version " + j["version"].dump();
    return std::nullopt;
  }
  Baseline b;
  for (const auto& e : j["findings"]) {
    if (!e.is_object() || !e.contains("path") || !e.contains("fingerprint") || !e["path"].is_string() ||
        !e["fingerprint"].is_string()) {
      error = "baseline entry without \"path\" and \"fingerprint\": " + e.dump();
      return std::nullopt;
    }
    ++b.counts[{e["path"].get<std::string>(), e["fingerprint"].get<std::string>()}];
  }
  return b;
}

std::optional<Baseline> read_baseline(const fs::path& baseline_file, std::string& error) {
  std::ifstream in(baseline_file, std::ios::binary);
  if (!in) {
    error = baseline_file.string() + ": cannot read the baseline";
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  auto b = parse_baseline(ss.str(), error);
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
