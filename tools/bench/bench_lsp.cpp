// `planlint_bench lsp`: how long an editor waits for planlint's diagnostics. Drives the language
// server in-process (lsp::Server over string streams, JSON encoding and framing included) with a
// generated EXPLAIN FORMATTED plan and a generated Query Profile of the given size, and reports
// the median latency of didOpen -> publishDiagnostics, didChange -> publishDiagnostics, hover and
// documentSymbol. Budget, so that an editor stays responsive: diagnostics for a 1 MB plan within
// 1 s on one core.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lint/lsp/lsp_server.hpp"
#include "tools/gen/generate.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using json = nlohmann::json;

// This thread's CPU time in ms: on a shared machine wall-clock latency also counts the waits for a core.
double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

struct Figures {
  double open_ms = 0, change_ms = 0, hover_ms = 0, symbols_ms = 0;
  // CPU time of the same: didOpen, of which reading the message (JSON, the text copied, line
  // index), and didChange.
  double open_cpu_ms = 0, open_handle_cpu_ms = 0, change_cpu_ms = 0;
  std::size_t diagnostics = 0;
};

Figures measure(const std::string& text, const std::string& uri, int runs) {
  std::vector<double> open, open_cpu, open_handle_cpu, change, change_cpu, hover, symbols;
  Figures f;
  for (int run = 0; run < runs; ++run) {
    std::ostringstream out;
    planlint::lsp::Server server(out);
    server.handle(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}})");
    json open_msg = {{"jsonrpc", "2.0"},
                     {"method", "textDocument/didOpen"},
                     {"params", {{"textDocument", {{"uri", uri}, {"languageId", "sparkplan"}, {"version", 1}, {"text", text}}}}}};
    std::string body = open_msg.dump();  // the client's encoding is not the server's time
    auto t0 = Clock::now();
    double c0 = cpu_ms();
    server.handle(body);
    open_handle_cpu.push_back(cpu_ms() - c0);
    server.flush();
    open.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    open_cpu.push_back(cpu_ms() - c0);

    json change_msg = {{"jsonrpc", "2.0"},
                       {"method", "textDocument/didChange"},
                       {"params", {{"textDocument", {{"uri", uri}, {"version", 2}}},
                                   {"contentChanges", json::array({{{"text", text + "\n"}}})}}}};
    body = change_msg.dump();
    t0 = Clock::now();
    c0 = cpu_ms();
    server.handle(body);
    server.flush();
    change.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    change_cpu.push_back(cpu_ms() - c0);

    // Hover in the middle of the document.
    std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    json hover_msg = {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "textDocument/hover"},
                      {"params", {{"textDocument", {{"uri", uri}}}, {"position", {{"line", lines / 2}, {"character", 8}}}}}};
    t0 = Clock::now();
    server.handle(hover_msg.dump());
    hover.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());

    json sym_msg = {{"jsonrpc", "2.0"}, {"id", 3}, {"method", "textDocument/documentSymbol"},
                    {"params", {{"textDocument", {{"uri", uri}}}}}};
    t0 = Clock::now();
    server.handle(sym_msg.dump());
    symbols.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());

    // Count the published diagnostics once.
    if (run == 0) {
      std::istringstream in(out.str());
      planlint::lsp::FrameReader reader(in);
      for (;;) {
        auto frame = reader.read();
        if (frame.status != planlint::lsp::FrameStatus::Message) break;
        json m = json::parse(frame.body, nullptr, false);
        if (m.is_object() && m.value("method", "") == "textDocument/publishDiagnostics")
          f.diagnostics = m["params"]["diagnostics"].size();
      }
    }
  }
  f.open_ms = median(open);
  f.open_cpu_ms = median(open_cpu);
  f.open_handle_cpu_ms = median(open_handle_cpu);
  f.change_cpu_ms = median(change_cpu);
  f.change_ms = median(change);
  f.hover_ms = median(hover);
  f.symbols_ms = median(symbols);
  return f;
}

