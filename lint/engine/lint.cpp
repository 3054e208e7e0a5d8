// lint_input(): the one way an input is linted (lint/engine/engine.hpp).
#include <algorithm>
#include <iostream>
#include <sstream>
#include <streambuf>
#include <tuple>

#include "lint/engine/engine.hpp"
#include "lint/engine/input.hpp"
#include "lint/engine/known_rules.hpp"
#include "lint/engine/suppress.hpp"
#include "parser/registry/reader.hpp"

namespace planlint {

std::string execution_label(const Plan& plan) {
  std::string label = "execution " + plan.query.statement_id;
  std::string desc;
  for (char c : plan.query.description) desc += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  while (!desc.empty() && desc.back() == ' ') desc.pop_back();
  constexpr std::size_t kMax = 80;  // descriptions can be whole SQL statements
  if (desc.size() > kMax) {
    std::size_t cut = kMax;
    while (cut > 0 && (static_cast<unsigned char>(desc[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
    desc = desc.substr(0, cut) + "...";
  }
  if (!desc.empty()) label += " (" + desc + ")";
  return label;
}

std::size_t finish_diagnostics(LintResult& lint, std::string_view text, const Config& config) {
  std::vector<Diagnostic>& diags = lint.diagnostics;
  if (is_reported(config, kParseErrorRule)) {
    for (auto& d : parse_error_diagnostics(lint.parse)) {
      if (auto s = config.severity.find(d.rule); s != config.severity.end()) d.severity = s->second;
      diags.push_back(std::move(d));
    }
  }
  std::size_t suppressed = apply_suppressions(find_suppressions(text), diags, config);
  // Reading order; findings on one operator stay together (same position, stable order).
  std::stable_sort(diags.begin(), diags.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.range.line, a.range.column) < std::tie(b.range.line, b.range.column);
  });
  return suppressed;
}

namespace {

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

class Linter {
 public:
  Linter(Linted& out, const Config& config, const LintOptions& options) : out_(out), config_(config), options_(options) {
    read_.execution = config.execution;
  }

  // A whole buffer: the reader the registry picks for it, then the rules.
  void whole(std::string_view text) {
    out_.result.parse = reader_for(text.substr(0, kDetectBytes)).parse(text, out_.path, read_);
    out_.result.diagnostics = run_rules(out_.result.parse, config_);
    // A History Server answer holds several executions: as for streamed event logs, each finding
    // names its execution.
    const ParseResult& parse = out_.result.parse;
    if (parse.format == InputFormat::HistoryServer)
      for (auto& d : out_.result.diagnostics)
        if (d.plan_index < parse.plans.size()) d.message = execution_label(parse.plans[d.plan_index]) + ": " + d.message;
    finish(text);
  }

  // A reader that reads the input itself (Reader::read / Reader::stream). Keeping the plans, the
  // rules run once at the end; streaming, each plan is linted as it arrives and dropped, and its
  // findings name its execution.
  template <class Read>
  void read(InputFormat format, const Read& read) {
    if (options_.keep_plans) {
      out_.result.parse = read(PlanSink{});
      out_.result.diagnostics = run_rules(out_.result.parse, config_);
      finish("");
      return;
    }
    std::vector<Diagnostic> found;
    std::size_t index = 0;
    PlanSink sink = [&](Plan&& plan) {
      ParseResult one;
      one.path = out_.path;
      one.format = format;
      std::string label = execution_label(plan);
      one.plans.push_back(std::move(plan));
      for (auto& d : run_rules(one, config_)) {
        d.plan_index = index;
        d.message = label + ": " + d.message;
        found.push_back(std::move(d));
      }
      ++index;
    };
    out_.result.parse = read(sink);
    out_.result.diagnostics = std::move(found);
    finish("");
  }

  [[nodiscard]] const ReadOptions& read_options() const { return read_; }

 private:
  void finish(std::string_view text) {
    if (options_.finish) out_.suppressed = finish_diagnostics(out_.result, text, config_);
  }

  Linted& out_;
  const Config& config_;
  const LintOptions& options_;
  ReadOptions read_;
};

}  // namespace

Linted lint_input(const LintRequest& request, const Config& config, const LintOptions& options) {
  Linted out;
  out.path = request.display.empty() ? request.path : request.display;
  Linter linter(out, config, options);
  const ReadOptions& ro = linter.read_options();

  if (request.text) {
    linter.whole(*request.text);
    return out;
  }
  if (request.path != "-") {
    // Inputs a reader opens itself: a rolling event-log directory, a (compressed) event log.
    if (const Reader* r = reader_claiming(request.path)) {
      while (out.path.size() > 1 && out.path.back() == '/') out.path.pop_back();  // "eventlog_v2_x/"
      linter.read(r->format, [&](const PlanSink& sink) { return r->read(request.path, out.path, ro, sink); });
      if (!options.keep_plans) out.result.parse.format = r->format;
      return out;
    }
  } else if (!options.keep_plans) {
    // Standard input: look at the first bytes, then stream when the format streams.
    std::string head(kDetectBytes, '\0');
    std::cin.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, std::cin.gcount())));
    const Reader& r = reader_for(head);
    if (r.stream) {
      HeadThenRest buf(std::move(head), *std::cin.rdbuf());
      std::istream in(&buf);
      linter.read(r.format, [&](const PlanSink& sink) { return r.stream(in, out.path, ro, sink); });
      out.result.parse.format = r.format;
      return out;
    }
    std::ostringstream rest;
    if (std::cin) rest << std::cin.rdbuf();
    out.text = head + rest.str();
    linter.whole(out.text);
    return out;
  }
  std::string error;
  auto text = read_input(request.path, error);
  if (!text) {
    out.error = error;
    return out;
  }
  out.text = std::move(*text);
  linter.whole(out.text);
  return out;
}

LintResult lint_text(std::string_view text, const std::string& path, const Config& config) {
  LintRequest request;
  request.path = path;
  request.text = text;
  LintOptions options;
  options.finish = false;
  return std::move(lint_input(request, config, options).result);
}

}  // namespace planlint
