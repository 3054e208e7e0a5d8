// The Spark event-log reader: JSON lines as written with spark.eventLog.enabled=true (the file
// the History Server reads). For each SQL execution it parses the last formatted plan (the
// start event's, replaced by each SparkListenerSQLAdaptiveExecutionUpdate) with the explain-text
// reader, attaches SQL metric values to operators through the accumulator ids of `sparkPlanInfo`,
// and attaches each stage's task-time distribution. One Plan per execution.
//
// Streaming: lines are read one at a time (from a plain or compressed file, or the events files
// of a rolling log directory) and only the events that matter are parsed as JSON; what is kept per
// running execution is its last plan text, the plan-info tree (names + accumulator ids), its
// accumulator values and, per stage, one number per task. An execution's plan is built when the
// execution ends and its state is dropped, so memory follows the executions running at once, not
// the length of the log.
#include "parser/eventlog/eventlog.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <istream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

#include "parser/common/json_id.hpp"
#include "parser/common/regular_file.hpp"
#include "parser/common/shown_children.hpp"
#include "parser/eventlog/eventlog_codec.hpp"
#include "parser/eventlog/task_end.hpp"
#include "parser/explain/explain.hpp"
#include "parser/registry/detect.hpp"
#include "parser/common/facts_fill.hpp"
#include "support/strings.hpp"

