// Explain text -> typed facts: the field keys of formatted mode, partitioning and shuffle-read
// arguments, scan sources from the scan's name, version markers.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <utility>

#include "parser/expr_util.hpp"
#include "parser/facts_fill.hpp"
#include "parser/parse.hpp"

namespace planlint {

namespace {

bool contains(std::string_view s, std::string_view w) { return s.find(w) != std::string_view::npos; }
bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string base_name(std::string_view n) {
  if (auto sp = n.find_first_of(" ["); sp != std::string_view::npos) n = n.substr(0, sp);
  return std::string(n);
}

// The explain reader's name table for detail keys.
constexpr std::pair<std::string_view, FieldRole> kExplainFieldRoles[] = {
    {"Output", FieldRole::Output},
    {"Input", FieldRole::Input},
    {"ReadSchema", FieldRole::ReadSchema},
    {"Location", FieldRole::Location},
    {"PushedFilters", FieldRole::PushedFilters},
    {"DataFilters", FieldRole::DataFilters},
    {"RequiredDataFilters", FieldRole::RequiredDataFilters},
    {"OptionalDataFilters", FieldRole::OptionalDataFilters},
    {"DictionaryFilters", FieldRole::DictionaryFilters},
    {"PartitionFilters", FieldRole::PartitionFilters},
    {"Condition", FieldRole::Condition},
    {"Left keys", FieldRole::LeftKeys},
    {"Right keys", FieldRole::RightKeys},
    {"Join condition", FieldRole::JoinCondition},
    {"Keys", FieldRole::GroupingKeys},
    {"Arguments", FieldRole::Arguments},
    {"Partitioning", FieldRole::Partitioning},
    {"ClusteringColumns", FieldRole::Clustering},
};

std::string op_text(const Operator& op) {
  std::string t = op.label + "\n" + op.arguments;
  for (const Field& f : op.fields)
    if (f.role == FieldRole::Arguments || f.role == FieldRole::Partitioning) t += "\n" + f.value;
  return t;
}

std::optional<std::uint32_t> number_after(std::string_view t, std::string_view marker) {
  auto p = t.find(marker);
  if (p == std::string_view::npos) return std::nullopt;
  p += marker.size();
  // hashpartitioning(a#1, b#2, 200): the number is the last argument before ')'.
  int depth = 1;
  std::size_t close = p;
  for (; close < t.size() && depth > 0; ++close) {
    if (t[close] == '(') ++depth;
    else if (t[close] == ')') --depth;
  }
  std::string_view inner = t.substr(p, close - p - 1);
  auto comma = inner.rfind(',');
  std::string_view num = comma == std::string_view::npos ? inner : inner.substr(comma + 1);
  while (!num.empty() && num.front() == ' ') num.remove_prefix(1);
  std::uint32_t v = 0;
  bool any = false;
  for (char c : num) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    v = v * 10 + static_cast<std::uint32_t>(c - '0');
    any = true;
  }
  return any ? std::optional<std::uint32_t>(v) : std::nullopt;
}

void fill_partitioning(Operator& op) {
  const std::string t = op_text(op);
  Partitioning& p = op.facts.partitioning;
  if (contains(t, "EXECUTOR_BROADCAST")) p.executor_broadcast = true;
  if (op.kind == OpKind::Exchange) {
    if (contains(t, "SinglePartition")) {
      p.kind = PartitioningKind::Single;
      p.partitions = 1;
    } else if (contains(t, "hashpartitioning(")) {
      p.kind = PartitioningKind::Hash;
      p.partitions = number_after(t, "hashpartitioning(");
    } else if (contains(t, "rangepartitioning(")) {
      p.kind = PartitioningKind::Range;
      p.partitions = number_after(t, "rangepartitioning(");
    } else if (contains(t, "RoundRobinPartitioning(")) {
      p.kind = PartitioningKind::RoundRobin;
      p.partitions = number_after(t, "RoundRobinPartitioning(");
    }
    if (contains(t, "SinglePartition") || contains(t, "RoundRobinPartitioning(1)")) p.single = true;
  }
  if (op.kind == OpKind::BroadcastExchange) p.kind = PartitioningKind::Broadcast;
}

void fill_shuffle_read(Operator& op) {
  if (op.kind != OpKind::ShuffleRead) return;
  std::string args = op.arguments;
  if (const Field* f = op.field(FieldRole::Arguments)) args += " " + f->value;
  // Spark 4 also prints the marks after the outline name: "AQEShuffleRead (6), skewed".
  args += " " + op.label;
  op.facts.shuffle_read.skew_handled = contains(args, "skewed") && !contains(args, "no skewed");
  op.facts.shuffle_read.coalesced = contains(args, "coalesced");
  op.facts.shuffle_read.local = contains(args, "local");
}

void fill_scan(Operator& op) {
  if (op.kind != OpKind::Scan && op.kind != OpKind::InMemoryScan && op.kind != OpKind::LocalData) return;
  if (!op.scan) op.scan = std::make_shared<ScanFacts>();
  ScanFacts& sc = *op.scan;
  std::string fmt;
  for (char c : op.scan_format) fmt += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string text = op.label + " " + op.name + " " + op.arguments;
  std::string location;
  if (const Field* f = op.field(FieldRole::Location)) location = f->value;
  if (op.kind == OpKind::InMemoryScan) sc.source = ScanSource::Cache;
  else if (op.kind == OpKind::LocalData) sc.source = ScanSource::Local;
  else if (fmt == "jdbc" || contains(text, "JDBCRelation")) {
    sc.source = ScanSource::Jdbc;
    fmt = "jdbc";
    if (auto n = text.find("numPartitions="); n != std::string::npos) {
      std::uint32_t v = 0;
      bool any = false;
      for (std::size_t i = n + 14; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
        v = v * 10 + static_cast<std::uint32_t>(text[i] - '0');
        any = true;
      }
      if (any) sc.source_partitions = v;
    }
  } else if (contains(text, "cassandra") || contains(text, "Cassandra")) sc.source = ScanSource::Cassandra;
  else if (starts_with(op.name, "HiveTableScan") || fmt == "hive") sc.source = ScanSource::Hive;
  else if (fmt == "delta" || contains(location, "TahoeLogFileIndex") || contains(location, "PreparedDeltaFileIndex") ||
           contains(location, "TahoeBatchFileIndex") || contains(text, "DeltaTableV2"))
    sc.source = ScanSource::Delta;
  else if (fmt == "iceberg" || contains(text, "[filters=") || contains(text, "(branch=") || contains(text, "IcebergScan") ||
           contains(text, "iceberg"))
    sc.source = ScanSource::Iceberg;
  else if (fmt == "parquet" || fmt == "orc" || fmt == "csv" || fmt == "json" || fmt == "text" || fmt == "avro" ||
           fmt == "binaryfile")
    sc.source = ScanSource::File;
  else if (starts_with(op.name, "BatchScan") || starts_with(op.name, "Scan ")) sc.source = ScanSource::DataSourceV2;
  sc.format = fmt;

  // JDBC marks the pushed filters it evaluates completely with a leading `*`: `[*IsNotNull(id)]`.
  for (const Field& f : op.fields) {
    if (f.role != FieldRole::PushedFilters) continue;
    for (const ParsedExpr& pe : f.exprs)
      if (pe.root)
        for (const Expr* c : split_conjuncts(*pe.root))
          if (handled_by_source(*c)) sc.handled_by_source.push_back(to_string(*c));
  }
}

// Spark versions from the markers the plan printed: lower bounds, flagged as inferred.
void infer_version(Plan& plan) {
  EngineFacts& e = plan.facts.engine;
  if (e.spark_major) return;
  int major = 0, minor = 0;
  auto at_least = [&](int ma, int mi) {
    if (ma > major || (ma == major && mi > minor)) {
      major = ma;
      minor = mi;
    }
  };
  std::size_t exchanges = 0, bare_exchanges = 0;
  bool formatted = plan.format == InputFormat::ExplainFormatted || plan.format == InputFormat::ExplainCost;
  for (const Operator& op : plan.ops) {
    if (op.logical) continue;
    const std::string t = op_text(op);
    if (contains(t, "[plan_id=")) at_least(3, 3);
    if (starts_with(op.name, "AQEShuffleRead") || starts_with(op.name, "TableCacheQueryStage")) at_least(3, 2);
    if (starts_with(op.name, "CustomShuffleReader") || starts_with(op.name, "AdaptiveSparkPlan") ||
        starts_with(op.name, "ShuffleQueryStage"))
      at_least(3, 0);
    if (contains(t, "ENSURE_REQUIREMENTS") || contains(t, "REPARTITION_BY_")) at_least(3, 1);
    if (!op.detail_loc.known() && op.kind == OpKind::Exchange && op.section == Section::Main) {
      ++exchanges;
      if (!contains(t, "[id=") && !contains(t, "plan_id") && !contains(t, "ENSURE_REQUIREMENTS") &&
          !contains(t, "REPARTITION") && !contains(t, "REBALANCE") && !contains(t, ", true") && !contains(t, ", false"))
        ++bare_exchanges;
    }
  }
  if (formatted) at_least(3, 0);
  if (major > 0) {
    e.spark_major = major;
    e.spark_minor = minor;
    e.version_inferred = true;
  } else if (exchanges > 0 && bare_exchanges == exchanges && plan.format == InputFormat::ExplainDefault) {
    // Spark 2.x prints `Exchange hashpartitioning(k#1, 200)` with no plan id and no shuffle origin.
    e.spark_major = 2;
    e.version_inferred = true;
  }
}

bool bare_attribute(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  auto h = s.rfind('#');
  if (h == std::string_view::npos || h == 0) return false;
  for (char c : s.substr(0, h))
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '`')) return false;
  std::string_view id = s.substr(h + 1);
  if (!id.empty() && id.back() == 'L') id.remove_suffix(1);
  if (id.empty()) return false;
  return std::all_of(id.begin(), id.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == 'x'; });
}

