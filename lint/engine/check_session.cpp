#include "lint/engine/check_session.hpp"

#include <algorithm>
#include <atomic>
#include <functional>
#include <mutex>
#include <new>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include "lint/core/baseline.hpp"
#include "lint/core/output_file.hpp"
#include "lint/core/sanitize.hpp"
#include "parser/eventlog/eventlog.hpp"

namespace planlint {

namespace fs = std::filesystem;

namespace {

std::string error_line(const std::string& message) { return "planlint: error: " + visible(message); }

fs::path folder_of(const std::string& path) {
  fs::path p(path);
  return p.has_parent_path() ? p.parent_path() : fs::path(".");
}

// The report of a file that ran out of memory: its partial results are dropped (and their memory
// freed), and the error names it.
FileReport out_of_memory(const std::string& display) {
  FileReport r;
  r.path = display;
  r.error = display + ": out of memory";
  return r;
}

// "planlint: error: no plan found in a, b (looked for ...); nothing was checked"
std::string nothing_found(const CheckPlan& plan) {
  std::string globs, where;
  for (const auto& g : plan.include.patterns) globs += (globs.empty() ? "" : ", ") + g;
  for (std::size_t i = 0; i < plan.args.size(); ++i) where += (i ? ", " : "") + plan.args[i];
  return "planlint: error: no plan found in " + where + " (looked for " + globs +
         ", rolling eventlog_v2_* folders and Spark event logs by content); nothing was checked";
}

// The inputs of `plan`, from the config nearest to the current folder (`top`) and the request.
void find_inputs(CheckPlan& plan, const CheckRequest& request, const ProjectConfig& top) {
  plan.include = GlobSet{request.include.empty() ? (top.include.empty() ? default_include() : top.include)
                                                 : request.include,
                         request.include.empty() && !top.include.empty() ? top.root : fs::path()};
  std::vector<GlobSet> exclude{GlobSet{request.exclude, {}}};
  if (!top.exclude.empty()) exclude.push_back(GlobSet{top.exclude, top.root});
  std::vector<std::string> errors;
  plan.inputs = collect_inputs(plan.args, plan.include, exclude, errors, &plan.walked, &plan.listed_regular);
  for (const auto& e : errors) plan.errors.push_back(error_line(e));
  plan.missing_inputs = !errors.empty();
}

// Outputs never overwrite an input (the same file after resolving links). False after an error.
bool refuse_output_over_input(CheckPlan& plan, const CheckRequest& request) {
  for (const auto* out : {&request.output, &request.write_baseline})
    if (auto in = output_is_input(*out, plan.inputs)) {
      plan.errors.push_back(error_line((out == &request.output ? "-o " : "--write-baseline ") + *out +
                                       " is the input " + *in + ": refusing to overwrite it"));
      plan.status = 2;
      return false;
    }
  return true;
}

// The configuration of every input, resolved before the work is spread over threads.
// The project config of every input is looked up once per folder: inputs whose names agree up to
// their last `/` have the same folder (folder_of drops the last component and the separators
// before it), and a folder walk lists the files of a folder one after the other.
bool resolve_configs(CheckPlan& plan, const CheckRequest& request) {
  std::unordered_map<std::string, const ProjectConfig*> by_prefix;
  std::string last_prefix;
  const ProjectConfig* last = nullptr;
  plan.configs.reserve(plan.inputs.size());
  plan.displays.reserve(plan.inputs.size());
  for (const auto& in : plan.inputs) {
    const bool stdin_unnamed = in == "-" && request.stdin_filename.empty();
    std::string shown = in == "-" && !request.stdin_filename.empty() ? request.stdin_filename : in;
    const ProjectConfig* pc = nullptr;
    std::size_t slash = shown.rfind('/');
    std::string_view prefix = stdin_unnamed || slash == std::string::npos
                                  ? std::string_view()
                                  : std::string_view(shown).substr(0, slash + 1);
    if (last && prefix == last_prefix) {
      pc = last;
    } else if (auto it = by_prefix.find(std::string(prefix)); it != by_prefix.end()) {
      pc = it->second;
    } else {
      fs::path dir = stdin_unnamed ? fs::path(".") : folder_of(shown);
      std::string error;
      pc = plan.configs_cache->for_dir(dir, error);
      if (!pc) {
        plan.errors.push_back(visible(error));
        plan.status = 2;
        return false;
      }
      by_prefix.emplace(prefix, pc);
    }
    last = pc;
    last_prefix = prefix;
    plan.configs.push_back(apply_settings(
        pc->per_file_ignores.empty() ? pc->config
                                     : config_for_path(*pc, shown == "-" ? fs::path("stdin") : fs::path(shown)),
        request.cli));
    if (request.execution >= 0) plan.configs.back().execution = request.execution;
    if (request.max_input_bytes > 0) plan.configs.back().max_input_bytes = request.max_input_bytes;
    plan.displays.push_back(shown);
  }
  return true;
}

// What is kept of a report once it was handed to `emit` (run): what the run (its error lines, the
// folder walk's summary) and exit_code read.
void reduce_emitted(FileReport& r) {
  FileReport kept;
  kept.path = std::move(r.path);
  kept.format = r.format;
  kept.traits = r.traits;
  kept.error = std::move(r.error);
  kept.suppressed = r.suppressed;
  kept.baselined = r.baselined;
  const Diagnostic* top = nullptr;
  for (const auto& d : r.diagnostics)
    if (!top || d.severity > top->severity) top = &d;
  if (top) {
    Diagnostic d;
    d.rule = top->rule;
    d.code = top->code;
    d.severity = top->severity;
    kept.diagnostics.push_back(std::move(d));
  }
  r = std::move(kept);
}

// The reports of every input, `jobs` at a time (stdin, read once, on this thread only); with
// `emit`, each handed over in input order as soon as it and those before it are made, then reduced.
std::vector<FileReport> check_all(const CheckPlan& plan, unsigned jobs, KeepInput keep_inputs,
                                  const std::function<void(const FileReport&)>& emit) {
  const auto& inputs = plan.inputs;
  std::vector<FileReport> reports(inputs.size());
  if (!jobs) jobs = std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(1, inputs.size())));
  std::atomic<std::size_t> next{0};
  // Emission: which reports are made, and how many were handed over (under the lock; a report is
  // written by its worker before it is marked made, and read by the emitter after).
  std::mutex emitting;
  std::vector<char> made(emit ? inputs.size() : 0);
  std::size_t emitted = 0;
  const auto done = [&](std::size_t i) {
    if (!emit) return;
    const std::lock_guard<std::mutex> lock(emitting);
    made[i] = 1;
    for (; emitted < inputs.size() && made[emitted]; ++emitted) {
      emit(reports[emitted]);
      reduce_emitted(reports[emitted]);
    }
  };
  auto worker = [&] {
    for (std::size_t i = next++; i < inputs.size(); i = next++) {
      // Event logs (files of any codec, rolling directories) are streamed, never read whole.
      // Pipes and FIFOs are read once; character devices are refused (lint/engine/lint.cpp).
      try {
        reports[i] = check_input(inputs[i], plan.configs[i], plan.displays[i],
                                 i < plan.listed_regular.size() && plan.listed_regular[i], keep_inputs);
        if (keep_inputs == KeepInput::Nothing) reports[i].input.reset();
      } catch (const std::bad_alloc&) {  // this file is reported, the others still are checked
        reports[i] = out_of_memory(plan.displays[i]);
      } catch (const std::length_error&) {
        reports[i] = out_of_memory(plan.displays[i]);
      }
      done(i);
    }
  };
  if (jobs <= 1 || std::count(inputs.begin(), inputs.end(), "-")) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (unsigned j = 0; j < jobs; ++j) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }
  return reports;
}

