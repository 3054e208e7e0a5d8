#include "lint/output/output.hpp"

#include <cstdio>
#include <ostream>

namespace planlint {

std::optional<OutputFormat> output_format_from_string(std::string_view s) {
  if (s == "text" || s == "full") return OutputFormat::Text;
  if (s == "concise") return OutputFormat::Concise;
  if (s == "json") return OutputFormat::Json;
  if (s == "sarif") return OutputFormat::Sarif;
  if (s == "github") return OutputFormat::Github;
  if (s == "junit") return OutputFormat::Junit;
  return std::nullopt;
}

std::string_view to_string(OutputFormat f) {
  switch (f) {
    case OutputFormat::Concise: return "concise";
    case OutputFormat::Json: return "json";
    case OutputFormat::Sarif: return "sarif";
    case OutputFormat::Github: return "github";
    case OutputFormat::Junit: return "junit";
    case OutputFormat::Text: break;
  }
  return "text";
}

void write_report(std::ostream& out, OutputFormat format, const std::vector<FileReport>& files,
                  const OutputOptions& opt) {
  switch (format) {
    case OutputFormat::Text: write_text(out, files, opt); break;
    case OutputFormat::Concise: write_concise(out, files, opt); break;
    case OutputFormat::Json: opt.statistics ? write_json_statistics(out, files) : write_json(out, files); break;
    case OutputFormat::Sarif: write_sarif(out, files, opt.sarif_help_uri); break;
    case OutputFormat::Github: write_github(out, files); break;
    case OutputFormat::Junit: write_junit(out, files); break;
  }
}

}  // namespace planlint