// A Project whose list is only attributes: `Project [a#1, b#2]` / `Output [2]: [a#1, b#2]`.
bool passes_columns(const Operator& op) {
  if (op.kind != OpKind::Project) return false;
  std::vector<std::string> items;
  if (const Field* f = op.field(FieldRole::Output); f && f->is_list && !f->count_mismatch && !f->truncated) {
    items = f->items;
  } else {
    std::string_view a = op.arguments;
    if (a.size() < 2 || a.front() != '[' || a.back() != ']') return false;
    a = a.substr(1, a.size() - 2);
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= a.size(); ++i) {
      if (i == a.size() || (a[i] == ',' && depth == 0)) {
        items.emplace_back(a.substr(start, i - start));
        start = i + 1;
      } else if (a[i] == '(' || a[i] == '[') {
        ++depth;
      } else if (a[i] == ')' || a[i] == ']') {
        --depth;
      }
    }
  }
  if (items.empty()) return false;
  return std::all_of(items.begin(), items.end(), [](const std::string& i) { return bare_attribute(i); });
}

}  // namespace

void fill_operator_name_facts(Operator& op) {
  const std::string base = base_name(op.name);
  if (op.kind == OpKind::PythonEval) {
    if (base == "BatchEvalPython" || base == "BatchEvalPythonUDTF") op.facts.udf.kind = UdfKind::PythonRow;
    else if (base == "ArrowEvalPython" || base == "ArrowEvalPythonUDTF") op.facts.udf.kind = UdfKind::PythonArrow;
    else op.facts.udf.kind = UdfKind::Pandas;
    std::string src;
    if (const Field* f = op.field(FieldRole::Arguments)) src = f->value;
    if (src.empty()) src = op.arguments;
    if (src.empty()) src = op.label;
    if (auto open = src.find('['); open != std::string::npos) {
      int depth = 0;
      for (std::size_t i = open; i < src.size(); ++i) {
        if (src[i] == '[') ++depth;
        if (src[i] == ']' && --depth == 0) {
          std::string t = src.substr(open, i - open + 1);
          if (t.size() > 160) t = t.substr(0, 157) + "...";
          op.facts.udf.calls = std::move(t);
          break;
        }
      }
    }
  }
  for (std::string_view w : {"StateStore", "StreamingSymmetricHashJoin", "MicroBatch", "StreamingDeduplicate",
                             "EventTimeWatermark", "FlatMapGroupsWithState", "TransformWithState", "StreamingGlobalLimit"})
    if (contains(op.name, w)) op.facts.streaming = true;
  if (base == "Coalesce") {
    bool one = op.arguments == "1" || contains(op.label, "Coalesce 1");
    if (const Field* f = op.field(FieldRole::Arguments); f && f->value == "1") one = true;
    op.facts.partitioning.kind = PartitioningKind::Coalesce;
    if (one) {
      op.facts.partitioning.partitions = 1;
      op.facts.partitioning.single = true;
    }
  }
  if (op.kind == OpKind::QueryStage && contains(op.name, "ResultQueryStage")) op.facts.result_stage = true;
  if ((op.logical || op.kind == OpKind::Logical) && op.name == "Join") op.facts.logical_join = true;
  if (op.kind == OpKind::Aggregate && op.name == "PhotonAgg") op.facts.global_aggregate = true;
  if (op.kind == OpKind::Aggregate) {
    bool bloom = contains(op.label, "bloom_filter_agg") || contains(op.arguments, "bloom_filter_agg");
    for (const Field& f : op.fields) bloom = bloom || contains(f.value, "bloom_filter_agg");
    op.facts.runtime_filter_agg = bloom;
  }
  op.facts.passes_columns = passes_columns(op);
  for (Hint& h : op.hints) h.kind = hint_kind(h.strategy);
}

void fill_photon_explanation_facts(PhotonExplanation& pe) {
  for (const std::string& r : pe.reasons) {
    std::string l;
    for (char c : r) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (contains(l, "python")) pe.python_udf = true;
    if (contains(l, "udf")) pe.udf = true;
  }
}

void fill_explain_facts(Plan& plan) {
  fill_photon_explanation_facts(plan.photon);
  for (Operator& op : plan.ops) {
    for (Field& f : op.fields) {
      for (const auto& [key, role] : kExplainFieldRoles)
        if (f.key == key) {
          f.role = role;
          break;
        }
      if (f.value.find("more fields") != std::string::npos) f.more_fields = true;
    }
    fill_operator_name_facts(op);
    fill_partitioning(op);
    fill_shuffle_read(op);
    fill_scan(op);
    if (starts_with(op.name, "Comet")) plan.facts.engine.comet = true;
  }
  infer_version(plan);
  derive_common_facts(plan);
  if (plan.facts.engine.photon) plan.facts.engine.databricks = true;
}

}  // namespace planlint
