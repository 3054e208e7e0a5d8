#include "parser/registry/parse.hpp"

#include "parser/registry/reader.hpp"

namespace planlint {

InputFormat detect_format(std::string_view text) { return reader_for(text).format; }

ParseResult parse_input(std::string_view text, const std::string& path) {
  return reader_for(text).parse(text, path, ReadOptions{});
}

ParseResult parse_input(std::shared_ptr<const std::string> input, const std::string& path) {
  if (!input) return parse_input(std::string_view(), path);  // nothing read: the empty input's answer
  ReadOptions options;
  options.input = input;
  return reader_for(*input).parse(*input, path, options);
}

}  // namespace planlint
