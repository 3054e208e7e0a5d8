// The Spark event-log reader: JSON lines as written with spark.eventLog.enabled=true (the file
// the History Server reads). For each SQL execution it parses the last formatted plan (the
// start event's, replaced by each SparkListenerSQLAdaptiveExecutionUpdate) with the explain-text
// reader, attaches SQL metric values to operators through the accumulator ids of `sparkPlanInfo`,
// and attaches each stage's task-time distribution. One Plan per execution.
//
// Streaming: lines are read one at a time and only the events that matter are parsed as JSON;
// what is kept per execution is its last plan text, the plan-info tree (names + accumulator
// ids) and, per stage, one number per task.
#include "parser/eventlog.hpp"

#include <algorithm>
#include <cmath>
#include <istream>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>

#include "parser/parse.hpp"

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

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
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
  std::vector<long long> stages;
  bool ended = false;
  double start_ms = 0, end_ms = 0;
};

struct StageTasks {
  std::vector<double> task_ms;
  std::optional<double> num_tasks;
  std::optional<double> duration_ms;
  std::string name;
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
        if (auto a = m.find("accumulatorId"); a != m.end()) im.acc = static_cast<long long>(as_number(*a));
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

std::string trimmed(std::string_view s) {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  return std::string(s);
}

// Event-log metric names are lower case ("number of output rows"); the profile's labels start
// with a capital ("Number of output rows"). Use the profile's spelling so rules see one name.
std::string metric_label(const std::string& name) {
  std::string s = name;
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

Metric make_metric(const InfoMetric& im, double raw) {
  Metric m;
  m.label = metric_label(im.name);
  if (im.type == "size") {
    m.unit = MetricUnit::Bytes;
    m.value = raw;
  } else if (im.type == "timing") {
    m.unit = MetricUnit::Millis;
    m.value = raw;
  } else if (im.type == "nsTiming") {
    m.unit = MetricUnit::Millis;
    m.value = raw / 1e6;
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
  explicit Builder(const std::string& path) { result_.path = path; result_.format = InputFormat::EventLog; }

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
    bool wanted = ends_with(ev, "SQLExecutionStart") || ends_with(ev, "SQLAdaptiveExecutionUpdate") ||
                  ends_with(ev, "SQLExecutionEnd") || ends_with(ev, "SparkListenerDriverAccumUpdates") ||
                  ev == "SparkListenerJobStart" || ev == "SparkListenerTaskEnd" ||
                  ev == "SparkListenerStageCompleted";
    if (!wanted) return;
    json e = json::parse(line.begin(), line.end(), nullptr, false);
    if (e.is_discarded() || !e.is_object()) {
      if (bad_lines_++ < 3)
        result_.messages.push_back({MessageSeverity::Error, {line_no, 1, line_no, 2},
                                    "this event line is not valid JSON (truncated log?)"});
      return;
    }
    if (ends_with(ev, "SQLExecutionStart")) on_start(e, line_no);
    else if (ends_with(ev, "SQLAdaptiveExecutionUpdate")) on_update(e, line_no);
    else if (ends_with(ev, "SQLExecutionEnd")) on_end(e);
    else if (ends_with(ev, "SparkListenerDriverAccumUpdates")) on_driver_accums(e);
    else if (ev == "SparkListenerJobStart") on_job_start(e);
    else if (ev == "SparkListenerTaskEnd") on_task_end(e);
    else if (ev == "SparkListenerStageCompleted") on_stage_completed(e);
  }

  ParseResult finish(const EventLogOptions& opts) {
    if (events_ == 0)
      result_.messages.push_back({MessageSeverity::Error, {1, 1, 1, 1}, "the event log is empty"});
    std::vector<long long> ids;
    for (const auto& [id, ex] : executions_) ids.push_back(id);
    std::sort(ids.begin(), ids.end());
    bool found = false;
    for (long long id : ids) {
      if (opts.execution && *opts.execution != id) continue;
      found = true;
      build_plan(executions_[id]);
    }
    if (opts.execution && !found)
      result_.messages.push_back({MessageSeverity::Error, {1, 1, 1, 1},
                                  "the event log has no SQL execution " + std::to_string(*opts.execution)});
    if (executions_.empty() && events_ > 0)
      result_.messages.push_back({MessageSeverity::Note, {1, 1, 1, 1},
                                  "the event log holds no SQL execution (SparkListenerSQLExecutionStart)"});
    return std::move(result_);
  }

 private:
  ParseResult result_;
  std::size_t events_ = 0;
  std::size_t bad_lines_ = 0;
  std::map<long long, Execution> executions_;
  std::unordered_map<long long, StageTasks> stages_;
  std::unordered_map<long long, long long> acc_owner_;  // accumulator id -> execution id
  std::unordered_map<long long, double> acc_value_;     // accumulator id -> summed updates

  static long long exec_id(const json& e) {
    auto it = e.find("executionId");
    return it == e.end() ? -1 : static_cast<long long>(as_number(*it));
  }

  void set_plan(Execution& ex, const json& e, std::uint32_t line_no) {
    if (auto it = e.find("physicalPlanDescription"); it != e.end() && it->is_string()) {
      ex.plan_text = it->get<std::string>();
      ex.plan_line = line_no;
    }
    if (auto it = e.find("sparkPlanInfo"); it != e.end()) {
      ex.info = flatten_info(*it);
      for (const auto& n : ex.info)
        for (const auto& m : n.metrics) acc_owner_[m.acc] = ex.id;
    }
  }

  void on_start(const json& e, std::uint32_t line_no) {
    long long id = exec_id(e);
    Execution& ex = executions_[id];
    ex.id = id;
    if (auto it = e.find("description"); it != e.end() && it->is_string()) ex.description = it->get<std::string>();
    if (auto it = e.find("time"); it != e.end()) ex.start_ms = as_number(*it);
    set_plan(ex, e, line_no);
  }

  void on_update(const json& e, std::uint32_t line_no) {
    long long id = exec_id(e);
    Execution& ex = executions_[id];
    ex.id = id;
    set_plan(ex, e, line_no);
  }

  void on_end(const json& e) {
    auto it = executions_.find(exec_id(e));
    if (it == executions_.end()) return;
    it->second.ended = true;
    if (auto t = e.find("time"); t != e.end()) it->second.end_ms = as_number(*t);
  }

  void on_driver_accums(const json& e) {
    auto it = e.find("accumUpdates");
    if (it == e.end() || !it->is_array()) return;
    for (const auto& pair : *it)
      if (pair.is_array() && pair.size() == 2) acc_value_[static_cast<long long>(as_number(pair[0]))] += as_number(pair[1]);
  }

  void on_job_start(const json& e) {
    auto props = e.find("Properties");
    if (props == e.end() || !props->is_object()) return;
    auto eid = props->find("spark.sql.execution.id");
    if (eid == props->end()) return;
    long long id = static_cast<long long>(as_number(*eid));
    auto ex = executions_.find(id);
    if (ex == executions_.end()) return;
    if (auto st = e.find("Stage IDs"); st != e.end() && st->is_array())
      for (const auto& s : *st) ex->second.stages.push_back(static_cast<long long>(as_number(s)));
  }

  void on_task_end(const json& e) {
    auto sid = e.find("Stage ID");
    if (sid == e.end()) return;
    StageTasks& st = stages_[static_cast<long long>(as_number(*sid))];
    auto info = e.find("Task Info");
    if (info == e.end() || !info->is_object()) return;
    bool failed = info->value("Failed", false) || info->value("Killed", false);
    if (!failed) {
      double ms = -1;
      if (auto tm = e.find("Task Metrics"); tm != e.end() && tm->is_object())
        if (auto rt = tm->find("Executor Run Time"); rt != tm->end()) ms = as_number(*rt);
      if (ms < 0) {
        auto l = info->find("Launch Time"), f = info->find("Finish Time");
        if (l != info->end() && f != info->end()) ms = as_number(*f) - as_number(*l);
      }
      if (ms >= 0) st.task_ms.push_back(ms);
    }
    auto accs = info->find("Accumulables");
    if (accs == info->end() || !accs->is_array()) return;
    for (const auto& a : *accs) {
      if (!a.is_object()) continue;
      auto idit = a.find("ID");
      if (idit == a.end()) continue;
      long long id = static_cast<long long>(as_number(*idit));
      if (!acc_owner_.count(id)) continue;  // not a SQL metric of a known plan
      st.accumulators.insert(id);
      if (auto u = a.find("Update"); u != a.end()) acc_value_[id] += as_number(*u);
    }
  }

  void on_stage_completed(const json& e) {
    auto info = e.find("Stage Info");
    if (info == e.end() || !info->is_object()) return;
    auto sid = info->find("Stage ID");
    if (sid == info->end()) return;
    StageTasks& st = stages_[static_cast<long long>(as_number(*sid))];
    if (auto n = info->find("Number of Tasks"); n != info->end()) st.num_tasks = as_number(*n);
    auto sub = info->find("Submission Time"), done = info->find("Completion Time");
    if (sub != info->end() && done != info->end()) st.duration_ms = as_number(*done) - as_number(*sub);
    if (auto nm = info->find("Stage Name"); nm != info->end() && nm->is_string()) st.name = nm->get<std::string>();
  }

  // Pair the plan-info tree with the parsed operators: walk both from the root, skipping the
  // info nodes formatted mode never prints (WholeStageCodegen, InputAdapter), and stop where
  // the names disagree. Returns accumulator id -> operator index.
  static std::unordered_map<long long, std::size_t> match(const Plan& plan, const std::vector<InfoNode>& info) {
    std::unordered_map<long long, std::size_t> acc_op;
    if (info.empty() || plan.roots.empty()) return acc_op;
    std::vector<std::pair<std::size_t, std::size_t>> stack;  // info index, op index
    stack.emplace_back(0, plan.roots.front());
    std::size_t guard = 0;
    while (!stack.empty() && guard++ < 4 * (info.size() + plan.ops.size()) + 16) {
      auto [ii, oi] = stack.back();
      stack.pop_back();
      const InfoNode* in = &info[ii];
      while (is_hidden_in_text(in->name) && in->children.size() == 1) {
        ii = in->children.front();
        in = &info[ii];
      }
      const Operator& op = plan.ops[oi];
      if (trimmed(in->name) != trimmed(op.name)) continue;
      for (const auto& m : in->metrics) acc_op[m.acc] = oi;
      if (op.kind == OpKind::ReusedExchange) continue;  // the info repeats the reused subtree
      // The children the text shows for this operator, in the order the info lists them.
      std::vector<std::size_t> kids;
      if (op.kind == OpKind::AdaptivePlan) {
        for (std::size_t c : op.children)
          if (plan.ops[c].section != Section::AqeInitial) {
            kids.push_back(c);
            break;
          }
      } else {
        kids = op.children;
      }
      // Subquery plans hosted here follow the ordinary children in the info tree.
      for (const auto& sq : plan.subqueries)
        if (sq.hosting_op && *sq.hosting_op == oi && sq.root) kids.push_back(*sq.root);
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

  void build_plan(Execution& ex) {
    if (ex.plan_text.empty()) return;
    ParseResult pr = parse_explain_text(ex.plan_text, result_.path);
    const SourceRange event_loc{ex.plan_line, 1, ex.plan_line, 2};
    for (auto& m : pr.messages) {
      // Positions inside the embedded plan do not map onto the log file: name the event line.
      m.message = "execution " + std::to_string(ex.id) + ", plan line " + std::to_string(m.loc.line) + ": " + m.message;
      m.loc = event_loc;
      result_.messages.push_back(std::move(m));
    }
    if (pr.plans.empty()) return;
    Plan plan = std::move(pr.plans.front());
    plan.format = InputFormat::EventLog;
    plan.name = "execution " + std::to_string(ex.id) + (ex.description.empty() ? "" : ": " + ex.description);
    plan.query.statement_id = std::to_string(ex.id);
    plan.query.description = ex.description;
    plan.query.status = ex.ended ? "FINISHED" : "RUNNING";
    if (ex.ended && ex.end_ms >= ex.start_ms)
      plan.query.metrics.push_back({"totalTimeMs", "", ex.end_ms - ex.start_ms, MetricUnit::Millis, false});
    plan.loc = event_loc;
    for (auto& op : plan.ops) {
      op.loc = event_loc;
      op.detail_loc = event_loc;
      for (auto& f : op.fields) f.loc = event_loc;
      op.stats.loc = event_loc;
    }
    for (auto& sq : plan.subqueries) sq.loc = event_loc;
    for (auto& t : plan.trailers) t.loc = event_loc;

    // Metric values.
    auto acc_op = match(plan, ex.info);
    std::unordered_map<long long, const InfoMetric*> acc_metric;
    for (const auto& n : ex.info)
      for (const auto& m : n.metrics) acc_metric[m.acc] = &m;
    for (const auto& [acc, oi] : acc_op) {
      auto v = acc_value_.find(acc);
      if (v == acc_value_.end()) continue;
      const InfoMetric* im = acc_metric[acc];
      if (!im || im->type == "average") continue;  // averages are encoded, not summable
      Operator& op = plan.ops[oi];
      Metric m = make_metric(*im, v->second);
      if (m.label == "Number of output rows") op.rows = m.value;
      if (m.label == "Peak memory") op.peak_memory_bytes = m.value;
      if (m.label == "Duration" && !op.duration_ms) op.duration_ms = m.value;
      op.metrics.push_back(std::move(m));
    }
    // Keep the metrics in a stable order (the info's order is per operator already).
    for (auto& op : plan.ops)
      std::stable_sort(op.metrics.begin(), op.metrics.end(),
                       [](const Metric& a, const Metric& b) { return a.label < b.label; });

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
      si.status = st.duration_ms ? "COMPLETE" : "";
      si.num_tasks = st.num_tasks;
      si.duration_ms = st.duration_ms;
      if (!st.task_ms.empty()) {
        std::vector<double> v = st.task_ms;
        for (double t : v) task_total += t;
        si.task_ms_min = *std::min_element(v.begin(), v.end());
        si.task_ms_max = *std::max_element(v.begin(), v.end());
        si.task_ms_median = quantile(v, 0.5);
        si.task_ms_p75 = quantile(v, 0.75);
        if (!si.num_tasks) si.num_tasks = static_cast<double>(v.size());
      }
      std::unordered_set<std::size_t> ops;
      for (long long acc : st.accumulators)
        if (auto o = acc_op.find(acc); o != acc_op.end()) ops.insert(o->second);
      si.operators.assign(ops.begin(), ops.end());
      std::sort(si.operators.begin(), si.operators.end());
      for (std::size_t oi : si.operators) plan.ops[oi].spark_stages.push_back(static_cast<int>(sid));
      plan.stages.push_back(std::move(si));
    }
    if (task_total > 0) plan.query.metrics.push_back({"taskTotalTimeMs", "", task_total, MetricUnit::Millis, false});
    result_.plans.push_back(std::move(plan));
  }
};

// Compressed logs: Spark's codecs each start with a magic number.
std::optional<std::string> compression_of(std::string_view head) {
  auto has = [&](std::string_view magic) { return head.substr(0, magic.size()) == magic; };
  if (has("\x28\xB5\x2F\xFD")) return "zstd";
  if (has("LZ4Block")) return "lz4";
  if (has("\x04\x22\x4D\x18")) return "lz4";
  if (has("\x82SNAPPY")) return "snappy";
  if (has("\xff\x06\x00\x00sNaPpY")) return "snappy";
  if (has("\x1f\x8b")) return "gzip";
  return std::nullopt;
}

ParseResult compressed_error(const std::string& path, const std::string& codec) {
  ParseResult r;
  r.path = path;
  r.format = InputFormat::EventLog;
  std::string tool = codec == "zstd" ? "zstd -d" : codec == "gzip" ? "gzip -d" : codec == "lz4" ? "lz4 -d" : "a snappy tool";
  r.messages.push_back({MessageSeverity::Error, {1, 1, 1, 2},
                        "this is a " + codec + "-compressed event log; planlint reads plain JSON-lines logs: "
                        "decompress it first (" + tool + ") or write logs with spark.eventLog.compress=false"});
  return r;
}

}  // namespace

bool looks_compressed_event_log(std::string_view head) { return compression_of(head).has_value(); }

ParseResult parse_event_log(std::string_view text, const std::string& path, const EventLogOptions& opts) {
  if (auto codec = compression_of(text.substr(0, 16))) return compressed_error(path, *codec);
  Builder b(path);
  std::uint32_t line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    b.feed(text.substr(pos, eol - pos), ++line_no);
    pos = eol + 1;
  }
  return b.finish(opts);
}

ParseResult parse_event_log(std::string_view text, const std::string& path) {
  return parse_event_log(text, path, EventLogOptions{});
}

ParseResult parse_event_log_stream(std::istream& in, const std::string& path, const EventLogOptions& opts) {
  char head[16] = {};
  in.read(head, sizeof head);
  std::string first(head, static_cast<std::size_t>(in.gcount()));
  if (auto codec = compression_of(first)) return compressed_error(path, *codec);
  Builder b(path);
  std::uint32_t line_no = 0;
  std::string line = first;
  std::string rest;
  // Complete the first line, then read line by line: memory stays at one line plus the state.
  std::size_t nl = line.find('\n');
  std::string carry;
  if (nl != std::string::npos) {
    // The 16-byte head may hold a whole short line and the start of the next one.
    std::size_t start = 0;
    while (nl != std::string::npos) {
      b.feed(std::string_view(line).substr(start, nl - start), ++line_no);
      start = nl + 1;
      nl = line.find('\n', start);
    }
    carry = line.substr(start);
  } else {
    carry = line;
  }
  while (std::getline(in, rest)) {
    carry += rest;
    b.feed(carry, ++line_no);
    carry.clear();
  }
  if (!carry.empty()) b.feed(carry, ++line_no);
  return b.finish(opts);
}

}  // namespace planlint
