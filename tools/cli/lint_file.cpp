#include "tools/cli/lint_file.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "lint/config/config_file.hpp"
#include "lint/engine/input.hpp"
#include "parser/eventlog/eventlog.hpp"
#include "lint/output/sanitize.hpp"
#include "parser/registry/parse.hpp"

namespace planlint::cli {

std::optional<LintedFile> lint_file(const std::string& path, bool use_config_files, int& rc, bool& config_broken,
                                    double max_input_bytes) {
  config_broken = false;
  ConfigError ce;
  std::optional<Config> config = config_for_input(path, use_config_files, ce);
  if (!config) {
    std::cerr << visible(ce.str()) << "\n";
    config_broken = true;
    return std::nullopt;
  }
  // Event logs (compressed ones and rolling directories too) are read by the streaming reader.
  // Each input is opened once when it cannot be opened twice (stdin, pipes, FIFOs).
  std::string error;
  auto fail = [&]() -> std::optional<LintedFile> {
    std::cerr << "planlint: error: " << visible(error) << "\n";
    rc = 2;
    return std::nullopt;
  };
  if (max_input_bytes > 0) config->max_input_bytes = max_input_bytes;
  EventLogOptions opts;
  opts.execution = config->execution;
  InputKind kind = input_kind(path, error);
  if (kind == InputKind::Unreadable) return fail();
  if ((kind == InputKind::File || kind == InputKind::Directory) && is_event_log_path(path)) {
    LintedFile f{{}, std::move(*config), {}};
    f.result.parse = read_event_log(path, path, opts);
    f.result.diagnostics = run_rules(f.result.parse, f.config);
    return f;
  }
  std::string text;
  if (kind == InputKind::Stdin || kind == InputKind::Stream) {
    std::ifstream file;
    if (kind == InputKind::Stream) file.open(path, std::ios::binary);
    std::istream& in = kind == InputKind::Stdin ? std::cin : file;
    const std::string name = kind == InputKind::Stdin ? std::string("standard input") : path;
    std::string head(4096, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
    if (detect_format(head) == InputFormat::EventLog) {
      LintedFile f{{}, std::move(*config), {}};
      std::istringstream head_in(head);
      // The head, then the rest of the stream, as one stream.
      struct Joined : std::streambuf {
        std::streambuf *a, *b;
        char buf[1 << 16];
        Joined(std::streambuf* x, std::streambuf* y) : a(x), b(y) {}
        int_type underflow() override {
          std::streamsize n = a->sgetn(buf, sizeof buf);
          if (n <= 0) n = b->sgetn(buf, sizeof buf);
          if (n <= 0) return traits_type::eof();
          setg(buf, buf, buf + n);
          return traits_type::to_int_type(buf[0]);
        }
      } joined(head_in.rdbuf(), in.rdbuf());
      std::istream all(&joined);
      f.result.parse = parse_event_log_stream(all, path, opts);
      f.result.diagnostics = run_rules(f.result.parse, f.config);
      return f;
    }
    text = std::move(head);
    if (in && !read_rest(in, text, config->max_input_bytes, name, error)) return fail();
  } else {
    auto read = read_input(path, error, config->max_input_bytes);
    if (!read) return fail();
    text = std::move(*read);
  }
  LintedFile f{std::move(text), std::move(*config), {}};
  f.result = lint_text(f.text, path, f.config);
  return f;
}

std::optional<int> for_each_linted_file(const std::vector<std::string>& paths, bool use_config_files,
                         const std::function<void(LintedFile&)>& each, double max_input_bytes) {
  int rc = 0;
  for (const auto& path : paths.empty() ? std::vector<std::string>{"-"} : paths) {
    bool config_broken = false;
    std::optional<LintedFile> f = lint_file(path, use_config_files, rc, config_broken, max_input_bytes);
    if (config_broken) return std::nullopt;
    if (!f) continue;
    if (f->result.parse.has_errors() && rc == 0) rc = 1;
    each(*f);
  }
  return rc;
}

std::optional<double> max_input_size_option(const std::string& text) {
  if (text.empty()) return 0.0;
  auto v = parse_quantity(text, "bytes");
  if (!v || *v < 1) return std::nullopt;
  return v;
}

}  // namespace planlint::cli