namespace planlint {

namespace {

using nlohmann::json;

std::string_view event_name(std::string_view line) {
  // Spark writes {"Event":"<name>",...}; find the value without parsing the whole line.
  auto p = line.find("\"Event\"");
  if (p == std::string_view::npos || p > 16) return {};
  p = line.find('"', p + 7);
  if (p == std::string_view::npos) return {};
  auto e = line.find('"', p + 1);
  if (e == std::string_view::npos) return {};
  return line.substr(p + 1, e - p - 1);
}

// The "Stage ID" of a task-end line, read without parsing the line (Spark writes it near the
// start); nullopt when it is not a plain integer there.
std::optional<long long> stage_id_of(std::string_view line) {
  auto p = line.find("\"Stage ID\":");
  if (p == std::string_view::npos || p > 64) return std::nullopt;
  p += 11;
  while (p < line.size() && line[p] == ' ') ++p;
  long long v = 0;
  std::size_t digits = 0;
  for (; p < line.size() && line[p] >= '0' && line[p] <= '9' && digits < 18; ++p, ++digits) v = v * 10 + (line[p] - '0');
  if (digits == 0 || p >= line.size() || (line[p] != ',' && line[p] != '}' && line[p] != ' ')) return std::nullopt;
  return v;
}

double as_number(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    char* end = nullptr;
    double d = std::strtod(s.c_str(), &end);
    if (end != s.c_str()) return d;
  }
  return 0;
}

// An id (execution, stage, job, accumulator) from a number: -1, an id no event uses, when the
// value is no id (id_from_double: not finite or out of long long's range).
long long as_id(double d) { return id_from_double(d).value_or(-1); }
long long as_id(const json& v) { return as_id(as_number(v)); }

// The first line of an error message, cut to 300 bytes (not inside a UTF-8 character).
std::string first_line(std::string msg) {
  if (auto nl = msg.find('\n'); nl != std::string::npos) msg.resize(nl);
  if (msg.size() > 300) {
    std::size_t cut = 297;
    while (cut > 0 && (static_cast<unsigned char>(msg[cut]) & 0xC0) == 0x80) --cut;
    msg = msg.substr(0, cut) + "...";
  }
  return msg;
}

// One node of `sparkPlanInfo`: the name and the SQL metrics with their accumulator ids.
struct InfoMetric {
  long long acc = 0;
  std::string name;
  std::string type;  // sum, size, timing, nsTiming, average
};
struct InfoNode {
  std::string name;
  std::vector<std::size_t> children;
  std::vector<InfoMetric> metrics;
};

struct Execution {
  long long id = -1;
  std::string description;
  std::string plan_text;
  std::uint32_t plan_line = 0;   // the event line that carried plan_text
  std::vector<InfoNode> info;    // info[0] is the root
  std::vector<long long> accs;   // every accumulator id of every plan version (for clean-up)
  std::vector<long long> stages;
  std::vector<JobInfo> jobs;     // in the order they started
  std::string error;             // SQLExecutionEnd's errorMessage (Spark 3.4+), its first line
  bool ended = false;
  double start_ms = 0, end_ms = 0;
  std::size_t bytes = 0;  // estimated memory held, for EventLogOptions::max_open_bytes
};

struct StageTasks {
  std::vector<double> task_ms;
  std::vector<double> shuffle_bytes, shuffle_records;  // per successful task that reported shuffle reads
  std::optional<double> num_tasks;
  std::optional<double> duration_ms;
  std::string name;
  bool failed = false;  // its StageCompleted has a "Failure Reason": the task lists hold only the tasks that succeeded
  bool completed = false;  // a StageCompleted was read (the latest attempt's)
  bool ran = false;        // a task of it ended
  std::unordered_set<long long> accumulators;  // SQL accumulators updated by this stage's tasks
};

// Flatten sparkPlanInfo iteratively (plans can be deep).
std::vector<InfoNode> flatten_info(const json& root) {
  std::vector<InfoNode> out;
  if (!root.is_object()) return out;
  std::vector<std::pair<const json*, std::size_t>> stack;  // node, parent index (npos for root)
  stack.emplace_back(&root, std::string::npos);
  // Children must keep their order: push in reverse, and append to the parent when popped.
  while (!stack.empty()) {
    auto [node, parent] = stack.back();
    stack.pop_back();
    InfoNode n;
    if (auto it = node->find("nodeName"); it != node->end() && it->is_string()) n.name = it->get<std::string>();
    if (auto it = node->find("metrics"); it != node->end() && it->is_array()) {
      for (const auto& m : *it) {
        if (!m.is_object()) continue;
        InfoMetric im;
        if (auto a = m.find("accumulatorId"); a != m.end()) im.acc = as_id(*a);
        if (auto a = m.find("name"); a != m.end() && a->is_string()) im.name = a->get<std::string>();
        if (auto a = m.find("metricType"); a != m.end() && a->is_string()) im.type = a->get<std::string>();
        n.metrics.push_back(std::move(im));
      }
    }
    std::size_t index = out.size();
    out.push_back(std::move(n));
    if (parent != std::string::npos) out[parent].children.push_back(index);
    if (auto it = node->find("children"); it != node->end() && it->is_array()) {
      for (auto c = it->rbegin(); c != it->rend(); ++c)
        if (c->is_object()) stack.emplace_back(&*c, index);
    }
  }
  return out;
}

// Event-log metric names are lower case ("number of output rows"); the profile's labels start
// with a capital ("Number of output rows"). Use the profile's spelling so rules see one name.
std::string metric_label(const std::string& name) {
  std::string s = name;
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

Metric make_metric(MetricNames& names, const InfoMetric& im, double raw) {
  Metric m;
  m.label = names(metric_label(im.name));
  if (im.type == "size") {
    m.unit = MetricUnit::Bytes;
    m.value = raw;
  } else if (im.type == "timing") {
    m.unit = MetricUnit::Millis;
    m.value = raw;
  } else if (im.type == "nsTiming") {
    m.unit = MetricUnit::Millis;
    m.value = raw / 1e6;
  } else if (im.type.starts_with("v2Custom_") && im.name.ends_with("(bytes)")) {
    // A DSv2 connector's own metric (Iceberg's "total data file size (bytes)") names its unit.
    m.unit = MetricUnit::Bytes;
    m.value = raw;
  } else if (im.type.starts_with("v2Custom_") && im.name.ends_with("(ms)")) {
    m.unit = MetricUnit::Millis;
    m.value = raw;
  } else {
    m.unit = MetricUnit::Count;
    m.value = raw;
  }
  return m;
}

bool is_hidden_in_text(std::string_view info_name) {
  return info_name.substr(0, 17) == "WholeStageCodegen" || info_name == "InputAdapter";
}

class Builder {
 public:
  Builder(const std::string& path, const EventLogOptions& opts, const EventLogSink& sink) : opts_(opts), sink_(sink) {
    result_.path = path;
    result_.format = InputFormat::EventLog;
    result_.traits = kEventLogTraits;
  }

  void feed(std::string_view line, std::uint32_t line_no) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (line.empty()) return;
    ++events_;
    std::string_view ev = event_name(line);
    if (ev.empty()) {
      if (bad_lines_++ < 3)
        result_.messages.push_back({MessageSeverity::Error, {line_no, 1, line_no, 2},
                                    "expected a JSON event object with an \"Event\" field"});
      return;
    }
    if (ev == "SparkListenerLogStart") {
      json e = json::parse(line.begin(), line.end(), nullptr, false);
      if (e.is_object())
        if (auto it = e.find("Spark Version"); it != e.end() && it->is_string()) spark_version_ = it->get<std::string>();
      return;
    }
    if (ev == "SparkListenerEnvironmentUpdate") {
      json e = json::parse(line.begin(), line.end(), nullptr, false);
      if (e.is_object())
        if (auto props = e.find("Spark Properties"); props != e.end() && props->is_object())
          if (auto a = props->find("spark.sql.adaptive.enabled"); a != props->end() && a->is_string()) {
            std::string v = a->get<std::string>();
            for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (v == "true" || v == "false") aqe_configured_ = v == "true";
          }
      return;
    }
    bool wanted = ev.ends_with("SQLExecutionStart") || ev.ends_with("SQLAdaptiveExecutionUpdate") ||
                  ev.ends_with("SQLExecutionEnd") || ev.ends_with("SparkListenerDriverAccumUpdates") ||
                  ev == "SparkListenerJobStart" || ev == "SparkListenerJobEnd" || ev == "SparkListenerTaskEnd" ||
                  ev == "SparkListenerStageCompleted";
    if (!wanted) return;
    // Task-end events are most of a log: skip the JSON parse for stages no followed execution ran
    // (jobs outside SQL, executions not selected with --execution, ones already finished).
    if (ev == "SparkListenerTaskEnd") {
      if (auto stage = stage_id_of(line); stage && !stage_owner_.count(*stage)) return;
    }
    if (ev == "SparkListenerTaskEnd") {
      if (eventlog::read_task_end(line, task_)) on_task_end(task_);
      else if (bad_lines_++ < 3)
        result_.messages.push_back({MessageSeverity::Error, {line_no, 1, line_no, 2},
                                    "this event line is not valid JSON (truncated log?)"});
      return;
    }
    json e = json::parse(line.begin(), line.end(), nullptr, false);
    if (e.is_discarded() || !e.is_object()) {
      if (bad_lines_++ < 3)
        result_.messages.push_back({MessageSeverity::Error, {line_no, 1, line_no, 2},
                                    "this event line is not valid JSON (truncated log?)"});
      return;
    }
    if (ev.ends_with("SQLExecutionStart")) on_start(e, line_no);
    else if (ev.ends_with("SQLAdaptiveExecutionUpdate")) on_update(e, line_no);
    else if (ev.ends_with("SQLExecutionEnd")) on_end(e);
    else if (ev.ends_with("SparkListenerDriverAccumUpdates")) on_driver_accums(e);
    else if (ev == "SparkListenerJobStart") on_job_start(e);
    else if (ev == "SparkListenerJobEnd") on_job_end(e);
    else if (ev == "SparkListenerStageCompleted") on_stage_completed(e);
  }

  void message(MessageSeverity sev, std::uint32_t line_no, std::string text) {
    line_no = std::max<std::uint32_t>(1, line_no);
    result_.messages.push_back({sev, {line_no, 1, line_no, 2}, std::move(text)});
  }

  ParseResult finish() {
    if (events_ == 0 && !result_.has_errors())
      result_.messages.push_back({MessageSeverity::Error, {1, 1, 1, 1}, "the event log is empty"});
    // Executions that never ended (a log still being written, or cut): build them now.
    std::vector<long long> ids;
    for (const auto& [id, ex] : executions_) ids.push_back(id);
    for (long long id : ids) finalize(id);
    if (opts_.execution && !selected_seen_)
      result_.messages.push_back({MessageSeverity::Error, {1, 1, 1, 1},
                                  "the event log has no SQL execution " + std::to_string(*opts_.execution)});
    if (!any_execution_ && events_ > 0)
      result_.messages.push_back({MessageSeverity::Note, {1, 1, 1, 1},
                                  "the event log holds no SQL execution (SparkListenerSQLExecutionStart)"});
    std::stable_sort(collected_.begin(), collected_.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    for (auto& [id, plan] : collected_) result_.plans.push_back(std::move(plan));
    return std::move(result_);
  }

 private:
  EventLogOptions opts_;
  const EventLogSink& sink_;
  ParseResult result_;
  std::vector<std::pair<long long, Plan>> collected_;  // without a sink: (execution id, plan)
  std::size_t events_ = 0;
  std::size_t bad_lines_ = 0;
  std::string spark_version_;  // SparkListenerLogStart "Spark Version"
  eventlog::TaskEnd task_;     // the task-end line being read (kept for its buffers)
  std::optional<bool> aqe_configured_;  // SparkListenerEnvironmentUpdate: spark.sql.adaptive.enabled
  bool any_execution_ = false, selected_seen_ = false;
  std::map<long long, Execution> executions_;             // running (or never ended) executions
  std::size_t open_bytes_ = 0;                            // sum of their `bytes`
  std::size_t closed_early_ = 0;                          // executions built early (limits)
  std::unordered_set<long long> closed_ids_;              // their ids: later events are ignored
  std::unordered_map<long long, StageTasks> stages_;
  std::unordered_map<long long, long long> stage_owner_;  // stage id -> execution id
  std::unordered_map<long long, long long> job_owner_;    // job id -> execution id
  std::unordered_map<long long, long long> acc_owner_;    // accumulator id -> execution id
  std::unordered_map<long long, double> acc_value_;       // accumulator id -> summed updates

  // Only the selected execution (or all) is followed.
  bool wanted_execution(long long id) {
    any_execution_ = true;
    if (closed_ids_.count(id)) return false;
    if (opts_.execution && *opts_.execution != id) return false;
    selected_seen_ = true;
    return true;
  }

  // Build the plan of a finished execution, hand it on and drop the execution's state.
  void finalize(long long id) {
    auto it = executions_.find(id);
    if (it == executions_.end()) return;
    Execution& ex = it->second;
    std::optional<Plan> plan = build_plan(ex);
    for (long long sid : ex.stages) {
      stages_.erase(sid);
      stage_owner_.erase(sid);
    }
    for (long long acc : ex.accs) {
      acc_owner_.erase(acc);
      acc_value_.erase(acc);
    }
    for (const JobInfo& j : ex.jobs) job_owner_.erase(std::stoll(j.id));
    open_bytes_ -= std::min(open_bytes_, ex.bytes);
    executions_.erase(it);
    if (!plan) return;
    if (sink_) sink_(std::move(*plan));
    else collected_.emplace_back(id, std::move(*plan));
  }

  static long long exec_id(const json& e) {
    auto it = e.find("executionId");
    return it == e.end() ? -1 : as_id(*it);
  }

  void set_plan(Execution& ex, const json& e, std::uint32_t line_no) {
    if (auto it = e.find("physicalPlanDescription"); it != e.end() && it->is_string()) {
      ex.plan_text = it->get<std::string>();
      ex.plan_line = line_no;
    }
    if (auto it = e.find("sparkPlanInfo"); it != e.end()) {
      ex.info = flatten_info(*it);
      for (const auto& n : ex.info)
        for (const auto& m : n.metrics)
          if (acc_owner_.emplace(m.acc, ex.id).second) ex.accs.push_back(m.acc);
    }
    std::size_t bytes = sizeof(Execution) + ex.plan_text.capacity() + ex.description.capacity() +
                        ex.info.size() * (sizeof(InfoNode) + 64) + ex.accs.size() * 40 + ex.stages.size() * 40;
    for (const auto& n : ex.info) bytes += n.metrics.size() * 64;
    open_bytes_ = open_bytes_ - std::min(open_bytes_, ex.bytes) + bytes;
    ex.bytes = bytes;
  }

  // Above the limits on running executions, the oldest (lowest id, Spark counts up) is built now
  // as unfinished, except `keep` (the one that just changed).
  void enforce_limits(long long keep, std::uint32_t line_no) {
    while (executions_.size() > 1 &&
           (executions_.size() > opts_.max_open_executions || open_bytes_ > opts_.max_open_bytes)) {
      auto oldest = executions_.begin();
      if (oldest->first == keep) ++oldest;
      if (closed_early_++ == 0)
        message(MessageSeverity::Warning, line_no,
                "more than " + std::to_string(opts_.max_open_executions) + " SQL executions (or " +
                    std::to_string(opts_.max_open_bytes >> 20) +
                    " MiB of their plans) are running at once: the oldest are checked now as unfinished");
      closed_ids_.insert(oldest->first);
      finalize(oldest->first);
    }
  }

  void on_start(const json& e, std::uint32_t line_no) {
    long long id = exec_id(e);
    if (!wanted_execution(id)) return;
    Execution& ex = executions_[id];
    ex.id = id;
    if (auto it = e.find("description"); it != e.end() && it->is_string()) ex.description = it->get<std::string>();
    if (auto it = e.find("time"); it != e.end()) ex.start_ms = as_number(*it);
    set_plan(ex, e, line_no);
    enforce_limits(id, line_no);
  }

  void on_update(const json& e, std::uint32_t line_no) {
    long long id = exec_id(e);
    if (!wanted_execution(id)) return;
    Execution& ex = executions_[id];
    ex.id = id;
    set_plan(ex, e, line_no);
    enforce_limits(id, line_no);
  }

  void on_end(const json& e) {
    auto it = executions_.find(exec_id(e));
    if (it == executions_.end()) return;
    it->second.ended = true;
    if (auto t = e.find("time"); t != e.end()) it->second.end_ms = as_number(*t);
    if (auto m = e.find("errorMessage"); m != e.end() && m->is_string()) it->second.error = first_line(m->get<std::string>());
    finalize(it->first);
  }

  void on_driver_accums(const json& e) {
    auto it = e.find("accumUpdates");
    if (it == e.end() || !it->is_array()) return;
    for (const auto& pair : *it)
      if (pair.is_array() && pair.size() == 2) {
        auto acc = as_id(pair[0]);
        if (acc_owner_.count(acc)) acc_value_[acc] += as_number(pair[1]);
      }
  }

  void on_job_start(const json& e) {
    auto props = e.find("Properties");
    if (props == e.end() || !props->is_object()) return;
    auto eid = props->find("spark.sql.execution.id");
    if (eid == props->end()) return;
    long long id = as_id(*eid);
    auto ex = executions_.find(id);
    if (ex == executions_.end()) return;
    JobInfo* job = nullptr;
    if (auto j = e.find("Job ID"); j != e.end())
      if (long long jid = as_id(*j); jid >= 0 && job_owner_.emplace(jid, id).second) {
        ex->second.jobs.push_back({std::to_string(jid), JobStatus::Running, {}, {}});
        job = &ex->second.jobs.back();
      }
    if (auto st = e.find("Stage IDs"); st != e.end() && st->is_array())
      for (const auto& s : *st) {
        auto sid = as_id(s);
        ex->second.stages.push_back(sid);
        stage_owner_[sid] = id;
        if (job) job->stages.push_back(std::to_string(sid));
      }
  }

  // "Job Result": {"Result": "JobSucceeded"} or {"Result": "JobFailed", "Exception": {"Message": ...}}.
  void on_job_end(const json& e) {
    auto j = e.find("Job ID");
    if (j == e.end()) return;
    const long long jid = as_id(*j);
    auto owner = job_owner_.find(jid);
    if (owner == job_owner_.end()) return;
    auto ex = executions_.find(owner->second);
    if (ex == executions_.end()) return;
    const std::string id = std::to_string(jid);
    for (JobInfo& job : ex->second.jobs) {
      if (job.id != id) continue;
      auto result = e.find("Job Result");
      if (result == e.end() || !result->is_object()) {
        job.status = JobStatus::Unknown;
        return;
      }
      auto r = result->find("Result");
      const std::string kind = r != result->end() && r->is_string() ? r->get<std::string>() : std::string();
      job.status = kind == "JobSucceeded" ? JobStatus::Succeeded : kind == "JobFailed" ? JobStatus::Failed : JobStatus::Unknown;
      if (job.status != JobStatus::Failed) return;
      if (auto x = result->find("Exception"); x != result->end() && x->is_object())
        if (auto m = x->find("Message"); m != x->end() && m->is_string()) job.failure = first_line(m->get<std::string>());
      return;
    }
  }

  void on_task_end(const eventlog::TaskEnd& t) {
    if (!t.stage) return;
    auto stage = as_id(*t.stage);
    if (!stage_owner_.count(stage)) return;  // not a stage of a followed SQL execution
    StageTasks& st = stages_[stage];
    st.ran = true;
    if (!t.has_info) return;
    if (!t.failed) {
      double ms = t.run_time.value_or(-1);
      if (ms < 0 && t.launch && t.finish) ms = *t.finish - *t.launch;
      if (ms >= 0) st.task_ms.push_back(ms);
      if (t.shuffle_remote_bytes || t.shuffle_local_bytes || t.shuffle_records) {
        st.shuffle_bytes.push_back(t.shuffle_remote_bytes.value_or(0) + t.shuffle_local_bytes.value_or(0));
        st.shuffle_records.push_back(t.shuffle_records.value_or(0));
      }
    }
    for (const auto& [id, update] : t.accs) {
      if (!acc_owner_.count(id)) continue;  // not a SQL metric of a known plan
      st.accumulators.insert(id);
      if (update) acc_value_[id] += *update;
    }
  }

  void on_stage_completed(const json& e) {
    auto info = e.find("Stage Info");
    if (info == e.end() || !info->is_object()) return;
    auto sid = info->find("Stage ID");
    if (sid == info->end()) return;
    auto stage = as_id(*sid);
    if (!stage_owner_.count(stage)) return;
    StageTasks& st = stages_[stage];
    if (auto n = info->find("Number of Tasks"); n != info->end()) st.num_tasks = as_number(*n);
    auto sub = info->find("Submission Time"), done = info->find("Completion Time");
    if (sub != info->end() && done != info->end()) st.duration_ms = as_number(*done) - as_number(*sub);
    if (auto nm = info->find("Stage Name"); nm != info->end() && nm->is_string()) st.name = nm->get<std::string>();
    // The latest attempt decides: a stage retried after a fetch failure and then completed is complete.
    auto fr = info->find("Failure Reason");
    st.failed = fr != info->end() && fr->is_string();
    st.completed = true;
  }

  // Pair the plan-info tree with the parsed operators: walk both from the root, skipping the
  // info nodes formatted mode never prints (WholeStageCodegen, InputAdapter), and stop where
  // the names disagree. Returns accumulator id -> operator index.
  // The metrics of a WholeStageCodegen node (its duration) go to `stage_acc`, named by the
  // stage's top operator (the node the wrapper holds).
  static std::unordered_map<long long, std::size_t> match(const Plan& plan, const std::vector<InfoNode>& info,
                                                          std::unordered_map<long long, std::size_t>& stage_acc) {
    std::unordered_map<long long, std::size_t> acc_op;
    std::vector<long long> stage_metrics;
    if (info.empty() || plan.roots.empty()) return acc_op;
    std::vector<std::pair<std::size_t, std::size_t>> stack;  // info index, op index
    stack.emplace_back(0, plan.roots.front());
    std::size_t guard = 0;
    while (!stack.empty() && guard++ < 4 * (info.size() + plan.ops.size()) + 16) {
      auto [ii, oi] = stack.back();
      stack.pop_back();
      const InfoNode* in = &info[ii];
      stage_metrics.clear();
      while (is_hidden_in_text(in->name) && in->children.size() == 1) {
        if (in->name.rfind("WholeStageCodegen", 0) == 0)
          for (const auto& m : in->metrics) stage_metrics.push_back(m.acc);
        ii = in->children.front();
        in = &info[ii];
      }
      const Operator& op = plan.ops[oi];
      if (trim_spaces(in->name) != trim_spaces(op.name)) continue;
      for (const auto& m : in->metrics) acc_op[m.acc] = oi;
      for (long long acc : stage_metrics) stage_acc[acc] = oi;
      if (op.kind == OpKind::ReusedExchange) continue;  // the info repeats the reused subtree
      // The children the text shows for this operator, in the order the info lists them.
      std::vector<std::size_t> kids = shown_children(plan, oi);
      std::size_t n = std::min(kids.size(), in->children.size());
      for (std::size_t k = 0; k < n; ++k) stack.emplace_back(in->children[k], kids[k]);
    }
    return acc_op;
  }

  static double quantile(std::vector<double>& v, double q) {
    std::size_t k = static_cast<std::size_t>(std::floor(q * static_cast<double>(v.size() - 1)));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
  }

  std::optional<Plan> build_plan(Execution& ex) {
    if (ex.plan_text.empty()) return std::nullopt;
    ParseResult pr = parse_explain_text(ex.plan_text, result_.path);
    const SourceRange event_loc{ex.plan_line, 1, ex.plan_line, 2};
    for (auto& m : pr.messages) {
      // Positions inside the embedded plan do not map onto the log file: name the event line.
      m.message = "execution " + std::to_string(ex.id) + ", plan line " + std::to_string(m.loc.line) + ": " + m.message;
      m.loc = event_loc;
      result_.messages.push_back(std::move(m));
    }
    if (pr.plans.empty()) return std::nullopt;
    Plan plan = std::move(pr.plans.front());
    plan.format = InputFormat::EventLog;
    plan.name = "execution " + std::to_string(ex.id) + (ex.description.empty() ? "" : ": " + ex.description);
    plan.query.statement_id = std::to_string(ex.id);
    plan.query.description = ex.description;
    plan.query.status = ex.ended ? "FINISHED" : "RUNNING";
    if (ex.ended && ex.end_ms >= ex.start_ms)
      plan.query.metrics.push_back({"totalTimeMs", "", ex.end_ms - ex.start_ms, MetricUnit::Millis, false});
    plan.relocate_all(event_loc);

    // Metric values.
    std::unordered_map<long long, std::size_t> stage_acc;
    auto acc_op = match(plan, ex.info, stage_acc);
    MetricNames names(plan.text_store());  // each distinct label kept once in the plan
    std::unordered_map<long long, const InfoMetric*> acc_metric;
    for (const auto& n : ex.info)
      for (const auto& m : n.metrics) acc_metric[m.acc] = &m;
    for (const auto& [acc, oi] : acc_op) {
      auto v = acc_value_.find(acc);
      if (v == acc_value_.end()) continue;
      const InfoMetric* im = acc_metric[acc];
      if (!im || im->type == "average") continue;  // averages are encoded, not summable
      Operator& op = plan.ops[oi];
      Metric m = make_metric(names, *im, v->second);
      if (m.label == "Number of output rows") op.edit_runtime().rows = m.value;
      if (m.label == "Peak memory") op.edit_runtime().extra.edit().peak_memory_bytes = m.value;
      if (m.label == "Duration" && !op.duration_ms()) op.edit_runtime().duration_ms = m.value;
      op.edit_runtime().metrics.push_back(std::move(m));
    }
    // A codegen stage's duration (the text never shows the wrapper): on the stage's top operator,
    // named so that it is never taken for the operator's own time.
    for (const auto& [acc, oi] : stage_acc) {
      auto v = acc_value_.find(acc);
      if (v == acc_value_.end()) continue;
      const InfoMetric* im = acc_metric[acc];
      if (!im || (im->type != "timing" && im->type != "nsTiming") || im->name != "duration") continue;
      Metric m = make_metric(names, *im, v->second);
      m.label = "WholeStageCodegen duration";
      plan.ops[oi].edit_runtime().metrics.push_back(std::move(m));
    }
    // Keep the metrics in a stable order (the info's order is per operator already).
    for (auto& op : plan.ops) {
      if (!op.has_runtime()) continue;
      CompactVector<Metric>& ms = op.edit_runtime().metrics;
      std::stable_sort(ms.begin(), ms.end(), [](const Metric& a, const Metric& b) { return a.label < b.label; });
    }

    // Stages with their task-time distribution and operators.
    std::sort(ex.stages.begin(), ex.stages.end());
    ex.stages.erase(std::unique(ex.stages.begin(), ex.stages.end()), ex.stages.end());
    double task_total = 0;
    for (long long sid : ex.stages) {
      auto it = stages_.find(sid);
      if (it == stages_.end()) continue;
      StageTasks& st = it->second;
      StageInfo si;
      si.id = std::to_string(sid);
      // A stage completed in the log is Complete or Failed; one whose tasks ran but that never
      // completed (the log ends, the application was shut down) is Active.
      si.status = st.completed ? (st.failed ? StageStatus::Failed : StageStatus::Complete)
                  : st.ran     ? StageStatus::Active
                               : StageStatus::Unknown;
      si.num_tasks = st.num_tasks;
      si.duration_ms = st.duration_ms;
      if (!st.task_ms.empty()) {
        std::vector<double> v = st.task_ms;
        for (double t : v) task_total += t;
        si.task_ms_min = *std::min_element(v.begin(), v.end());
        si.task_ms_max = *std::max_element(v.begin(), v.end());
        si.task_ms_median = quantile(v, 0.5);
        si.task_ms_p75 = quantile(v, 0.75);
        double stage_total = 0;
        for (double t : v) stage_total += t;
        si.task_ms_total = stage_total;
        si.task_ms_histogram.assign(StageInfo::kTaskHistogramBins, 0);
        for (double t : v) {
          std::size_t bin = *si.task_ms_max > 0 ? static_cast<std::size_t>(t / *si.task_ms_max * StageInfo::kTaskHistogramBins) : 0;
          ++si.task_ms_histogram[std::min(bin, StageInfo::kTaskHistogramBins - 1)];
        }
        if (!si.num_tasks) si.num_tasks = static_cast<double>(v.size());
      }
      std::unordered_set<std::size_t> ops;
      for (long long acc : st.accumulators)
        if (auto o = acc_op.find(acc); o != acc_op.end()) ops.insert(o->second);
      si.operators.assign(ops.begin(), ops.end());
      std::sort(si.operators.begin(), si.operators.end());
      for (std::size_t oi : si.operators) plan.ops[oi].edit_runtime().extra.edit().spark_stages.push_back(static_cast<int>(sid));
      // The spread of shuffle reads over the stage's tasks (stages that read a shuffle).
      double read_total = 0;
      for (double b : st.shuffle_bytes) read_total += b;
      if (read_total > 0) {
        StageShuffleReadFacts f;
        f.stage_id = si.id;
        f.tasks = static_cast<double>(st.shuffle_bytes.size());
        f.bytes_total = read_total;
        f.bytes_max = *std::max_element(st.shuffle_bytes.begin(), st.shuffle_bytes.end());
        f.bytes_median = quantile(st.shuffle_bytes, 0.5);
        f.records_max = *std::max_element(st.shuffle_records.begin(), st.shuffle_records.end());
        f.records_median = quantile(st.shuffle_records, 0.5);
        f.empty_tasks = static_cast<double>(std::count(st.shuffle_records.begin(), st.shuffle_records.end(), 0.0));
        plan.facts.stage_shuffle_reads.push_back(std::move(f));
      }
      plan.stages.push_back(std::move(si));
    }
    if (task_total > 0) plan.query.metrics.push_back({"taskTotalTimeMs", "", task_total, MetricUnit::Millis, false});
    // An execution that ended with an error (Spark 3.4+ writes it in SQLExecutionEnd) before the end
    // events of its running jobs (the job end can follow the execution's end): those jobs failed.
    if (!ex.error.empty())
      for (JobInfo& j : ex.jobs)
        if (j.status == JobStatus::Running) {
          j.status = JobStatus::Failed;
          j.failure = ex.error;
        }
    plan.jobs = std::move(ex.jobs);
    fill_eventlog_facts(plan, spark_version_);
    // PlanFacts::aqe: on / known off. The environment's setting is what the application ran with;
    // adaptive operators in the plan (derive_common_facts) set it on whatever the setting says.
    if (aqe_configured_ && plan.facts.aqe != true) plan.facts.aqe = *aqe_configured_;
    return plan;
  }
};

// Splits decompressed pieces into lines for the Builder. A line is kept whole only when it spans
// pieces; a line longer than kMaxLine is skipped with an error (no event is that long).
class LineFeeder {
 public:
  explicit LineFeeder(Builder& b) : b_(b) {}

  void feed(std::string_view data) {
    std::size_t pos = 0;
    while (pos < data.size()) {
      std::size_t nl = data.find('\n', pos);
      std::string_view piece = data.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
      if (nl == std::string_view::npos) {
        append(piece);
        return;
      }
      if (pending_.empty() && !skipping_) {
        b_.feed(piece, ++line_);
      } else {
        append(piece);
        finish_line();
      }
      pos = nl + 1;
    }
  }

  // The end of one file: its last line ends here even without a line break.
  void end_of_input() {
    if (!pending_.empty() || skipping_) finish_line();
  }

  [[nodiscard]] std::uint32_t line() const { return line_; }

 private:
  static constexpr std::size_t kMaxLine = 256u << 20;

  void append(std::string_view piece) {
    if (skipping_) return;
    if (pending_.size() + piece.size() > kMaxLine) {
      skipping_ = true;
      std::string().swap(pending_);
      return;
    }
    pending_.append(piece);
  }

  void finish_line() {
    ++line_;
    if (skipping_) {
      b_.message(MessageSeverity::Error, line_, "this event line is longer than 256 MiB: skipped");
      skipping_ = false;
    } else {
      b_.feed(pending_, line_);
    }
    pending_.clear();
    if (pending_.capacity() > (16u << 20)) std::string().swap(pending_);
  }

  Builder& b_;
  std::string pending_;
  std::uint32_t line_ = 0;
  bool skipping_ = false;
};

// Reads one input (any codec) through the feeder; a decoding error ends that input with a message.
void pump(std::istream& in, const std::string& name, Builder& b, LineFeeder& f) {
  std::string error;
  auto decoder = eventlog::make_decoder(in, error);
  std::string prefix = name.empty() ? "" : name + ": ";
  if (!decoder) {
    b.message(MessageSeverity::Error, f.line() + 1, prefix + error);
    return;
  }
  std::string_view piece;
  while (decoder->next(piece)) f.feed(piece);
  f.end_of_input();
  if (!decoder->error().empty())
    b.message(MessageSeverity::Error, f.line() + 1,
              prefix + decoder->error() +
                  (f.line() ? "; nothing after line " + std::to_string(f.line()) + " is read" : ""));
}

// Databricks' rolled event logs (cluster log delivery, `eventlogs/<id>/`): the current hour in
// `eventlog`, each earlier hour in `eventlog-<yyyy>-<mm>-<dd>--<hh>-<mm>[.gz]`.
bool databricks_rolled_name(std::string_view name) {
  constexpr std::string_view shape = "eventlog-dddd-dd-dd--dd-dd";
  if (name.size() < shape.size()) return false;
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (shape[i] == 'd' ? !(name[i] >= '0' && name[i] <= '9') : name[i] != shape[i]) return false;
  std::string_view rest = name.substr(shape.size());
  return rest.empty() || rest == ".gz";
}

bool is_databricks_rolled_dir(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return false;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (databricks_rolled_name(it->path().filename().string())) return true;
  return false;
}

// A Databricks rolled folder: the rolled hours in name (= time) order, then `eventlog`.
void read_databricks_rolled_dir(const std::filesystem::path& dir, Builder& b);

// A rolling log directory: events_<N>_<appId>[_<attempt>][.<codec>][.compact] in N order, from the
// last compacted file on (older ones are folded into it), as Spark's RollingEventLogFilesFileReader.
void read_rolling_dir(const std::filesystem::path& dir, Builder& b) {
  namespace fs = std::filesystem;
  {
    fs::path p = dir;
    if (p.filename().empty()) p = p.parent_path();
    if (!std::string_view(p.filename().string()).starts_with("eventlog_v2_")) {
      read_databricks_rolled_dir(dir, b);
      return;
    }
  }
  struct EventsFile {
    unsigned long long index;
    fs::path path;
    bool compact;
  };
  std::vector<EventsFile> files;
  bool in_progress = false;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.starts_with("appstatus_") && name.ends_with(".inprogress")) in_progress = true;
    if (!name.starts_with("events_")) continue;
    std::size_t i = 7, digits = 0;
    unsigned long long index = 0;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9' && digits < 18) index = index * 10 + static_cast<unsigned>(name[i++] - '0'), ++digits;
    if (digits == 0 || i >= name.size() || name[i] != '_') continue;
    files.push_back({index, it->path(), name.ends_with(".compact")});
  }
  if (ec) {
    b.message(MessageSeverity::Error, 1, dir.string() + ": " + ec.message());
    return;
  }
  std::sort(files.begin(), files.end(), [](const auto& x, const auto& y) { return x.index < y.index; });
  std::size_t first = 0;
  for (std::size_t i = 0; i < files.size(); ++i)
    if (files[i].compact) first = i;
  if (files.empty()) {
    b.message(MessageSeverity::Error, 1, "this rolling event-log directory has no events_<N>_<appId> file");
    return;
  }
  if (in_progress)
    b.message(MessageSeverity::Note, 1, "the application was still running when the log was read (appstatus_*.inprogress)");
  LineFeeder f(b);
  for (std::size_t i = first; i < files.size(); ++i) {
    std::string name = files[i].path.filename().string();
    // Regular files only: a FIFO member would block the open forever, a link to /dev/zero or
    // /dev/urandom would never end. Such a member is reported and the next one is read.
    std::string why;
    int fd = open_regular_file(files[i].path.string(), why);
    if (fd < 0) {
      b.message(MessageSeverity::Error, f.line() + 1, name + ": " + why + "; not read");
      continue;
    }
    FdInputStream in(fd);
    pump(in, name, b, f);
  }
}