// Time per incremental didChange of one character on 0-based line `line`, without linting: what
// each keystroke costs the server before the coalesced lint (the reliability probe's R2: it used to copy the
// text and rescan it for line starts). Line 0 is the worst place: the rest of the string moves
// and every line start after the edit shifts.
double edit_us(const std::string& text, const std::string& uri, int edits, std::size_t line) {
  std::ostringstream out;
  planlint::lsp::Server server(out);
  server.handle(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}})");
  json open_msg = {{"jsonrpc", "2.0"},
                   {"method", "textDocument/didOpen"},
                   {"params", {{"textDocument", {{"uri", uri}, {"languageId", "sparkplan"}, {"version", 1}, {"text", text}}}}}};
  server.handle(open_msg.dump());
  std::vector<std::string> bodies;
  for (int i = 0; i < edits; ++i) {
    json range = {{"start", {{"line", line}, {"character", 0}}}, {"end", {{"line", line}, {"character", 0}}}};
    bodies.push_back(json{{"jsonrpc", "2.0"},
                          {"method", "textDocument/didChange"},
                          {"params", {{"textDocument", {{"uri", uri}, {"version", i + 2}}},
                                      {"contentChanges", json::array({{{"range", range}, {"text", " "}}})}}}}
                         .dump());
  }
  auto t0 = Clock::now();
  for (const auto& b : bodies) server.handle(b);
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / std::max(1, edits);
}

}  // namespace

int bench_lsp(int argc, char** argv) {
  CLI::App app{"LSP latency: didOpen/didChange -> publishDiagnostics, hover, documentSymbol"};
  double size_mb = 1;
  int runs = 5;
  double budget_ms = 1000;
  int edits = 200;
  app.add_option("--size-mb", size_mb, "generated document size in MiB (2^20 bytes)")->check(CLI::PositiveNumber);
  app.add_option("--runs", runs, "runs per figure (the median is shown)")->check(CLI::PositiveNumber);
  app.add_option("--budget-ms", budget_ms, "diagnostics latency budget for the document");
  std::string plan_file, profile_file;
  app.add_option("--edits", edits, "single-character incremental edits timed per document")->check(CLI::PositiveNumber);
  app.add_option("--plan-file", plan_file, "a plan file to open instead of the generated plan")->check(CLI::ExistingFile);
  app.add_option("--profile-file", profile_file, "a Query Profile to open instead of the generated profile")
      ->check(CLI::ExistingFile);
  CLI11_PARSE(app, argc, argv);

  auto slurp = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  };
  auto bytes = static_cast<std::size_t>(size_mb * 1024 * 1024);
  std::string plan =
      plan_file.empty() ? planlint::gen::formatted_plan(std::max<std::size_t>(1, bytes / 360)) : slurp(plan_file);
  std::string profile =
      profile_file.empty() ? planlint::gen::profile_json(std::max<std::size_t>(1, bytes / 600)) : slurp(profile_file);
  std::printf("== lsp: median of %d runs, budget %.0f ms for diagnostics\n", runs, budget_ms);
  bool over = false;
  for (auto [name, text, uri] : {std::tuple{"explain", &plan, "file:///bench/plan.explain.txt"},
                                 std::tuple{"profile", &profile, "file:///bench/profile.json"}}) {
    Figures f = measure(*text, uri, runs);
    bool ok = f.open_ms <= budget_ms && f.change_ms <= budget_ms;
    over = over || !ok;
    double mb = static_cast<double>(text->size()) / 1e6;  // MB = 10^6 bytes
    std::printf("%-8s %7.2f MB  didOpen->diagnostics %8.1f ms  didChange->diagnostics %8.1f ms  hover %6.2f ms  "
                "documentSymbol %7.1f ms  (%zu diagnostics) %s\n"
                "%-8s   CPU time per MB (10^6 bytes): didOpen %6.1f ms/MB  didChange %6.1f ms/MB  (didOpen CPU: message "
                "%.1f ms, lint and publish %.1f ms)\n",
                name, mb, f.open_ms, f.change_ms, f.hover_ms, f.symbols_ms, f.diagnostics,
                ok ? "within budget" : "OVER BUDGET", "", f.open_cpu_ms / mb, f.change_cpu_ms / mb,
                f.open_handle_cpu_ms, f.open_cpu_ms - f.open_handle_cpu_ms);
  }
  for (auto [name, text, uri] : {std::tuple{"explain", &plan, "file:///bench/plan.explain.txt"},
                                 std::tuple{"profile", &profile, "file:///bench/profile.json"}}) {
    auto last = static_cast<std::size_t>(std::count(text->begin(), text->end(), '\n'));
    std::printf("%-8s %7.2f MB  incremental didChange of 1 character (no lint): at the start %8.1f us, on the last "
                "line %8.1f us per edit (%d edits)\n",
                name, static_cast<double>(text->size()) / 1e6, edit_us(*text, uri, edits, 0),
                edit_us(*text, uri, edits, last), edits);
  }
  if (over) std::printf("lsp: diagnostics latency is over the budget\n");
  return 0;  // a measuring tool: the figure is reported, never a failure (see bench_main.cpp)
}
