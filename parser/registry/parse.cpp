#include "parser/registry/parse.hpp"

#include "parser/registry/reader.hpp"

namespace planlint {

InputFormat detect_format(std::string_view text) { return reader_for(text).format; }

ParseResult parse_input(std::string_view text, const std::string& path) {
  return reader_for(text).parse(text, path, ReadOptions{});
}

}  // namespace planlint
