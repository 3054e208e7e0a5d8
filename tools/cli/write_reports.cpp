#include "tools/cli/write_reports.hpp"

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <utility>

#include "lint/core/output_file.hpp"
#include "lint/core/sanitize.hpp"

namespace planlint::cli {

bool use_color(const std::string& mode, bool to_stdout) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  if (std::getenv("NO_COLOR") && *std::getenv("NO_COLOR")) return false;
  if (std::getenv("FORCE_COLOR") && *std::getenv("FORCE_COLOR")) return true;
  const char* term = std::getenv("TERM");
  if (term && std::string_view(term) == "dumb") return false;
  return to_stdout && ::isatty(STDOUT_FILENO);
}

bool write_reports(const std::vector<FileReport>& reports, const ReportTarget& target) {
  // The readers' warnings and notes: on standard error for the text formats (as `parse` prints
  // them); the machine formats carry them inside.
  if (target.reader_messages && (target.format == OutputFormat::Text || target.format == OutputFormat::Concise))
    write_messages_text(std::cerr, reports);
  OutputOptions out_opt;
  out_opt.statistics = target.statistics;
  out_opt.quiet = target.quiet;
  out_opt.sarif_help_uri = target.sarif_help_uri;
  if (!target.output.empty()) {
    std::ostringstream out;
    out_opt.color = use_color(target.color, false);
    write_report(out, target.format, reports, out_opt);
    std::string error;
    if (!write_file_atomically(target.output, std::move(out).str(), error)) {  // the text, not a copy
      std::cerr << "planlint: error: " << visible(error) << "\n";
      return false;
    }
  } else {
    out_opt.color = use_color(target.color, true);
    write_report(std::cout, target.format, reports, out_opt);
    std::cout.flush();
  }
  return true;
}

bool print_report_errors(const std::vector<FileReport>& reports) {
  bool any = false;
  for (const auto& r : reports)
    if (!r.error.empty()) {
      std::cerr << "planlint: error: " << visible(r.error) << "\n";
      any = true;
    }
  return any;
}

}  // namespace planlint::cli
