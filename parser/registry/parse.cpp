#include "parser/registry/parse.hpp"

#include "parser/registry/reader.hpp"

namespace planlint {

namespace {
// What detection sees: the first kDetectBytes, as in the lint engine (lint/engine/lint.cpp), and in detect_format
// (detect.cpp), so `parse` and `check` pick the same reader (and detection does not scan a whole large input).
std::string_view detect_head(std::string_view text) { return text.substr(0, kDetectBytes); }
}  // namespace

ParseResult parse_input(std::string_view text, const std::string& path) {
  return reader_for(detect_head(text)).parse(text, path, ReadOptions{});
}

ParseResult parse_input(std::shared_ptr<const std::string> input, const std::string& path,
                        std::optional<long long> execution) {
  if (!input) return parse_input(std::string_view(), path);  // nothing read: the empty input's answer
  ReadOptions options;
  options.input = input;
  options.execution = execution;
  return reader_for(detect_head(*input)).parse(*input, path, options);
}

}  // namespace planlint
