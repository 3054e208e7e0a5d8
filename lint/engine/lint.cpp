// lint_input(): the one way an input is linted (lint/engine/engine.hpp).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cctype>
#include <iostream>
#include <optional>
#include <sstream>
#include <streambuf>
#include <tuple>

#include "lint/engine/engine.hpp"
#include "lint/core/input.hpp"
#include "lint/engine/parse_errors.hpp"
#include "lint/core/suppress.hpp"
#include "model/read_check.hpp"
#include "parser/common/regular_file.hpp"
#include "parser/registry/reader.hpp"
#include "parser/common/input_pages.hpp"

namespace planlint {

// A file a reader may read in pieces is read no further than its head before the head is asked
// (read_fd_once reads smaller files whole first).
static_assert(kPiecesMinBytes >= kReadWholeBelow);

PlanLabel plan_label(const Plan& plan, const InputTraits& traits) {
  PlanLabel label;
  if (!traits.executions) return label;
  const std::string& id = plan.query.statement_id;
  long long n = 0;
  const auto parsed = std::from_chars(id.data(), id.data() + id.size(), n);
  if (id.empty() || parsed.ec != std::errc{} || parsed.ptr != id.data() + id.size()) return label;
  label.execution = n;
  std::string& desc = label.description;
  for (char c : plan.query.description) desc += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  while (!desc.empty() && desc.back() == ' ') desc.pop_back();
  constexpr std::size_t kMax = 80;  // descriptions can be whole SQL statements
  if (desc.size() > kMax) {
    std::size_t cut = kMax;
    while (cut > 0 && (static_cast<unsigned char>(desc[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
    desc = desc.substr(0, cut) + "...";
  }
  return label;
}

namespace {
// Diagnostic::plan_label of every rule finding, when the reader's plans are SQL executions.
void label_diagnostics(std::vector<Diagnostic>& diags, const ParseResult& parse) {
  if (!parse.traits.executions) return;
  std::vector<std::optional<PlanLabel>> labels(parse.plans.size());
  for (auto& d : diags) {
    if (d.plan_index >= parse.plans.size()) continue;
    auto& label = labels[d.plan_index];
    if (!label) label = plan_label(parse.plans[d.plan_index], parse.traits);
    d.plan_label = *label;
  }
}
}  // namespace

std::size_t finish_diagnostics(LintResult& lint, std::string_view text, const Config& config) {
  return finish_diagnostics(lint, find_suppressions(text), config);
}

std::size_t finish_diagnostics(LintResult& lint, const std::vector<Suppression>& found, const Config& config) {
  std::vector<Diagnostic>& diags = lint.diagnostics;
  // Asked of the configuration only when the input has parse errors (most have none).
  if (std::vector<Diagnostic> errors = parse_error_diagnostics(lint.parse);
      !errors.empty() && is_reported(config, kParseErrorRule)) {
    for (auto& d : errors) {
      if (auto s = config.severity.find(d.rule); s != config.severity.end()) d.severity = s->second;
      diags.push_back(std::move(d));
    }
  }
  // Directives naming findings a file's own lint does not run (the diff family's) are judged by the
  // front end that runs them (`diff`, `check --against`), never reported as unused here. (Most
  // inputs hold no directive: then nothing more is built.)
  std::size_t suppressed = 0;
  if (!found.empty()) {
    Config directives = config;
    for (const RuleDoc* d : all_rule_docs())
      if (d->family == RuleFamily::Diff) directives.ignore.insert(d->name);
    suppressed = apply_suppressions(found, diags, directives);
  }
  // Reading order; findings on one operator stay together (same position, stable order).
  // (Usually in order already: then no sort, and no buffer for a stable one.)
  const auto before = [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.range.line, a.range.column) < std::tie(b.range.line, b.range.column);
  };
  if (!std::is_sorted(diags.begin(), diags.end(), before)) std::stable_sort(diags.begin(), diags.end(), before);
  return suppressed;
}

std::string not_a_plan(std::string_view text, const ParseResult& parse) {
  if (operator_count(parse) > 0) return "";
  std::string_view body = text.substr(0, 3) == "\xEF\xBB\xBF" ? text.substr(3) : text;
  if (body.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos)
    return std::string(text.empty() ? "is empty" : "holds only white space") + ", nothing to check; " +
           std::string(kExpectedInputs);
  if (!parse.traits.may_be_binary) {
    // Binary: a NUL byte, or more than 1 in 20 control bytes, in the first 4 KiB.
    std::string_view head = body.substr(0, 4096);
    std::size_t control = 0, nul = std::string_view::npos;
    for (std::size_t i = 0; i < head.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(head[i]);
      if (c == 0 && nul == std::string_view::npos) nul = i;
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b) ++control;
      if (c == 0x7f) ++control;
    }
    if (nul != std::string_view::npos || control * 20 > head.size())
      return "is binary data (" +
             (nul != std::string_view::npos ? "a NUL byte at offset " + std::to_string(nul)
                                            : std::to_string(control) + " control bytes in the first " +
                                                  std::to_string(head.size())) +
             "), not a plan; " + std::string(kExpectedInputs);
  }
  for (const auto& m : parse.messages)
    if (m.severity == MessageSeverity::Error && std::string_view(m.message).substr(0, kNotAPlan.size()) == kNotAPlan)
      return std::to_string(m.loc.line) + ":" + std::to_string(m.loc.column) + ": " + m.message;
  return not_a_plan_by_content(body);
}

namespace {

// The identity of the regular file `path` names (lint/core/source_file.hpp); nullopt when it names
// none.
std::optional<FileIdentity> path_identity(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return identity_of(st);
}

// LintOptions::lint_each_plan: each plan's findings as the plans come (RuleRunner), each naming its
// execution when the reader's plans are ones.
class EachPlan {
 public:
  EachPlan(const Config& config, std::vector<Diagnostic>& found) : rules_(config), found_(found) {}
  void lint(const Plan& plan, const InputTraits& traits) {
    const std::size_t first = found_.size();
    rules_.run(plan, index_++, found_);
    if (!traits.executions || first == found_.size()) return;
    const PlanLabel label = plan_label(plan, traits);
    for (std::size_t k = first; k < found_.size(); ++k) found_[k].plan_label = label;
  }
  // The plans a reader kept in `parse`, in order; then dropped (counted as handed over).
  void lint_kept(ParseResult& parse) {
    for (const Plan& plan : parse.plans) {
      lint(plan, parse.traits);
      ++parse.handed_over_plans;
      parse.handed_over_ops += plan.ops.size();
    }
    std::vector<Plan>().swap(parse.plans);
  }

 private:
  const RuleRunner rules_;
  std::vector<Diagnostic>& found_;
  std::size_t index_ = 0;
};

// The bytes already read to look at the input, then the rest of the stream.
class HeadThenRest : public std::streambuf {
 public:
  HeadThenRest(std::string head, std::streambuf& rest) : head_(std::move(head)), rest_(rest) {
    setg(head_.data(), head_.data(), head_.data() + head_.size());
  }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    std::streamsize n = rest_.sgetn(buf_, sizeof buf_);
    if (n <= 0) return traits_type::eof();
    setg(buf_, buf_, buf_ + n);
    return traits_type::to_int_type(*gptr());
  }

 private:
  std::string head_;
  std::streambuf& rest_;
  char buf_[1 << 16];
};

class InputLinter {
 public:
  InputLinter(Linted& out, const Config& config, const LintOptions& options)
      : out_(out), config_(config), options_(options) {
    read_.execution = config.execution;
  }

  // A whole buffer: the reader the registry picks for it, then the rules.
  void whole(std::string_view text) {
    const Reader& reader = reader_for(text.substr(0, kDetectBytes));
    if (!options_.keep_plans && options_.lint_each_plan) {
      each_plan(reader, text);
    } else {
      out_.result.parse = reader.parse(text, out_.path, read_);
      out_.result.diagnostics = run_rules(out_.result.parse, config_);
      // An event log or a History Server answer holds several executions: each finding names its own.
      label_diagnostics(out_.result.diagnostics, out_.result.parse);
    }
    finish(text);
    refuse(text, true, out_.result.parse.format, out_.result.parse.traits);
  }
  // A shared buffer: the plans view it instead of copying what they keep.
  void whole(const std::shared_ptr<const std::string>& input) {
    read_.input = input;
    whole(std::string_view(*input));
    read_.input.reset();
  }
  // The engine's own buffer, of which nothing is read once it is linted (KeepInput::Nothing, each
  // plan linted and dropped): the reader may give back the pages of bytes it has read and copied
  // what it keeps of (parser/common/input_pages.hpp). The directives are found before the parse,
  // since finish() would look for them in the whole input after it.
  void whole_giving_back(const std::shared_ptr<std::string>& input) {
    directives_.emplace(find_suppressions(*input));
    const InputPages pages(input->data(), input->size(), kGiveBackMinBytes);
    whole(std::shared_ptr<const std::string>(input));
  }

  // A reader that reads the input itself (Reader::read / Reader::stream). Keeping the plans, the
  // rules run once at the end; streaming, each plan is linted as it arrives and dropped. Either
  // way, findings name their execution (Diagnostic::plan_label) when the reader's plans are ones.
  template <class Read>
  void read(const Reader& reader, const Read& read) {
    if (options_.keep_plans) {
      out_.result.parse = read(PlanSink{});
      out_.result.diagnostics = run_rules(out_.result.parse, config_);
      label_diagnostics(out_.result.diagnostics, out_.result.parse);
      finish("");
      refuse("", false, reader.format, reader.traits);
      return;
    }
    std::vector<Diagnostic> found;
    std::size_t index = 0;
    PlanSink sink = [&](Plan&& plan) {
      ParseResult one;
      one.path = out_.path;
      one.format = reader.format;
      one.traits = reader.traits;
      PlanLabel label = plan_label(plan, reader.traits);
      one.plans.push_back(std::move(plan));
      for (auto& d : run_rules(one, config_)) {
        d.plan_index = index;
        d.plan_label = label;
        found.push_back(std::move(d));
      }
      ++index;
      ++plans_read_;
    };
    out_.result.parse = read(sink);
    out_.result.diagnostics = std::move(found);
    finish("");
    refuse("", false, reader.format, reader.traits);
  }

  [[nodiscard]] const ReadOptions& read_options() const { return read_; }

  // LintOptions::lint_each_plan: each plan is linted as soon as the reader hands it over
  // (ReadOptions::each_plan) and dropped; the plans of a reader that keeps them are linted in order
  // once read and dropped too. The findings are those of run_rules, in the same order.
  void each_plan(const Reader& reader, std::string_view text) {
    EachPlan each(config_, out_.result.diagnostics);
    read_.each_plan = [&](Plan&& plan) {
      const Plan one = std::move(plan);  // freed when its findings are made
      each.lint(one, reader.traits);
    };
    out_.result.parse = reader.parse(text, out_.path, read_);
    read_.each_plan = nullptr;
    each.lint_kept(out_.result.parse);
  }

  // A large regular file whose reader reads it in pieces (Reader::parse_file), for a caller that
  // keeps at most the lines findings show (LintRequest::keep Lines or Nothing): linted as whole()
  // lints the file's bytes with lint_each_plan. False when the reader leaves the file to be read
  // whole (nothing is set then). With `lines`, Linted::source names the file and its identity as it
  // was read (stat'ed before and after the read: a file that changed meanwhile gets none, so no
  // line of it is shown).
  bool pieces(const Reader& reader, const std::string& path, bool lines) {
    std::optional<ParseResult> parse;
    std::optional<FileIdentity> before, after;
    if (const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC); fd >= 0) {
      struct stat st {};
      if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        before = identity_of(st);
        parse = reader.parse_file(fd, out_.path, config_.max_input_bytes);
        if (lines && parse) after = identity_of(fd);
      }
      ::close(fd);
    }
    if (!parse) return false;
    if (lines && before && after && *before == *after) out_.source = std::make_shared<SourceFile>(path, *before);
    out_.result.parse = std::move(*parse);
    EachPlan(config_, out_.result.diagnostics).lint_kept(out_.result.parse);
    // The directives: none in bytes a reader read in pieces (Reader::parse_file: JSON, none of whose
    // lines starts with a comment). Not a plan: the result holds operators, so the text is not asked.
    finish("");
    refuse("", true, out_.result.parse.format, out_.result.parse.traits);
    return true;
  }

  // LintOptions::refuse_non_plans, once the input is read: `text` is the whole input ("" when a
  // reader read it itself).
  void refuse(std::string_view text, bool whole, InputFormat format, InputTraits traits) {
    if (!options_.refuse_non_plans || !out_.error.empty()) return;
    const ParseResult& parse = out_.result.parse;
    std::size_t plans = options_.keep_plans || whole ? parse.plans.size() + parse.handed_over_plans : plans_read_;
    if (traits.executions && config_.execution && plans == 0) {
      out_.error = out_.path + ": no SQL execution " + std::to_string(*config_.execution) + " in this " +
                   std::string(traits.display_name) + " (leave out --execution to check them all)";
    } else if (whole) {
      if (std::string why = not_a_plan(text, parse); !why.empty())
        // "path:3:1: not a plan: ..." when the reader gave a position, else "path: is empty, ...".
        out_.error = out_.path + (std::isdigit(static_cast<unsigned char>(why[0])) ? ":" : ": ") + why;
    }
    if (!out_.error.empty()) {
      out_.source.reset();
      out_.result = LintResult{};
      out_.result.parse.format = format;
      out_.result.parse.traits = traits;
      out_.suppressed = 0;
    }
  }

 private:
  void finish(std::string_view text) {
    if (!options_.finish) return;
    out_.suppressed = directives_ ? finish_diagnostics(out_.result, *directives_, config_)
                                  : finish_diagnostics(out_.result, text, config_);
  }

  Linted& out_;
  const Config& config_;
  const LintOptions& options_;
  ReadOptions read_;
  std::size_t plans_read_ = 0;
  std::optional<std::vector<Suppression>> directives_;  // found before the parse (whole_giving_back)
};

}  // namespace

