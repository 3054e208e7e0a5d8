#include "model/plan.hpp"

#include <algorithm>

namespace planlint {

void Field::set_items(TextStore& store, const std::vector<std::string>& list) {
  std::string v = "[";
  item_spans.clear();
  item_spans.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i) v += ", ";
    item_spans.push_back({static_cast<std::uint32_t>(v.size()), static_cast<std::uint32_t>(list[i].size())});
    v += list[i];
  }
  v += "]";
  value = store.keep(v);
}

std::string_view to_string(InputFormat f) {
  switch (f) {
    case InputFormat::ExplainFormatted: return "explain-formatted";
    case InputFormat::ExplainDefault: return "explain-default";
    case InputFormat::ExplainExtended: return "explain-extended";
    case InputFormat::ExplainCost: return "explain-cost";
    case InputFormat::PhotonExplanation: return "photon-explanation";
    case InputFormat::QueryProfile: return "query-profile";
    case InputFormat::EventLog: return "event-log";
    case InputFormat::HistoryServer: return "history-server";
    case InputFormat::Unknown: break;
  }
  return "unknown";
}

std::string_view to_string(OpKind k) {
  switch (k) {
    case OpKind::Scan: return "scan";
    case OpKind::LocalData: return "local-data";
    case OpKind::InMemoryScan: return "in-memory-scan";
    case OpKind::Filter: return "filter";
    case OpKind::Project: return "project";
    case OpKind::Join: return "join";
    case OpKind::Exchange: return "exchange";
    case OpKind::BroadcastExchange: return "broadcast-exchange";
    case OpKind::ReusedExchange: return "reused-exchange";
    case OpKind::Aggregate: return "aggregate";
    case OpKind::Sort: return "sort";
    case OpKind::TopK: return "top-k";
    case OpKind::Limit: return "limit";
    case OpKind::Window: return "window";
    case OpKind::Union: return "union";
    case OpKind::Expand: return "expand";
    case OpKind::Generate: return "generate";
    case OpKind::QueryStage: return "query-stage";
    case OpKind::ShuffleRead: return "shuffle-read";
    case OpKind::AdaptivePlan: return "adaptive-plan";
    case OpKind::Transition: return "transition";
    case OpKind::CodegenStage: return "codegen-stage";
    case OpKind::PythonEval: return "python-eval";
    case OpKind::Subquery: return "subquery";
    case OpKind::ReusedSubquery: return "reused-subquery";
    case OpKind::Command: return "command";
    case OpKind::Write: return "write";
    case OpKind::Logical: return "logical";
    case OpKind::Other: return "other";
    case OpKind::Unknown: break;
  }
  return "unknown";
}

std::string_view to_string(Engine e) {
  switch (e) {
    case Engine::Photon: return "photon";
    case Engine::Gluten: return "gluten";
    case Engine::Gpu: return "gpu";
    case Engine::Spark: break;
  }
  return "spark";
}

std::string_view to_string(StageStatus s) {
  switch (s) {
    case StageStatus::Complete: return "COMPLETE";
    case StageStatus::Failed: return "FAILED";
    case StageStatus::Active: return "ACTIVE";
    case StageStatus::Pending: return "PENDING";
    case StageStatus::Skipped: return "SKIPPED";
    case StageStatus::Unknown: break;
  }
  return "";
}

std::string_view to_string(JobStatus s) {
  switch (s) {
    case JobStatus::Running: return "running";
    case JobStatus::Succeeded: return "succeeded";
    case JobStatus::Failed: return "failed";
    case JobStatus::Unknown: break;
  }
  return "";
}

std::string_view to_string(JoinType t) {
  switch (t) {
    case JoinType::Inner: return "Inner";
    case JoinType::Cross: return "Cross";
    case JoinType::LeftOuter: return "LeftOuter";
    case JoinType::RightOuter: return "RightOuter";
    case JoinType::FullOuter: return "FullOuter";
    case JoinType::LeftSemi: return "LeftSemi";
    case JoinType::LeftAnti: return "LeftAnti";
    case JoinType::ExistenceJoin: return "ExistenceJoin";
    case JoinType::LeftSingle: return "LeftSingle";
    case JoinType::Unknown: return "Unknown";
    case JoinType::None: break;
  }
  return "";
}

std::string_view to_string(BuildSide s) {
  switch (s) {
    case BuildSide::Left: return "BuildLeft";
    case BuildSide::Right: return "BuildRight";
    case BuildSide::None: break;
  }
  return "";
}

std::string_view to_string(JoinStrategy s) {
  switch (s) {
    case JoinStrategy::BroadcastHash: return "broadcast-hash";
    case JoinStrategy::ShuffledHash: return "shuffled-hash";
    case JoinStrategy::SortMerge: return "sort-merge";
    case JoinStrategy::BroadcastNestedLoop: return "broadcast-nested-loop";
    case JoinStrategy::Cartesian: return "cartesian";
    case JoinStrategy::Unknown: return "unknown";
    case JoinStrategy::None: break;
  }
  return "";
}

std::string_view to_string(Section s) {
  switch (s) {
    case Section::AqeFinal: return "final";
    case Section::AqeCurrent: return "current";
    case Section::AqeInitial: return "initial";
    case Section::Subquery: return "subquery";
    case Section::OptimizedOut: return "optimized-out";
    case Section::ParsedLogical: return "parsed-logical";
    case Section::AnalyzedLogical: return "analyzed-logical";
    case Section::OptimizedLogical: return "optimized-logical";
    case Section::Profile: return "profile";
    case Section::Main: break;
  }
  return "main";
}

