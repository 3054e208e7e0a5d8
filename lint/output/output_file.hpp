// Writing outputs (`check -o`, `--write-baseline`, `report -o`): never over an input, never half a
// file.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace planlint {

// The input that `output` is (the same file once links are resolved: same device and inode), or
// nullopt. "-" among the inputs is standard input, which may be a file redirected with `<`. A
// directory input (a rolling event log) counts through the files directly in it.
std::optional<std::string> output_is_input(const std::string& output, const std::vector<std::string>& inputs);

// Writes `content` to `path` through a temporary file in the same folder, then renames it over
// `path`, so that an interrupted run never leaves half a file. A symbolic link at `path` is
// followed (its target is replaced). False with `error` set on failure (the temporary file is
// removed).
bool write_file_atomically(const std::string& path, std::string_view content, std::string& error);

}  // namespace planlint
