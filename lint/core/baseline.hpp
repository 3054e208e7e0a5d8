// A baseline for adopting planlint on a repository that already has slow plans:
// `--write-baseline FILE` records every current finding by fingerprint, `--baseline FILE` reports
// only findings the baseline does not have. Fingerprints ignore ids, line numbers and measured
// numbers (lint/core/fingerprint.hpp), so a re-captured plan keeps its baselined findings. Each entry
// absorbs one finding (same path, same fingerprint): a second identical finding is new.
// File format (JSON, sorted, one entry per finding, meant to be committed):
//   {"version": 1, "tool": "planlint", "findings": [
//     {"path": "plans/q1.txt", "rule": "skew-not-handled", "fingerprint": "3f2a...", "message": "..."}]}
// Paths are relative to the baseline file's folder.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lint/core/report.hpp"

namespace planlint {

struct Baseline {
  std::map<std::pair<std::string, std::string>, std::size_t> counts;  // (path, fingerprint) -> entries
};

// The baseline text for `files` (a file written at `baseline_file`).
std::string baseline_json(const std::vector<FileReport>& files, const std::filesystem::path& baseline_file);
bool write_baseline(const std::filesystem::path& baseline_file, const std::vector<FileReport>& files,
                    std::string& error);

std::optional<Baseline> parse_baseline(std::string_view text, std::string& error);
std::optional<Baseline> read_baseline(const std::filesystem::path& baseline_file, std::string& error);

// Remove from `report` the findings the baseline has, using up its entries; returns how many were
// removed (also added to report.baselined).
std::size_t apply_baseline(Baseline& baseline, FileReport& report, const std::filesystem::path& baseline_file);

}  // namespace planlint
