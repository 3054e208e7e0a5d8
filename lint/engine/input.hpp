// Reading inputs: files or standard input ("-"), never modified.
#pragma once

#include <optional>
#include <string>

namespace planlint {

// The whole file (or stdin for "-"); nullopt with `error` set when it cannot be read.
std::optional<std::string> read_input(const std::string& path, std::string& error);

}  // namespace planlint
