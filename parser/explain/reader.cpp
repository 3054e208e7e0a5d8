// The explain-text reader in the registry (parser/registry/registry.cpp): anything the other
// readers do not claim, in every explain mode (the parser finds the mode). Read whole; with
// ReadOptions::each_plan, its plans are handed over one at a time.
#include "parser/explain/explain.hpp"
#include "parser/registry/reader.hpp"

namespace planlint {

Reader explain_text_reader() {
  Reader r;
  r.name = "explain-text";
  r.format = InputFormat::Unknown;
  r.traits = kExplainTextTraits;
  r.detect = [](std::string_view) { return true; };
  r.parse = [](std::string_view text, const std::string& path, const ReadOptions& options) {
    return parse_explain_text(text, path, options.input, options.each_plan ? &options.each_plan : nullptr);
  };
  return r;
}

}  // namespace planlint
