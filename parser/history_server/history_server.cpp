#include "parser/history_server/history_server.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <iterator>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "parser/common/classify.hpp"
#include "parser/common/facts_fill.hpp"
#include "parser/common/json_id.hpp"
#include "parser/common/shown_children.hpp"
#include "parser/explain/explain.hpp"
#include "support/strings.hpp"

namespace planlint {

namespace {

using json = nlohmann::json;

// Line and column (1-based) of byte offsets in `text`: the line starts are found once, so an
// answer with 100,000 executions costs one pass, not one pass per execution (H3 of the December
// 2026 reliability probe: counting from byte 0 each time was quadratic).
class LineIndex {
 public:
  explicit LineIndex(std::string_view text) : text_(text) {}
  SourceRange at(std::size_t pos, std::size_t len = 1) {
    if (!built_) {
      for (std::size_t p = text_.find('\n'); p != std::string_view::npos; p = text_.find('\n', p + 1))
        newlines_.push_back(p);
      built_ = true;
    }
    pos = std::min(pos, text_.size());
    // Newlines before `pos`: the line is one more; the column counts from the last of them.
    std::size_t before = static_cast<std::size_t>(std::lower_bound(newlines_.begin(), newlines_.end(), pos) - newlines_.begin());
    std::size_t line_start = before == 0 ? 0 : newlines_[before - 1] + 1;
    auto line = static_cast<std::uint32_t>(before + 1);
    auto col = static_cast<std::uint32_t>(pos - line_start + 1);
    return SourceRange{line, col, line, static_cast<std::uint32_t>(col + len)};
  }