void read_databricks_rolled_dir(const std::filesystem::path& dir, Builder& b) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  fs::path current;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (databricks_rolled_name(name)) files.push_back(it->path());
    else if (name == "eventlog") current = it->path();
  }
  if (ec) {
    b.message(MessageSeverity::Error, 1, dir.string() + ": " + ec.message());
    return;
  }
  std::sort(files.begin(), files.end());
  if (!current.empty()) files.push_back(current);
  LineFeeder f(b);
  for (const fs::path& file : files) {
    std::string name = file.filename().string();
    std::string why;
    int fd = open_regular_file(file.string(), why);
    if (fd < 0) {
      b.message(MessageSeverity::Error, f.line() + 1, name + ": " + why + "; not read");
      continue;
    }
    FdInputStream in(fd);
    pump(in, name, b, f);
  }
}

}  // namespace

bool looks_compressed_event_log(std::string_view head) { return !eventlog::codec_of(head).empty(); }

bool has_rolling_event_log_name(const std::filesystem::path& dir) {
  std::filesystem::path p = dir;
  if (p.filename().empty()) p = p.parent_path();  // "eventlog_v2_x/"
  return std::string_view(p.filename().string()).starts_with("eventlog_v2_");
}

bool is_databricks_rolled_name(std::string_view entry_name) { return databricks_rolled_name(entry_name); }

