#include "tools/cli/write_reports.hpp"

#include <unistd.h>

#include <cstdlib>
#include <string_view>
#include <vector>
#include <iostream>
#include <optional>
#include <sstream>
#include <utility>

#include "lint/core/output_file.hpp"
#include "lint/core/sanitize.hpp"
#include "tools/cli/block_buf.hpp"

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

// Named, not unnamed: StreamedJsonReport::State (its class is declared in the header) holds a FileOut.
namespace write_reports_detail {
// -o FILE written as it is made: an OutputFile (atomic for a regular file) behind a BlockBuf.
// OutputFile keeps its first write error for commit().
class FileBuf : public BlockBuf {
 public:
  explicit FileBuf(OutputFile& file) : file_(file) {}

 protected:
  bool put(std::string_view bytes) override {
    file_.write(bytes);
    return true;
  }

 private:
  OutputFile& file_;
};

struct FileOut {
  OutputFile file;
  std::optional<FileBuf> buf;
  std::optional<std::ostream> os;
  // False with `error` set ("planlint: error: ...", made visible) when `path` cannot be written.
  bool open(const std::string& path, std::string& error) {
    if (!file.open(path, error)) {
      error = "planlint: error: " + visible(error);
      return false;
    }
    buf.emplace(file);
    os.emplace(&*buf);
    return true;
  }
  // Flushes and finishes the file; false with `error` set ("planlint: error: ...", made visible).
  bool commit(std::string& error) {
    os->flush();
    if (file.commit(error)) return true;
    error = "planlint: error: " + visible(error);
    return false;
  }
};
}  // namespace write_reports_detail

namespace {
using write_reports_detail::FileOut;
}  // namespace

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
    // Written as it is made, 64 KiB at a time (the report of 10,000 files is not held whole).
    FileOut out;
    std::string error;
    bool ok = out.open(target.output, error);
    if (ok) {
      out_opt.color = use_color(target.color, false);
      write_report(*out.os, target.format, reports, out_opt);
      ok = out.commit(error);
    }
    if (!ok) {
      std::cerr << error << "\n";
      return false;
    }
  } else {
    out_opt.color = use_color(target.color, true);
    write_report(std::cout, target.format, reports, out_opt);
    std::cout.flush();
  }
  return true;
}

struct StreamedJsonReport::State {
  FileOut out;
  std::optional<JsonReportStream> json;
  bool to_file = false;
};

StreamedJsonReport::StreamedJsonReport() : s_(std::make_unique<State>()) {}
StreamedJsonReport::~StreamedJsonReport() = default;

bool StreamedJsonReport::open(const ReportTarget& target) {
  if (!target.output.empty()) {
    std::string error;
    if (!s_->out.open(target.output, error)) return false;
    s_->to_file = true;
    s_->json.emplace(*s_->out.os);
  } else {
    s_->json.emplace(std::cout);
  }
  return true;
}

void StreamedJsonReport::report(const FileReport& report) { s_->json->file(report); }

bool StreamedJsonReport::finish(std::string& error) {
  s_->json->end();
  if (!s_->to_file) {
    std::cout.flush();
    return true;
  }
  return s_->out.commit(error);
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