// What a folder walk found, by kind: "planlint: checked 5 files: 3 event logs, 2 explain texts".
std::string walk_summary(const std::vector<FileReport>& reports) {
  std::map<std::string, std::size_t> kinds;
  for (const auto& r : reports) ++kinds[!r.error.empty() ? "unreadable" : std::string(r.traits.display_name)];
  std::string line = "planlint: checked " + std::to_string(reports.size()) + (reports.size() == 1 ? " file:" : " files:");
  bool first = true;
  for (const auto& [k, n] : kinds) {
    line += (first ? " " : ", ") + std::to_string(n) + " " + k + (n == 1 || k == "unreadable" ? "" : "s");
    first = false;
  }
  return line;
}

// --write-baseline and --baseline. False after an error.
bool apply_baselines(CheckRun& out, const CheckRequest& request) {
  std::string err;
  if (!request.write_baseline.empty()) {
    if (!write_baseline(request.write_baseline, out.reports, err)) return out.errors.push_back(error_line(err)), false;
    std::size_t n = 0;
    for (const auto& r : out.reports) n += r.diagnostics.size();
    if (!request.quiet)
      out.errors.push_back("planlint: wrote " + std::to_string(n) + " finding" + (n == 1 ? "" : "s") +
                           " to the baseline " + request.write_baseline);
  }
  if (!request.baseline.empty()) {
    auto baseline = read_baseline(request.baseline, err);
    if (!baseline) return out.errors.push_back(error_line(err)), false;
    for (auto& r : out.reports) apply_baseline(*baseline, r, request.baseline);
  }
  return true;
}

}  // namespace