Linted lint_input(const LintRequest& request, const Config& config, const LintOptions& options) {
  Linted out;
  out.path = request.display.empty() ? request.path : request.display;
  InputLinter linter(out, config, options);
  const ReadOptions& ro = linter.read_options();

  if (request.text) {
    linter.whole(*request.text);
    return out;
  }
  std::string error;
  std::uint64_t size = 0;
  // A file a folder walk listed: open it and ask the descriptor (one path lookup, not two); when it
  // is no longer a regular file, or cannot be opened, the usual way below says what it is.
  const int listed_fd = request.listed_regular ? open_if_regular(request.path, size) : -1;
  const InputKind kind = listed_fd >= 0 ? InputKind::File : input_kind(request.path, error, size);
  if (kind == InputKind::Unreadable) {  // missing, a character device, ...
    out.error = error;
    return out;
  }
  const auto stream_claimed = [&](const Reader& r) {
    while (out.path.size() > 1 && out.path.back() == '/') out.path.pop_back();  // "eventlog_v2_x/"
    linter.read(r, [&](const PlanSink& sink) { return r.read(request.path, out.path, ro, sink); });
    if (!options.keep_plans) {
      out.result.parse.format = r.format;
      out.result.parse.traits = r.traits;
    }
  };
  // Each plan linted and dropped as the reader hands it over: nothing but the input's bytes (and
  // the findings) outlives the parse.
  const bool plan_by_plan = !options.keep_plans && options.lint_each_plan;
  // A whole input read into memory (or the error that stopped the read), kept for the report.
  // `lines_in_file`: the lines its findings show are fetched from the file (Linted::source; only
  // for a file of kGiveBackMinBytes or more linted plan by plan).
  const auto lint_read = [&](std::optional<std::string> text, bool lines_in_file = false) {
    if (!text) {
      out.error = error;
      return;
    }
    // Nothing of it is read once linted: a reader may give back what it has read of it.
    if (lines_in_file || (request.keep == KeepInput::Nothing && plan_by_plan && text->size() >= kGiveBackMinBytes)) {
      auto input = std::make_shared<std::string>(std::move(*text));
      out.input = input;
      linter.whole_giving_back(input);
      if (lines_in_file) out.input.reset();  // bytes of it are gone: the lines come from the file
      return;
    }
    out.input = std::make_shared<const std::string>(std::move(*text));
    linter.whole(out.input);
  };
  if (kind == InputKind::File) {
    // One open (and the stat above): the first bytes say whether a reader opens the file itself
    // (an event log, streamed), else the rest is read into the buffer the plans view. A large file
    // whose reader reads it in pieces, when nothing of the input is kept, is left to that reader
    // (opened again; read whole after all when the reader leaves it, as it does a damaged one).
    const Reader* claimed = nullptr;
    const Reader* in_pieces = nullptr;
    const bool may_read_in_pieces = request.keep != KeepInput::Whole && plan_by_plan && size >= kPiecesMinBytes &&
                                    static_cast<double>(size) <= config.max_input_bytes;
    const auto claims = [&](std::string_view head) {
      if ((claimed = reader_claiming_file(request.path, head)) != nullptr) return true;
      if (may_read_in_pieces)
        if (const Reader& r = reader_for(head); r.parse_file) in_pieces = &r;
      return in_pieces != nullptr;
    };
    // KeepInput::Lines: the lines a large file's findings show are fetched from the file when they
    // are printed (Linted::source), as those of a file read in pieces are, when the file read is
    // still the one its path names (identity before and after the read): its bytes need not be
    // kept, and the reader may give back what it has read (lint_read).
    const bool lines_from_file = request.keep == KeepInput::Lines && plan_by_plan && size >= kGiveBackMinBytes;
    std::optional<FileIdentity> before;
    if (lines_from_file) before = listed_fd >= 0 ? identity_of(listed_fd) : path_identity(request.path);
    auto text = listed_fd >= 0
                    ? read_fd_once(listed_fd, request.path, size, config.max_input_bytes, kDetectBytes, claims, error)
                    : read_file_once(request.path, size, config.max_input_bytes, kDetectBytes, claims, error);
    if (claimed) {
      stream_claimed(*claimed);
      return out;
    }
    if (in_pieces) {
      if (linter.pieces(*in_pieces, request.path, request.keep == KeepInput::Lines)) return out;
      text = read_file_once(request.path, size, config.max_input_bytes, kDetectBytes,
                            [](std::string_view) { return false; }, error);
    }
    if (lines_from_file && text && !in_pieces) {
      if (const auto after = path_identity(request.path); before && after && *before == *after) {
        out.source = std::make_shared<SourceFile>(request.path, *before);
        lint_read(std::move(text), true);
        return out;
      }
    }
    lint_read(std::move(text));
    return out;
  }
  if (kind == InputKind::Directory) {
    // Inputs a reader opens itself: a rolling event-log directory, a (compressed) event log.
    if (const Reader* r = reader_claiming(request.path)) {
      stream_claimed(*r);
      return out;
    }
    lint_read(read_input(request.path, error, config.max_input_bytes));
    return out;
  }
  // Standard input, a pipe, a FIFO, /dev/stdin, <(...): read once. The format is detected on the
  // bytes already read, then the input is streamed (when the format streams) or read whole, within
  // the maximum input size.
  std::optional<FdInputStream> file;
  if (kind == InputKind::Stream) {
    std::string why;
    const int fd = open_stream(request.path, why);
    if (fd < 0) {
      out.error = request.path + ": cannot be opened: " + why;
      return out;
    }
    file.emplace(fd);
  }
  std::istream& in = kind == InputKind::Stdin ? std::cin : *file;
  const std::string name = kind == InputKind::Stdin ? std::string("standard input") : request.path;
  std::string head(kDetectBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
  const Reader& r = reader_for(head);
  if (r.stream && !options.keep_plans) {
    HeadThenRest buf(std::move(head), *in.rdbuf());
    std::istream joined(&buf);
    linter.read(r, [&](const PlanSink& sink) { return r.stream(joined, out.path, ro, sink); });
    out.result.parse.format = r.format;
    out.result.parse.traits = r.traits;
    return out;
  }
  std::string text = std::move(head);
  // read_rest also counts the bytes read for detection (a stream shorter than that is at its end).
  if (!read_rest(in, text, config.max_input_bytes, name, error)) {
    out.error = error;
    return out;
  }
  // The engine's own buffer, as a file's is: with nothing of it kept, the reader may give back what
  // it has read (lint_read). Its lines cannot be fetched again, so KeepInput::Lines keeps it whole.
  lint_read(std::move(text));
  return out;
}

LintOptions lint_options(LintMode mode) {
  LintOptions o;  // finish, keep the plans, accept anything: Editor
  switch (mode) {
    case LintMode::Check:
      o.keep_plans = false;
      o.lint_each_plan = true;
      o.refuse_non_plans = true;
      break;
    case LintMode::Editor: break;
    case LintMode::Show: o.refuse_non_plans = true; break;
    case LintMode::Inspect:
      o.finish = false;
      o.refuse_non_plans = true;
      break;
    case LintMode::Test: o.finish = false; break;
  }
  return o;
}

LintResult lint_text(std::string_view text, const std::string& path, const Config& config) {
  LintRequest request;
  request.path = path;
  request.text = text;
  return std::move(lint_input(request, config, lint_options(LintMode::Test)).result);
}

LintResult lint_text(std::shared_ptr<const std::string> input, const std::string& path, const Config& config) {
  if (!input) return lint_text(std::string_view(), path, config);
  Linted out;
  out.path = path;
  LintOptions options = lint_options(LintMode::Test);
  InputLinter linter(out, config, options);
  linter.whole(input);
  return std::move(out.result);
}

}  // namespace planlint