 private:
  std::string_view text_;
  std::vector<std::size_t> newlines_;
  bool built_ = false;
};

// "Number of output rows" from "number of output rows total (min, med, max (stageId: taskId))".
std::string metric_label(std::string_view name) {
  name = trim_blank_or_newline(name);
  for (std::string_view suffix : {" total (min, med, max (stageId: taskId))", " total (min, med, max)"})
    if (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix)
      name.remove_suffix(suffix.size());
  std::string s(name);
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

double unit_factor(std::string_view unit, MetricUnit& kind, bool& ok) {
  ok = true;
  static const std::pair<std::string_view, double> sizes[] = {
      {"B", 1.0},          {"KiB", 1024.0},        {"MiB", 1048576.0},        {"GiB", 1073741824.0},
      {"TiB", 1099511627776.0}, {"PiB", 1125899906842624.0}, {"EiB", 1152921504606846976.0},
      // Spark 2.x printed 1024-based units as KB / MB / GB.
      {"KB", 1024.0},      {"MB", 1048576.0},      {"GB", 1073741824.0},      {"TB", 1099511627776.0},
      {"PB", 1125899906842624.0}};
  for (const auto& [u, f] : sizes)
    if (unit == u) {
      kind = MetricUnit::Bytes;
      return f;
    }
  static const std::pair<std::string_view, double> times[] = {
      {"ms", 1.0}, {"s", 1000.0}, {"m", 60000.0}, {"min", 60000.0}, {"h", 3600000.0}};
  for (const auto& [u, f] : times)
    if (unit == u) {
      kind = MetricUnit::Millis;
      return f;
    }
  ok = unit.empty();
  kind = MetricUnit::Count;
  return 1.0;
}

}  // namespace

namespace {

// A display string's value in the model's unit (history_server_metric without the label).
std::optional<std::pair<double, MetricUnit>> display_value(std::string_view value) {
  // Per-task metrics: "total (min, med, max (stageId: taskId))\n<total> (<min>, <med>, <max> (...))";
  // Spark 3.0 put the header into the name and the REST layer strips the leading newline.
  std::string_view v = trim_blank_or_newline(value);
  if (std::size_t nl = v.rfind('\n'); nl != std::string_view::npos) v = trim_blank_or_newline(v.substr(nl + 1));
  if (v.empty() || v.front() == '(') return std::nullopt;  // averages: "(min, med, max ...)" only
  if (std::size_t paren = v.find(" ("); paren != std::string_view::npos) v = trim_blank_or_newline(v.substr(0, paren));
  // Number (with US thousands separators) and an optional unit.
  std::string digits;
  std::size_t i = 0;
  if (i < v.size() && v[i] == '-') digits += v[i++];
  for (; i < v.size(); ++i) {
    char c = v[i];
    if (c >= '0' && c <= '9') digits += c;
    else if (c == '.') digits += c;
    else if (c == ',') continue;
    else break;
  }
  if (digits.empty() || digits == "-" || digits == ".") return std::nullopt;
  std::string_view unit = trim_blank_or_newline(v.substr(i));
  MetricUnit kind = MetricUnit::Count;
  bool ok = false;
  double factor = unit_factor(unit, kind, ok);
  if (!ok) return std::nullopt;
  char* end = nullptr;
  double number = std::strtod(digits.c_str(), &end);
  if (end != digits.c_str() + digits.size() || !std::isfinite(number)) return std::nullopt;
  return std::pair{number * factor, kind};
}

}  // namespace

std::optional<Metric> history_server_metric(MetricNames& names, std::string_view name, std::string_view value) {
  auto v = display_value(value);
  if (!v) return std::nullopt;
  Metric m;
  m.label = names(metric_label(name));
  m.unit = v->second;
  m.value = v->first;
  return m;
}

namespace {

// The per-task spread of a metric: "total (min, med, max (stageId: taskId))\n<sum> (<min>, <med>,
// <max> (stage S.A: task T))". Values in the metric's unit; `stage` from the task with the max.
struct Spread {
  double min = 0, med = 0, max = 0;
  long long stage = -1;
};

std::optional<Spread> metric_spread(std::string_view value) {
  std::string_view v = trim_blank_or_newline(value);
  if (std::size_t nl = v.rfind('\n'); nl != std::string_view::npos) v = trim_blank_or_newline(v.substr(nl + 1));
  std::size_t open = v.find(" (");
  if (open == std::string_view::npos || v.back() != ')') return std::nullopt;
  std::string_view inner = v.substr(open + 2, v.size() - open - 3);  // "<min>, <med>, <max> (stage S.A: task T)"
  std::size_t c1 = inner.find(", ");
  std::size_t c2 = c1 == std::string_view::npos ? c1 : inner.find(", ", c1 + 2);
  std::size_t st = inner.find(" (stage ");
  if (c2 == std::string_view::npos || st == std::string_view::npos || st < c2) return std::nullopt;
  auto mn = display_value(inner.substr(0, c1));
  auto md = display_value(inner.substr(c1 + 2, c2 - c1 - 2));
  auto mx = display_value(inner.substr(c2 + 2, st - c2 - 2));
  if (!mn || !md || !mx) return std::nullopt;
  Spread s{mn->first, md->first, mx->first, -1};
  std::string_view stage = inner.substr(st + 8);
  long long id = 0;
  std::size_t i = 0;
  // At most 18 digits: a longer run is no stage id (and would overflow a long long).
  for (; i < stage.size() && stage[i] >= '0' && stage[i] <= '9'; ++i) {
    if (i == 18) return s;
    id = id * 10 + (stage[i] - '0');
  }
  if (i > 0) s.stage = id;
  return s;
}

}  // namespace

bool looks_like_history_server(std::string_view text) {
  // Detection sees only the input's first bytes (parser/registry/reader.hpp: kDetectBytes), and a
  // `description` can be a whole SQL statement longer than that, so the answer is recognised on its
  // structure: Jackson writes ExecutionData's fields in declaration order, `"id": <number>` then
  // `"status"`, at the start of the object (or of the list's first object). A head that already
  // holds "planDescription" with the job-id lists or "submissionTime" is taken as well.
  std::size_t i = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  auto blank = [&](std::size_t& k) {
    while (k < text.size() && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r' || text[k] == '\n')) ++k;
  };
  blank(i);
  if (i >= text.size()) return false;
  std::size_t j = i;
  if (text[j] == '[') {
    ++j;
    blank(j);
    if (j >= text.size() || text[j] == ']') return false;  // an empty list says nothing
  }
  if (text[j] != '{') return false;
  std::size_t k = j + 1;
  blank(k);
  auto key = [&](std::string_view name) {
    std::string_view quoted = text.substr(k, name.size() + 2);
    if (quoted.size() != name.size() + 2 || quoted.front() != '"' || quoted.back() != '"' ||
        quoted.substr(1, name.size()) != name)
      return false;
    k += name.size() + 2;
    blank(k);
    if (k >= text.size() || text[k] != ':') return false;
    ++k;
    blank(k);
    return true;
  };
  if (key("id") && k < text.size() && text[k] >= '0' && text[k] <= '9') {
    while (k < text.size() && text[k] >= '0' && text[k] <= '9') ++k;
    blank(k);
    if (k < text.size() && text[k] == ',') {
      ++k;
      blank(k);
      if (key("status")) return true;
    }
  }
  std::string_view head = text.substr(j, 1 << 16);
  // Tools that rewrite the answer (jq -S, json.dump(sort_keys=True)) put the keys in alphabetical
  // order: description, duration, edges, failedJobIds, id, nodes, planDescription ... The SQL
  // tab's graph (nodes with nodeName, edges with fromId) then comes before the plan text.
  bool plan = head.find("\"planDescription\"") != std::string_view::npos ||
              (head.find("\"nodeName\"") != std::string_view::npos && head.find("\"fromId\"") != std::string_view::npos) ||
              (head.find("\"edges\"") != std::string_view::npos && head.find("\"failedJobIds\"") != std::string_view::npos);
  bool jobs = head.find("\"successJobIds\"") != std::string_view::npos ||
              head.find("\"runningJobIds\"") != std::string_view::npos ||
              head.find("\"failedJobIds\"") != std::string_view::npos;
  return plan && (jobs || head.find("\"submissionTime\"") != std::string_view::npos ||
                  head.find("\"status\"") != std::string_view::npos);
}

namespace {

struct GraphNode {
  long long id = 0;
  std::string name;
  std::vector<Metric> metrics;
  std::vector<std::pair<std::string, Spread>> spreads;  // metric label -> per-task spread
  std::optional<long long> codegen_id;                  // wholeStageCodegenId; the cluster's own n
  std::vector<long long> children;  // ascending id: SparkPlanGraph numbers nodes in pre-order
  bool cluster = false;             // WholeStageCodegen (n)
};

bool skipped_in_graph(const Operator& op) {
  // SparkPlanGraph has no node for query stages (it points to their exchange), InputAdapter or
  // the WholeStageCodegen wrapper (a cluster, not on any edge).
  return op.kind == OpKind::QueryStage || op.name == "InputAdapter" || op.name.starts_with("WholeStageCodegen");
}

// Pair graph nodes with parsed operators: walk both from the root; stop where names disagree.
std::unordered_map<long long, std::size_t> match(const Plan& plan, const std::map<long long, GraphNode>& graph,
                                                 long long root) {
  std::unordered_map<long long, std::size_t> out;
  if (plan.roots.empty() || !graph.count(root)) return out;
  std::set<std::size_t> used;
  std::vector<std::pair<long long, std::size_t>> stack{{root, plan.roots.front()}};
  std::size_t guard = 0;
  const std::size_t limit = 4 * (graph.size() + plan.ops.size()) + 16;
  while (!stack.empty() && guard++ < limit) {
    auto [gid, oi] = stack.back();
    stack.pop_back();
    std::size_t hops = 0;
    while (skipped_in_graph(plan.ops[oi]) && plan.ops[oi].children.size() == 1 && hops++ < plan.ops.size())
      oi = plan.ops[oi].children.front();
    const GraphNode& g = graph.at(gid);
    const Operator& op = plan.ops[oi];
    if (trim_blank_or_newline(g.name) != trim_blank_or_newline(op.name) || out.count(gid) || used.count(oi)) continue;
    out[gid] = oi;
    used.insert(oi);
    if (op.kind == OpKind::ReusedExchange) continue;
    std::vector<std::size_t> kids = shown_children(plan, oi);
    std::vector<long long> gk;
    for (long long c : g.children)
      if (graph.count(c) && !graph.at(c).cluster) gk.push_back(c);
    std::size_t n = std::min(kids.size(), gk.size());
    for (std::size_t k = 0; k < n; ++k) stack.emplace_back(gk[k], kids[k]);
  }
  // What the walk left: a name printed once in both (outside the AQE initial plan) is the same node.
  std::map<std::string, std::vector<long long>> g_by_name;
  std::map<std::string, std::vector<std::size_t>> o_by_name;
  for (const auto& [id, g] : graph)
    if (!g.cluster && !out.count(id)) g_by_name[std::string(trim_blank_or_newline(g.name))].push_back(id);
  for (const auto& op : plan.ops)
    if (!used.count(op.index) && op.section != Section::AqeInitial && !op.logical)
      o_by_name[std::string(trim_blank_or_newline(op.name))].push_back(op.index);
  for (const auto& [name, ids] : g_by_name) {
    auto it = o_by_name.find(name);
    if (ids.size() == 1 && it != o_by_name.end() && it->second.size() == 1) out[ids.front()] = it->second.front();
  }
  return out;
}

long long as_ll(const json& j, long long fallback = -1) {
  if (j.is_number_integer()) return j.get<long long>();  // (an unsigned above 2^63 wraps: a bad id)
  if (j.is_number()) {
    // A double outside long long's range (1e308, a 29-digit id) is no id: casting it is undefined.
    return id_from_double(j.get<double>()).value_or(fallback);
  }
  if (j.is_string()) {
    const std::string& s = j.get_ref<const std::string&>();
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(s.c_str(), &end, 10);
    if (end != s.c_str() && *end == 0 && errno == 0) return v;
  }
  return fallback;
}

std::string as_str(const json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A char iterator over the answer that remembers the last byte the JSON lexer read, so the SAX
// pass below knows where a key is: the lexer has just read the key's closing quote when it hands
// the key over.
struct TrackedChar {
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  const char* p = nullptr;
  const char** last = nullptr;
  reference operator*() const {
    *last = p;
    return *p;
  }
  TrackedChar& operator++() {
    ++p;
    return *this;
  }
  TrackedChar operator++(int) {
    TrackedChar old = *this;
    ++p;
    return old;
  }
  bool operator==(const TrackedChar& o) const { return p == o.p; }
  bool operator!=(const TrackedChar& o) const { return p != o.p; }
};

// One execution as the SAX pass keeps it: only the fields the reader uses, and where its own
// "planDescription" key is (W1 of the December 2026 probe: pairing executions with the n-th
// "planDescription" text of the file put findings on another execution's line).
struct KeptExecution {
  json obj = json::object();
  std::optional<std::size_t> plan_key;  // byte offset of the 'p' of its "planDescription" key
};

// The answer read without a DOM of the whole text (S4 of the December 2026 probe: nlohmann's DOM
// is 19-37 times the input): a SAX pass keeps of each ExecutionData only id, status,
// description, planDescription, duration, the job-id lists (successJobIds, failedJobIds,
// runningJobIds), nodes (nodeId, nodeName, wholeStageCodegenId, metrics'
// name and value) and edges (fromId, toId), and skips everything else without building it. With
// `only`, executions with another id are dropped as soon as they end. Nesting is counted, not
// recursed into (nlohmann's SAX parser keeps its own stack).
class KeepSax : public nlohmann::json_sax<json> {
 public:
  enum class Ctx { Top, ExecList, Exec, Nodes, Node, Metrics, Metric, Edges, Edge, Ids, Scalar, Skip };

  KeepSax(const char* begin, const char** last, std::optional<long long> only)
      : begin_(begin), last_(last), only_(only) {}

  std::vector<KeptExecution> execs;
  std::size_t seen = 0;  // ExecutionData objects read, kept or not
  std::optional<std::size_t> error_at;
  std::string error;

  bool null() override { return scalar(json(nullptr)); }
  bool boolean(bool v) override { return scalar(json(v)); }
  bool number_integer(number_integer_t v) override { return scalar(json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return scalar(json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return scalar(json(v)); }
  bool string(string_t& v) override { return scalar(json(std::move(v))); }
  bool binary(binary_t&) override { return scalar(json(nullptr)); }

  bool start_object(std::size_t) override { return open(true); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& k) override {
    if (skip_depth_ > 0) return true;
    Frame& f = stack_.back();
    pending_key_ = std::move(k);
    pending_ = child_of_key(f.ctx, pending_key_);
    if (f.ctx == Ctx::Exec && pending_key_ == "planDescription" && *last_ && !execs.empty()) {
      // The lexer has read the key's closing quote: the 'p' is 15 bytes before it.
      std::size_t quote = static_cast<std::size_t>(*last_ - begin_);
      execs.back().plan_key = quote >= 15 ? quote - 15 : 0;
    }
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    error_at = position > 0 ? position - 1 : 0;
    std::string what = ex.what();
    if (std::size_t p = what.find("syntax error"); p != std::string::npos) what = what.substr(p);
    else if (std::size_t q = what.find("] "); q != std::string::npos && what.compare(0, 16, "[json.exception.") == 0)
      what = what.substr(q + 2);  // "[json.exception.out_of_range.406] number overflow parsing '1e400'"
    if (ex.id == 406) what = "number out of range (" + what + ")";
    error = what;
    return false;
  }

 private:
  struct Frame {
    Ctx ctx;
    json* target;  // the container being filled (nullptr: an object or array kept as a whole is not needed)
  };

  static Ctx child_of_key(Ctx parent, const std::string& k) {
    switch (parent) {
      case Ctx::Exec:
        if (k == "id" || k == "status" || k == "description" || k == "planDescription" || k == "duration")
          return Ctx::Scalar;
        if (k == "nodes") return Ctx::Nodes;
        if (k == "edges") return Ctx::Edges;
        if (k == "successJobIds" || k == "failedJobIds" || k == "runningJobIds") return Ctx::Ids;
        return Ctx::Skip;
      case Ctx::Node:
        if (k == "nodeId" || k == "nodeName" || k == "wholeStageCodegenId") return Ctx::Scalar;
        if (k == "metrics") return Ctx::Metrics;
        return Ctx::Skip;
      case Ctx::Metric:
        return k == "name" || k == "value" ? Ctx::Scalar : Ctx::Skip;
      case Ctx::Edge:
        return k == "fromId" || k == "toId" ? Ctx::Scalar : Ctx::Skip;
      default:
        return Ctx::Skip;
    }
  }

  // What a value at the current place is: the pending key's context in an object, the items'
  // context in an array.
  Ctx here() const {
    if (stack_.empty()) return Ctx::Top;
    switch (stack_.back().ctx) {
      case Ctx::ExecList: return Ctx::Exec;
      case Ctx::Nodes: return Ctx::Node;
      case Ctx::Metrics: return Ctx::Metric;
      case Ctx::Edges: return Ctx::Edge;
      case Ctx::Ids: return Ctx::Scalar;
      case Ctx::Exec:
      case Ctx::Node:
      case Ctx::Metric:
      case Ctx::Edge: return pending_;
      default: return Ctx::Skip;
    }
  }

  // Stores `v` at the current place of the parent container.
  json* store(json v) {
    Frame& f = stack_.back();
    if (!f.target) return nullptr;
    if (f.target->is_array()) {
      f.target->push_back(std::move(v));
      return &f.target->back();
    }
    json& slot = (*f.target)[pending_key_];
    slot = std::move(v);
    return &slot;
  }

  bool scalar(json v) {
    if (skip_depth_ > 0) return true;
    Ctx c = here();
    if (c == Ctx::Scalar) store(std::move(v));
    return true;  // a scalar where a list or object belongs is left out, as the reader ignores it
  }

  bool open(bool object) {
    if (skip_depth_ > 0) {
      ++skip_depth_;
      return true;
    }
    Ctx c = here();
    if (c == Ctx::Top) {
      if (!object) {
        stack_.push_back({Ctx::ExecList, nullptr});
        return true;
      }
      c = Ctx::Exec;
    }
    bool fits = object ? (c == Ctx::Exec || c == Ctx::Node || c == Ctx::Metric || c == Ctx::Edge)
                       : (c == Ctx::Nodes || c == Ctx::Metrics || c == Ctx::Edges || c == Ctx::Ids);
    if (!fits) {
      if (c == Ctx::Scalar) store(json(nullptr));  // "id": [...]: present, but no number
      skip_depth_ = 1;
      return true;
    }
    if (c == Ctx::Exec) {
      ++seen;
      execs.emplace_back();
      stack_.push_back({c, &execs.back().obj});
      return true;
    }
    json* made = store(object ? json::object() : json::array());
    stack_.push_back({c, made});
    return true;
  }

  bool close() {
    if (skip_depth_ > 0) {
      --skip_depth_;
      return true;
    }
    if (stack_.empty()) return true;
    Ctx c = stack_.back().ctx;
    stack_.pop_back();
    if (c == Ctx::Exec && only_ && !execs.empty()) {
      const json& o = execs.back().obj;
      auto id = o.find("id");
      if (id == o.end() || as_ll(*id) != *only_) execs.pop_back();
    }
    return true;
  }

  const char* begin_;
  const char** last_;
  std::optional<long long> only_;
  std::vector<Frame> stack_;
  std::size_t skip_depth_ = 0;
  std::string pending_key_;
  Ctx pending_ = Ctx::Skip;
};

// The codegen id a cluster's name carries: "WholeStageCodegen (3)" -> 3.
std::optional<long long> codegen_id_in_name(std::string_view nm) {
  std::size_t open = nm.find('(');
  if (open == std::string_view::npos) return std::nullopt;
  long long id = 0;
  std::size_t i = open + 1, digits = 0;
  for (; i < nm.size() && nm[i] >= '0' && nm[i] <= '9'; ++i, ++digits)
    if (digits < 18) id = id * 10 + (nm[i] - '0');
  // More than 18 digits is no codegen id (and would overflow a long long).
  if (digits > 0 && digits <= 18) return id;
  return std::nullopt;
}

// One element of an execution's `nodes`.
GraphNode read_graph_node(MetricNames& names, const json& n) {
  GraphNode g;
  g.id = as_ll(n["nodeId"]);
  g.name = as_str(n, "nodeName");
  g.cluster = trim_blank_or_newline(g.name).starts_with("WholeStageCodegen");
  if (auto c = n.find("wholeStageCodegenId"); c != n.end() && c->is_number()) g.codegen_id = as_ll(*c);
  if (g.cluster)
    if (auto id = codegen_id_in_name(trim_blank_or_newline(g.name))) g.codegen_id = id;
  if (auto ms = n.find("metrics"); ms != n.end() && ms->is_array())
    for (const auto& m : *ms) {
      if (!m.is_object()) continue;
      std::string mname = as_str(m, "name"), mvalue = as_str(m, "value");
      // Spark 3.2-era answers (SPARK-38222) wrote a value as an object {"amount": "2"}.
      if (auto v = m.find("value"); mvalue.empty() && v != m.end() && v->is_object()) mvalue = as_str(*v, "amount");
      if (auto metric = history_server_metric(names, mname, mvalue)) {
        if (auto sp = metric_spread(mvalue)) g.spreads.emplace_back(metric->label.str(), *sp);
        g.metrics.push_back(std::move(*metric));
      }
    }
  return g;
}

// The SQL tab's graph of one execution: its nodes with their metric values, joined by its edges
// (children sorted, without repeats).
struct SqlGraph {
  std::shared_ptr<TextStore> store = std::make_shared<TextStore>();  // the metric labels: its plan takes it
  std::map<long long, GraphNode> nodes;
  long long root = -1;  // the first node that is no cluster and no one's child
};

SqlGraph read_sql_graph(const json& ex) {
  SqlGraph sg;
  MetricNames names(*sg.store);
  std::map<long long, GraphNode>& graph = sg.nodes;
  if (auto nodes = ex.find("nodes"); nodes != ex.end() && nodes->is_array()) {
    for (const auto& n : *nodes) {
      if (!n.is_object() || !n.contains("nodeId")) continue;
      GraphNode g = read_graph_node(names, n);
      graph[g.id] = std::move(g);
    }
  }
  std::set<long long> has_parent;
  if (auto edges = ex.find("edges"); edges != ex.end() && edges->is_array()) {
    for (const auto& e : *edges) {
      if (!e.is_object() || !e.contains("fromId") || !e.contains("toId")) continue;
      long long from = as_ll(e["fromId"]), to = as_ll(e["toId"]);
      auto parent = graph.find(to);
      if (parent == graph.end() || !graph.count(from) || from == to) continue;
      parent->second.children.push_back(from);
      has_parent.insert(from);
    }
  }
  for (auto& [gid, g] : graph) {
    std::sort(g.children.begin(), g.children.end());
    g.children.erase(std::unique(g.children.begin(), g.children.end()), g.children.end());
    if (sg.root < 0 && !g.cluster && !has_parent.count(gid)) sg.root = gid;
  }
  return sg;
}

bool by_label(const Metric& a, const Metric& b) { return a.label < b.label; }

// Each matched node's metrics onto its operator (rows, peak memory and duration also as fields).
void put_node_metrics(Plan& plan, const std::map<long long, GraphNode>& graph,
                      const std::unordered_map<long long, std::size_t>& pairs) {
  for (const auto& [gid, oi] : pairs) {
    Operator& op = plan.ops[oi];
    for (const Metric& m : graph.at(gid).metrics) {
      if (m.label == "Number of output rows") op.edit_runtime().rows = m.value;
      if (m.label == "Peak memory") op.edit_runtime().extra.edit().peak_memory_bytes = m.value;
      if (m.label == "Duration" && !op.duration_ms()) op.edit_runtime().duration_ms = m.value;
      op.edit_runtime().metrics.push_back(m);
    }
    if (op.has_runtime()) std::stable_sort(op.edit_runtime().metrics.begin(), op.edit_runtime().metrics.end(), by_label);
  }
}

// A codegen stage's duration (the cluster's `duration`), as the event log's reader puts it: on the
// stage's top operator (the member no member consumes), never as its own time.
void put_codegen_durations(Plan& plan, const std::map<long long, GraphNode>& graph,
                           const std::unordered_map<long long, std::size_t>& pairs) {
  for (const auto& [gid, g] : graph) {
    if (!g.cluster || !g.codegen_id) continue;
    auto d = std::find_if(g.metrics.begin(), g.metrics.end(), [](const Metric& m) { return m.label == "Duration"; });
    if (d == g.metrics.end() || !d->value) continue;
    std::optional<std::size_t> top;
    const long long cid = *g.codegen_id;  // (a lambda cannot capture a structured binding before clang 16)
    for (const auto& [mid, oi] : pairs) {
      auto mg = graph.find(mid);
      if (mg == graph.end() || mg->second.cluster || mg->second.codegen_id != cid) continue;
      const Operator& op = plan.ops[oi];
      bool consumed = std::any_of(op.parents.begin(), op.parents.end(), [&](std::size_t p) {
        return p < plan.ops.size() && plan.ops[p].codegen_stage && *plan.ops[p].codegen_stage == cid;
      });
      if (!consumed && (!top || oi < *top)) top = oi;
    }
    if (!top) continue;
    Metric m = *d;
    m.label = "WholeStageCodegen duration";
    auto& ms = plan.ops[*top].edit_runtime().metrics;
    ms.insert(std::upper_bound(ms.begin(), ms.end(), m, by_label), std::move(m));
  }
}

// Stages: the SQL tab gives no task list, but every per-task metric names the stage of its
// largest task, and a codegen stage's `duration` is the spread of its per-task time: that spread
// stands in for the stage's task times (min, median, max; no p75).
void put_stages(Plan& plan, const std::map<long long, GraphNode>& graph,
                const std::unordered_map<long long, std::size_t>& pairs) {
  std::map<long long, StageInfo> stages;
  std::map<long long, long long> codegen_stage;  // codegen id -> Spark stage id
  for (const auto& [gid, g] : graph) {
    if (!g.cluster || !g.codegen_id) continue;
    for (const auto& [label, sp] : g.spreads) {
      if (label != "Duration" || sp.stage < 0) continue;
      StageInfo& si = stages[sp.stage];
      si.id = std::to_string(sp.stage);
      if (!si.task_ms_max || sp.max > *si.task_ms_max) {
        si.task_ms_min = sp.min;
        si.task_ms_median = sp.med;
        si.task_ms_max = sp.max;
      }
      codegen_stage[*g.codegen_id] = sp.stage;
    }
  }
  for (const auto& [gid, oi] : pairs) {
    const GraphNode& g = graph.at(gid);
    std::set<long long> ids;
    for (const auto& [label, sp] : g.spreads)
      if (sp.stage >= 0) ids.insert(sp.stage);
    if (g.codegen_id)
      if (auto it = codegen_stage.find(*g.codegen_id); it != codegen_stage.end()) ids.insert(it->second);
    for (long long sid : ids) {
      plan.ops[oi].edit_runtime().extra.edit().spark_stages.push_back(static_cast<int>(sid));
      StageInfo& si = stages[sid];
      si.id = std::to_string(sid);
      si.operators.push_back(oi);
    }
  }
  for (auto& [sid, si] : stages) {
    std::sort(si.operators.begin(), si.operators.end());
    plan.stages.push_back(std::move(si));
  }
}

// The SQL tab's graph onto the plan read from its planDescription: metric values, codegen stage
// durations and stages on the operators the graph's nodes match; a note when some do not match.
void apply_sql_graph(Plan& plan, const SqlGraph& sg, SourceRange loc, const std::string& label, ParseResult& result) {
  const std::map<long long, GraphNode>& graph = sg.nodes;
  if (graph.empty()) return;
  plan.share_text_store(sg.store);  // the metrics' labels
  auto pairs = match(plan, graph, sg.root);
  std::size_t non_cluster = 0;
  for (const auto& [gid, g] : graph) non_cluster += g.cluster ? 0 : 1;
  put_node_metrics(plan, graph, pairs);
  put_codegen_durations(plan, graph, pairs);
  put_stages(plan, graph, pairs);
  if (pairs.size() < non_cluster)
    result.messages.push_back({MessageSeverity::Note, loc,
                               label + ": metrics of " + std::to_string(non_cluster - pairs.size()) + " of " +
                                   std::to_string(non_cluster) +
                                   " graph nodes could not be matched to an operator of the plan text"});
}

// One kept execution into a plan (none when it has no readable planDescription); its messages go
// to `result`, placed on its "planDescription" key.
std::optional<Plan> read_execution(const KeptExecution& kept, long long id, const std::string& path, LineIndex& lines,
                                   ParseResult& result) {
  const json& ex = kept.obj;
  SourceRange loc = kept.plan_key ? lines.at(*kept.plan_key, 15) : lines.at(0);
  std::string description = as_str(ex, "description");
  std::string plan_text = as_str(ex, "planDescription");
  std::string label = "execution " + std::to_string(id);
  if (plan_text.empty()) {
    result.messages.push_back(
        {MessageSeverity::Error, loc, label + ": no planDescription (fetch with planDescription=true, the default)"});
    return std::nullopt;
  }
  ParseResult pr = parse_explain_text(plan_text, path);
  for (auto& m : pr.messages) {
    m.message = label + ", plan line " + std::to_string(m.loc.line) + ": " + m.message;
    m.loc = loc;
    result.messages.push_back(std::move(m));
  }
  if (pr.plans.empty()) return std::nullopt;
  Plan plan = std::move(pr.plans.front());
  plan.format = InputFormat::HistoryServer;
  plan.name = label + (description.empty() ? "" : ": " + description);
  plan.query.statement_id = std::to_string(id);
  plan.query.description = description;
  plan.query.status = as_str(ex, "status");
  if (auto d = ex.find("duration"); d != ex.end() && d->is_number() && d->get<double>() >= 0)
    plan.query.metrics.push_back({"totalTimeMs", "", d->get<double>(), MetricUnit::Millis, false});
  plan.relocate_all(loc);
  // The execution's jobs by how they ended (no stage status: the /sql answer has none).
  for (const auto& [key, status] : {std::pair{"successJobIds", JobStatus::Succeeded},
                                    std::pair{"failedJobIds", JobStatus::Failed},
                                    std::pair{"runningJobIds", JobStatus::Running}}) {
    auto ids = ex.find(key);
    if (ids == ex.end() || !ids->is_array()) continue;
    for (const json& v : *ids)
      if (long long jid = as_ll(v); jid >= 0) plan.jobs.push_back({std::to_string(jid), status, {}, {}});
  }
  std::stable_sort(plan.jobs.begin(), plan.jobs.end(), [](const JobInfo& a, const JobInfo& b) {
    return a.id.size() != b.id.size() ? a.id.size() < b.id.size() : a.id < b.id;
  });
  apply_sql_graph(plan, read_sql_graph(ex), loc, label, result);
  // SQL metric names as the event log's reader labels them: the same name table.
  fill_eventlog_facts(plan, "");
  return plan;
}

}  // namespace

ParseResult parse_history_server(std::string_view text, const std::string& path, const HistoryServerOptions& opts) {
  ParseResult result;
  result.path = path;
  result.format = InputFormat::HistoryServer;
  result.traits = kHistoryServerTraits;
  LineIndex lines(text);
  const char* last = nullptr;
  KeepSax sax(text.data(), &last, opts.execution);
  TrackedChar first{text.data(), &last}, end{text.data() + text.size(), &last};
  bool ok = false;
  try {
    ok = json::sax_parse(first, end, &sax);
  } catch (const std::exception& e) {  // the SAX handler reports errors; this is a last guard
    sax.error = e.what();
    sax.error_at = 0;
  }
  if (!ok || sax.error_at) {
    result.messages.push_back({MessageSeverity::Error, lines.at(sax.error_at.value_or(0)),
                               "History Server answer is not valid JSON: " +
                                   (sax.error.empty() ? std::string("cannot be read") : sax.error) +
                                   " (hint: save the whole answer of /api/v1/applications/<app>/sql)"});
    return result;
  }
  if (sax.seen == 0) {
    result.messages.push_back({MessageSeverity::Error, lines.at(0),
                               "expected a SQL execution object (ExecutionData) or a list of them"});
    return result;
  }

  bool matched_any = false;
  for (const KeptExecution& kept : sax.execs) {
    long long id = kept.obj.contains("id") ? as_ll(kept.obj["id"]) : -1;
    if (opts.execution && id != *opts.execution) continue;
    matched_any = true;
    if (std::optional<Plan> plan = read_execution(kept, id, path, lines, result)) result.plans.push_back(std::move(*plan));
  }
  if (opts.execution && !matched_any)
    result.messages.push_back({MessageSeverity::Error, lines.at(0),
                               "no SQL execution " + std::to_string(*opts.execution) + " in this answer"});
  return result;
}


// ---- Fragments: node objects of a /sql answer pasted without their execution ----------------

namespace {

// A line that holds only an author's elision: `...`, `…`, `(...)`, `[...]`, maybe with a comma.
bool elision_line(std::string_view line) {
  line = trim_blank_or_newline(line);
  if (!line.empty() && line.back() == ',') line = trim_blank_or_newline(line.substr(0, line.size() - 1));
  return line == "..." || line == "\xE2\x80\xA6" || line == "(...)" || line == "[...]" || line == "{...}";
}

struct FragmentText {
  std::vector<std::pair<std::size_t, std::size_t>> values;  // [begin, end) of each top-level value
  std::string repaired;                                     // the text with elisions blanked, brackets closed
  std::vector<std::size_t> elisions;                        // byte offsets of elision lines
  std::optional<std::size_t> first_unclosed;                // where a missing closer was first put
};

// The top-level JSON values of a fragment, with elision lines blanked and the closers an author
// dropped put back (a `}` that meets an open `[` closes the array first; the end closes the rest).
FragmentText split_fragment(std::string_view text) {
  FragmentText f;
  std::string& out = f.repaired;
  out.reserve(text.size() + 16);
  std::vector<char> stack;
  bool in_string = false, escaped = false;
  std::size_t begin = 0, line_start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == line_start) {
      std::size_t eol = text.find('\n', i);
      std::string_view line = text.substr(i, (eol == std::string_view::npos ? text.size() : eol) - i);
      line_start = eol == std::string_view::npos ? text.size() + 1 : eol + 1;
      if (!in_string && elision_line(line)) {
        f.elisions.push_back(i);
        out.append(line.size(), ' ');
        i += line.size() - 1 + (eol == std::string_view::npos ? 0 : 1);
        if (eol != std::string_view::npos) out += '\n';
        continue;
      }
    }
    char c = text[i];
    if (in_string) {
      out += c;
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '{' || c == '[') {
      if (stack.empty()) begin = out.size();
      stack.push_back(c == '{' ? '}' : ']');
    } else if (c == '}' || c == ']') {
      if (std::find(stack.begin(), stack.end(), c) == stack.end()) {
        out += ' ';  // a closer nothing opened: dropped
        continue;
      }
      while (stack.back() != c) {
        if (!f.first_unclosed) f.first_unclosed = i;
        out += stack.back();
        stack.pop_back();
      }
      stack.pop_back();
      out += c;
      if (stack.empty()) f.values.emplace_back(begin, out.size());
      continue;
    } else if (stack.empty() && c == ',') {
      out += ' ';
      continue;
    }
    out += c;
  }
  if (!stack.empty()) {
    if (!f.first_unclosed) f.first_unclosed = text.size();
    while (!stack.empty()) out += stack.back(), stack.pop_back();
    f.values.emplace_back(begin, out.size());
  }
  return f;
}

void collect_nodes(const json& v, std::vector<const json*>& nodes) {
  if (v.is_array()) {
    for (const auto& e : v) collect_nodes(e, nodes);
  } else if (v.is_object()) {
    if (v.contains("nodeName")) nodes.push_back(&v);
    else if (auto n = v.find("nodes"); n != v.end() && n->is_array())
      for (const auto& e : *n) collect_nodes(e, nodes);
  }
}

}  // namespace

bool looks_like_history_server_fragment(std::string_view text) {
  std::size_t i = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n' || text[i] == '[')) ++i;
  if (i >= text.size() || text[i] != '{') return false;
  std::string_view head = text.substr(i, 4096);
  std::size_t first_key = head.find('"');
  if (first_key == std::string_view::npos) return false;
  // A node object opens with "nodeId" (Jackson's order) or, sorted, "metrics" before "nodeId".
  std::string_view key = head.substr(first_key);
  bool node_first = key.starts_with("\"nodeId\"") || key.starts_with("\"nodeName\"") ||
                    (key.starts_with("\"metrics\"") && head.find("\"nodeId\"") != std::string_view::npos);
  return node_first && head.find("\"nodeName\"") != std::string_view::npos &&
         head.find("\"planDescription\"") == std::string_view::npos;
}

ParseResult parse_history_server_fragment(std::string_view text, const std::string& path) {
  ParseResult result;
  result.path = path;
  result.format = InputFormat::HistoryServer;
  result.traits = kHistoryServerTraits;
  LineIndex lines(text);
  FragmentText f = split_fragment(text);
  std::vector<json> values;
  std::vector<std::size_t> value_at;
  for (const auto& [b, e] : f.values) {
    json v = json::parse(std::string_view(f.repaired).substr(b, e - b), nullptr, false);
    if (v.is_discarded()) {
      result.messages.push_back({MessageSeverity::Error, lines.at(std::min(b, text.size())),
                                 "History Server fragment: a pasted object is not JSON even with its brackets closed"});
      continue;
    }
    values.push_back(std::move(v));
    value_at.push_back(b);
  }
  std::vector<const json*> node_json;
  for (const auto& v : values) collect_nodes(v, node_json);
  auto store = std::make_shared<TextStore>();  // the metrics' labels: the plan takes it
  MetricNames names(*store);
  std::vector<GraphNode> nodes;
  for (const json* n : node_json) nodes.push_back(read_graph_node(names, *n));
  const std::string shape = std::to_string(nodes.size()) + (nodes.size() == 1 ? " node object" : " node objects") +
                            " of a History Server /sql answer (`nodeId`, `nodeName`, `metrics`) without the execution around " +
                            (nodes.size() == 1 ? "it" : "them") + " (no `planDescription`, no `edges`)";
  const std::string hint = " (hint: save the whole answer of /api/v1/applications/<app>/sql)";
  Plan plan;
  plan.share_text_store(std::move(store));
  plan.format = InputFormat::HistoryServer;
  plan.name = "History Server fragment";
  plan.loc = lines.at(0);
  for (const GraphNode& g : nodes) {
    if (g.cluster) continue;
    Operator op;
    op.index = plan.ops.size();
    op.id = plan.keep(std::to_string(g.id));
    op.name = plan.keep(trim_blank_or_newline(g.name));
    op.label = op.name;
    Classification c = classify_operator(op.name);
    op.kind = c.kind;
    op.engine = c.engine;
    if (g.codegen_id && *g.codegen_id >= 0 && *g.codegen_id < (1LL << 31)) {
      op.codegen = true;
      op.codegen_stage = static_cast<std::int32_t>(*g.codegen_id);
    }
    op.loc = plan.loc;
    for (const Metric& m : g.metrics) {
      if (m.label == "Number of output rows") op.edit_runtime().rows = m.value;
      if (m.label == "Duration" && !op.duration_ms()) op.edit_runtime().duration_ms = m.value;
      op.edit_runtime().metrics.push_back(m);
    }
    if (op.has_runtime()) std::stable_sort(op.edit_runtime().metrics.begin(), op.edit_runtime().metrics.end(), by_label);
    plan.roots.push_back(op.index);
    plan.ops.push_back(std::move(op));
  }
  if (plan.ops.empty()) {
    std::string names;
    for (const GraphNode& g : nodes) names += (names.empty() ? "" : ", ") + std::string(trim_blank_or_newline(g.name));
    result.messages.push_back({MessageSeverity::Error, lines.at(0),
                               "no operators read: " + shape +
                                   (names.empty() ? std::string() : "; " + names + (nodes.size() == 1 ? " is" : " are") +
                                                                        " a codegen wrapper, not an operator") +
                                   hint});
    return result;
  }
  plan.link();
  fill_eventlog_facts(plan, "");
  result.messages.push_back({MessageSeverity::Warning, lines.at(0),
                             "a fragment: " + shape + "; its " + std::to_string(plan.ops.size()) +
                                 " operators are read apart, with their metrics, and how they connect is unknown" + hint});
  for (std::size_t at : f.elisions)
    result.messages.push_back({MessageSeverity::Warning, lines.at(at, 3),
                               "an elision (`...`): the author left out part of the answer here; what it held is not read"});
  if (f.first_unclosed)
    result.messages.push_back({MessageSeverity::Note, lines.at(std::min(*f.first_unclosed, text.size())),
                               "the pasted objects' brackets do not balance (a `[` or `{` is not closed before here): "
                               "read as if closed"});
  result.plans.push_back(std::move(plan));
  return result;
}

}  // namespace planlint
