#include "tools/cli/write_reports.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <streambuf>
#include <string_view>
#include <vector>
#include <iostream>
#include <optional>
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

namespace {
// An output buffer that hands full blocks to an OutputFile.
class FileBuf : public std::streambuf {
 public:
  explicit FileBuf(OutputFile& file) : file_(file), buf_(1 << 16) { setp(buf_.data(), buf_.data() + buf_.size()); }

 protected:
  int_type overflow(int_type c) override {
    drain();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n > epptr() - pptr()) {  // a block larger than the room left: straight through
      drain();
      if (n >= static_cast<std::streamsize>(buf_.size())) {
        file_.write(std::string_view(s, static_cast<std::size_t>(n)));
        return n;
      }
    }
    std::memcpy(pptr(), s, static_cast<std::size_t>(n));
    pbump(static_cast<int>(n));
    return n;
  }
  int sync() override {
    drain();
    return 0;
  }

 private:
  void drain() {
    if (pptr() > pbase()) file_.write(std::string_view(pbase(), static_cast<std::size_t>(pptr() - pbase())));
    setp(buf_.data(), buf_.data() + buf_.size());
  }
  OutputFile& file_;
  std::vector<char> buf_;
};
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
    OutputFile file;
    std::string error;
    bool ok = file.open(target.output, error);
    if (ok) {
      FileBuf buf(file);
      std::ostream out(&buf);
      out_opt.color = use_color(target.color, false);
      write_report(out, target.format, reports, out_opt);
      out.flush();
      ok = file.commit(error);
    }
    if (!ok) {
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

struct StreamedJsonReport::State {
  OutputFile file;
  std::optional<FileBuf> buf;
  std::optional<std::ostream> os;
  std::optional<JsonReportStream> json;
  bool to_file = false;
};

StreamedJsonReport::StreamedJsonReport() : s_(std::make_unique<State>()) {}
StreamedJsonReport::~StreamedJsonReport() = default;

bool StreamedJsonReport::open(const ReportTarget& target) {
  if (!target.output.empty()) {
    std::string error;
    if (!s_->file.open(target.output, error)) return false;
    s_->to_file = true;
    s_->buf.emplace(s_->file);
    s_->os.emplace(&*s_->buf);
    s_->json.emplace(*s_->os);
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
  s_->os->flush();
  if (s_->file.commit(error)) return true;
  error = "planlint: error: " + visible(error);
  return false;
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