const CompactVector<ParsedExpr>& Operator::join_exprs(std::uint32_t field) const {
  static const CompactVector<ParsedExpr> none;
  return field < fields.size() ? fields[field].exprs : none;
}

const Field* Operator::field(std::string_view key) const {
  for (const auto& f : fields)
    if (f.key == key) return &f;
  return nullptr;
}

Text MetricNames::operator()(std::string_view s) {
  if (s.empty()) return {};
  if (auto it = seen_.find(s); it != seen_.end()) return Text::stable(*it);
  Text kept = store_->keep(s);
  if (seen_.size() < kMax) seen_.insert(kept.view());
  return kept;
}

const Metric* Operator::metric(std::string_view label) const {
  if (!runtime_.present()) return nullptr;  // most explain-text operators: no runtime parts
  for (const auto& m : metrics())
    if (m.label == label) return &m;
  return nullptr;
}

std::optional<double> Operator::metric_value(std::string_view label) const {
  const Metric* m = metric(label);
  return m ? m->value : std::nullopt;
}

const Field* Operator::field(FieldRole role) const {
  for (const auto& f : fields)
    if (f.role == role) return &f;
  return nullptr;
}

const Metric* Operator::metric(Metric::Id id) const {
  if (!runtime_.present()) return nullptr;  // most explain-text operators: no runtime parts
  for (const auto& m : metrics())
    if (m.id == id) return &m;
  return nullptr;
}

std::optional<double> Operator::metric_value(Metric::Id id) const {
  const Metric* m = metric(id);
  return m ? m->value : std::nullopt;
}

std::optional<double> QueryInfo::metric_value(Metric::Id id) const {
  for (const auto& m : metrics)
    if (m.id == id) return m.value;
  return std::nullopt;
}

std::optional<double> QueryInfo::metric_value(std::string_view label) const {
  for (const auto& m : metrics)
    if (m.label == label) return m.value;
  return std::nullopt;
}

void Plan::link() {
  const BlockScope blocks(text_store());  // the parents lists
  // (The operators through a pointer and their count held: `ops[i]` and `ops.size()` re-read the
  // vector and divide by the operator's size at every use; 3.3 M instructions for the golden
  // plans' 24,002 operators before.)
  const std::size_t n = ops.size();
  Operator* const o = ops.data();
  // kept_by[c] == i + 1: operator i already kept child c. One mark per child instead of a scan
  // of the kept list, so an operator with 100,000 children costs 100,000 steps, not 10^10.
  // (4 bytes an operator: a plan never holds 2^32 operators, at 248 bytes each.)
  std::vector<std::uint32_t> kept_by(n, 0);
  // How many parents each operator gets: its list is allocated once, at its size (a list pushed
  // one parent at a time takes a block for two, and a grown list leaves its first block unused in
  // the plan's store).
  std::vector<std::uint32_t> parents_of(n, 0);
  std::uint32_t* const kept_mark = kept_by.data();
  std::uint32_t* const parents_count = parents_of.data();
  for (std::size_t i = 0; i < n; ++i) {
    Operator& op = o[i];
    if (!op.parents.empty()) op.parents.clear();  // (the second loop fills them; this one reads no parents)
    IndexVector& ch = op.children;
    const std::size_t size = ch.size();
    if (size == 0) continue;
    std::uint32_t* const c = ch.data();
    if (size == 1) {
      // One child (most operators): no duplicate to look for, so no mark.
      if (c[0] >= n || c[0] == i) ch.clear();
      else ++parents_count[c[0]];
      continue;
    }
    std::size_t kept = 0;
    const auto mark = static_cast<std::uint32_t>(i + 1);
    for (std::size_t j = 0; j < size; ++j) {
      const std::uint32_t x = c[j];
      if (x >= n || x == i || kept_mark[x] == mark) continue;
      kept_mark[x] = mark;
      ++parents_count[x];
      c[kept++] = x;
    }
    if (kept != size) ch.resize(kept);
  }
  for (std::size_t i = 0; i < n; ++i)
    for (const std::uint32_t c : o[i].children) {
      IndexVector& parents = o[c].parents;
      if (parents.empty()) parents.reserve(parents_count[c]);
      parents.push_back(i);
    }
}

void Plan::relocate_all(SourceRange loc) {
  this->loc = loc;
  for (auto& op : ops) {
    op.loc = loc;
    op.detail_loc = loc;
    for (auto& f : op.fields) f.loc = loc;
    if (op.stats().present()) op.edit_runtime().stats.edit().loc = loc;
    if (op.hints().present())
      for (auto& h : op.edit_runtime().hints.edit()) h.loc = loc;
  }
  for (auto& sq : subqueries) sq.loc = loc;
  for (auto& t : trailers) t.loc = loc;
  if (photon.present) photon.loc = loc;
}

const Operator* Plan::find_id(std::string_view id) const {
  if (id.empty()) return nullptr;
  for (const auto& op : ops)
    if (op.id == id) return &op;
  return nullptr;
}

std::vector<const JobInfo*> Plan::failed_jobs() const {
  std::vector<const JobInfo*> out;
  for (const JobInfo& j : jobs)
    if (j.status == JobStatus::Failed) out.push_back(&j);
  return out;
}

bool Plan::task_times_partial() const {
  return std::any_of(jobs.begin(), jobs.end(), [](const JobInfo& j) { return j.status == JobStatus::Failed; }) ||
         std::any_of(stages.begin(), stages.end(), [](const StageInfo& s) { return s.partial(); });
}

bool ParseResult::has_errors() const {
  return std::any_of(messages.begin(), messages.end(),
                     [](const ParseMessage& m) { return m.severity == MessageSeverity::Error; });
}

}  // namespace planlint