const ProjectConfig* ConfigCache::for_dir(const fs::path& dir, std::string& error) {
  if (no_config_) return &defaults_;
  if (!config_file_.empty()) return load(config_file_, error);
  auto found = find(dir);
  if (!found) return &defaults_;
  return load(*found, error);
}

std::optional<fs::path> ConfigCache::find(const fs::path& dir) {
  fs::path d = search_start(dir);
  if (d.empty()) return std::nullopt;
  std::vector<std::string> walked;
  std::optional<fs::path> result;
  while (true) {
    std::string key = d.string();
    if (auto it = found_.find(key); it != found_.end()) {
      result = it->second;
      break;
    }
    walked.push_back(std::move(key));
    if ((result = config_file_in(d))) break;
    if (!d.has_relative_path() || d.parent_path() == d) break;
    d = d.parent_path();
  }
  for (auto& k : walked) found_.emplace(std::move(k), result);
  return result;
}

const ProjectConfig* ConfigCache::load(const fs::path& file, std::string& error) {
  std::string key = fs::absolute(file).lexically_normal().string();
  if (auto it = cache_.find(key); it != cache_.end()) return it->second.get();
  ConfigError err;
  auto pc = load_config_file(file, err);
  if (!pc) {
    error = err.str();
    return nullptr;
  }
  return (cache_[key] = std::make_unique<ProjectConfig>(std::move(*pc))).get();
}

CheckPlan plan_check(const CheckRequest& request) {
  return plan_check(request, std::make_shared<ConfigCache>(request.config_file, request.no_config));
}

CheckPlan plan_check(const CheckRequest& request, std::shared_ptr<ConfigCache> configs) {
  CheckPlan plan;
  plan.configs_cache = std::move(configs);
  plan.args = request.paths.empty() ? std::vector<std::string>{"-"} : request.paths;
  std::string error;
  const ProjectConfig* top = plan.configs_cache->for_dir(".", error);
  if (!top) {
    plan.errors.push_back(visible(error));
    plan.status = 2;
    return plan;
  }
  find_inputs(plan, request, *top);
  if (!refuse_output_over_input(plan, request)) return plan;
  if (plan.inputs.empty()) {  // like pytest's "no tests ran": checking nothing is not a pass
    if (!plan.missing_inputs) plan.errors.push_back(nothing_found(plan));
    plan.status = 2;
    return plan;
  }
  resolve_configs(plan, request);
  return plan;
}

bool hands_reports_over(const CheckRequest& request) {
  return !request.against && request.baseline.empty() && request.write_baseline.empty();
}

CheckRun run(const CheckPlan& plan, const CheckRequest& request) { return run(plan, request, nullptr); }

CheckRun run(const CheckPlan& plan, const CheckRequest& request, const std::function<void(const FileReport&)>& emit) {
  CheckRun out;
  // --against and the baselines read every report whole after the run: nothing is handed over early.
  const bool emits = emit && hands_reports_over(request);
  out.reports = check_all(plan, request.jobs, request.against.has_value() ? KeepInput::Whole : request.keep_inputs,
                          emits ? emit : std::function<void(const FileReport&)>());
  if (request.against) {
    std::string error;
    if (!request.against->available(error)) {
      out.errors.push_back(error_line(error));
      out.status = 2;
      return out;
    }
    for (std::size_t i = 0; i < out.reports.size(); ++i)
      if (plan.inputs[i] != "-" && out.reports[i].error.empty())
        request.against->add(plan.inputs[i], out.reports[i], plan.configs[i]);
  }
  out.unreadable = plan.missing_inputs;
  for (const auto& r : out.reports)
    if (!r.error.empty()) {
      out.errors.push_back(error_line(r.error));
      out.unreadable = true;
    }
  if (plan.walked && !request.quiet) out.errors.push_back(walk_summary(out.reports));
  if (!apply_baselines(out, request)) out.status = 2;
  return out;
}

bool any_unreadable(const std::vector<FileReport>& reports) {
  return std::any_of(reports.begin(), reports.end(), [](const FileReport& r) { return !r.error.empty(); });
}

int exit_code(const std::vector<FileReport>& reports, Severity fail_on, bool exit_zero, bool unreadable) {
  if (unreadable) return 2;
  if (exit_zero) return 0;
  for (const auto& r : reports)
    for (const auto& d : r.diagnostics)
      if (d.severity >= fail_on) return 1;
  return 0;
}

}  // namespace planlint