bool is_rolling_event_log_dir(const std::filesystem::path& path) {
  std::filesystem::path p = path;
  if (p.filename().empty()) p = p.parent_path();  // "eventlog_v2_x/"
  std::error_code ec;
  if (has_rolling_event_log_name(p) && std::filesystem::is_directory(p, ec)) return true;
  return is_databricks_rolled_dir(p);
}

bool is_event_log_path(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return is_rolling_event_log_dir(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
  return is_event_log_head(head);
}

bool is_event_log_head(std::string_view head) { return detect_format(head) == InputFormat::EventLog; }

ParseResult parse_event_log(std::string_view text, const std::string& path, const EventLogOptions& opts) {
  if (looks_compressed_event_log(text.substr(0, 16))) {
    std::istringstream in{std::string(text)};
    return parse_event_log_stream(in, path, opts);
  }
  EventLogSink none;
  Builder b(path, opts, none);
  std::uint32_t line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    b.feed(text.substr(pos, eol - pos), ++line_no);
    pos = eol + 1;
  }
  return b.finish();
}

ParseResult parse_event_log(std::string_view text, const std::string& path) {
  return parse_event_log(text, path, EventLogOptions{});
}

ParseResult parse_event_log_stream(std::istream& in, const std::string& path, const EventLogOptions& opts,
                                   const EventLogSink& sink) {
  Builder b(path, opts, sink);
  LineFeeder f(b);
  pump(in, "", b, f);
  return b.finish();
}

ParseResult read_event_log(const std::filesystem::path& path, const std::string& display, const EventLogOptions& opts,
                           const EventLogSink& sink) {
  const std::string shown = display.empty() ? path.string() : display;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    Builder b(shown, opts, sink);
    if (is_rolling_event_log_dir(path)) read_rolling_dir(path, b);
    else b.message(MessageSeverity::Error, 1, "a directory that is not a rolling event log (eventlog_v2_<appId>)");
    return b.finish();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    Builder b(shown, opts, sink);
    b.message(MessageSeverity::Error, 1, "cannot be opened");
    return b.finish();
  }
  if (databricks_rolled_name(path.filename().string())) {
    Builder b(shown, opts, sink);
    b.message(MessageSeverity::Note, 1,
              "one hour of a Databricks rolled event log (" + path.filename().string() +
                  "): an execution that began in an earlier file or ends in a later one is incomplete here; "
                  "give the folder that holds `eventlog` and its `eventlog-*` files to read them whole");
    LineFeeder f(b);
    pump(in, "", b, f);
    return b.finish();
  }
  return parse_event_log_stream(in, shown, opts, sink);
}

}  // namespace planlint
