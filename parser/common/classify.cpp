#include "parser/common/classify.hpp"

#include <array>
#include <cctype>
#include <string>
#include <string_view>
#include <utility>

#include "support/name_cache.hpp"

namespace planlint {

namespace {

// Inline: with a literal `p` the compiler compares a few words instead of calling memcmp (these
// run several times for every operator).

// Lower-case with spaces, underscores and dots removed: "Left Outer" -> "leftouter".
std::string squash(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  // ASCII lower case inline: std::tolower in the "C" locale (the only one the program runs in)
  // changes A-Z alone, through a call per byte.
  for (char c : s)
    if (c != ' ' && c != '_' && c != '.' && c != '-') out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return out;
}

struct Entry {
  std::string_view name;  // base Spark name, after Photon / Gluten prefixes and suffixes are removed
  OpKind kind;
  JoinStrategy strategy;
};

constexpr std::array kEntries = {
    Entry{"BroadcastHashJoin", OpKind::Join, JoinStrategy::BroadcastHash},
    Entry{"ShuffledHashJoin", OpKind::Join, JoinStrategy::ShuffledHash},
    Entry{"SortMergeJoin", OpKind::Join, JoinStrategy::SortMerge},
    Entry{"BroadcastNestedLoopJoin", OpKind::Join, JoinStrategy::BroadcastNestedLoop},
    Entry{"CartesianProduct", OpKind::Join, JoinStrategy::Cartesian},
    Entry{"Join", OpKind::Join, JoinStrategy::Unknown},
    Entry{"Filter", OpKind::Filter, JoinStrategy::None},
    Entry{"NoopFilter", OpKind::Filter, JoinStrategy::None},
    Entry{"Project", OpKind::Project, JoinStrategy::None},
    Entry{"HashAggregate", OpKind::Aggregate, JoinStrategy::None},
    Entry{"SortAggregate", OpKind::Aggregate, JoinStrategy::None},
    Entry{"ObjectHashAggregate", OpKind::Aggregate, JoinStrategy::None},
    Entry{"RegularHashAggregate", OpKind::Aggregate, JoinStrategy::None},
    Entry{"FlushableHashAggregate", OpKind::Aggregate, JoinStrategy::None},
    Entry{"GroupingAgg", OpKind::Aggregate, JoinStrategy::None},
    Entry{"GroupingAggWithRollup", OpKind::Aggregate, JoinStrategy::None},
    Entry{"Agg", OpKind::Aggregate, JoinStrategy::None},
    Entry{"Aggregate", OpKind::Aggregate, JoinStrategy::None},
    Entry{"Sort", OpKind::Sort, JoinStrategy::None},
    Entry{"TakeOrderedAndProject", OpKind::TopK, JoinStrategy::None},
    Entry{"TopK", OpKind::TopK, JoinStrategy::None},
    Entry{"CollectLimit", OpKind::Limit, JoinStrategy::None},
    Entry{"GlobalLimit", OpKind::Limit, JoinStrategy::None},
    Entry{"LocalLimit", OpKind::Limit, JoinStrategy::None},
    Entry{"CollectTail", OpKind::Limit, JoinStrategy::None},
    Entry{"Limit", OpKind::Limit, JoinStrategy::None},
    Entry{"Window", OpKind::Window, JoinStrategy::None},
    Entry{"WindowGroupLimit", OpKind::Window, JoinStrategy::None},
    Entry{"Union", OpKind::Union, JoinStrategy::None},
    Entry{"NativeUnion", OpKind::Union, JoinStrategy::None},
    Entry{"UnionLoop", OpKind::Union, JoinStrategy::None},
    Entry{"Expand", OpKind::Expand, JoinStrategy::None},
    Entry{"Generate", OpKind::Generate, JoinStrategy::None},
    Entry{"Exchange", OpKind::Exchange, JoinStrategy::None},
    Entry{"ShuffleExchange", OpKind::Exchange, JoinStrategy::None},
    Entry{"ColumnarExchange", OpKind::Exchange, JoinStrategy::None},
    Entry{"ShuffleExchangeSink", OpKind::Exchange, JoinStrategy::None},
    Entry{"ShuffleExchangeSource", OpKind::Exchange, JoinStrategy::None},
    Entry{"UnionShuffleExchangeSink", OpKind::Exchange, JoinStrategy::None},
    Entry{"ShuffleMapStage", OpKind::Exchange, JoinStrategy::None},
    Entry{"UnionShuffleMapStage", OpKind::Exchange, JoinStrategy::None},
    Entry{"BroadcastExchange", OpKind::BroadcastExchange, JoinStrategy::None},
    Entry{"ColumnarBroadcastExchange", OpKind::BroadcastExchange, JoinStrategy::None},
    Entry{"ReusedExchange", OpKind::ReusedExchange, JoinStrategy::None},
    Entry{"ShuffleQueryStage", OpKind::QueryStage, JoinStrategy::None},
    Entry{"BroadcastQueryStage", OpKind::QueryStage, JoinStrategy::None},
    Entry{"TableCacheQueryStage", OpKind::QueryStage, JoinStrategy::None},
    Entry{"ResultQueryStage", OpKind::QueryStage, JoinStrategy::None},
    Entry{"AQEShuffleRead", OpKind::ShuffleRead, JoinStrategy::None},
    Entry{"CustomShuffleReader", OpKind::ShuffleRead, JoinStrategy::None},
    Entry{"AdaptiveSparkPlan", OpKind::AdaptivePlan, JoinStrategy::None},
    Entry{"ColumnarToRow", OpKind::Transition, JoinStrategy::None},
    Entry{"RowToColumnar", OpKind::Transition, JoinStrategy::None},
    Entry{"VeloxColumnarToRow", OpKind::Transition, JoinStrategy::None},
    Entry{"RowToVeloxColumnar", OpKind::Transition, JoinStrategy::None},
    Entry{"InputAdapter", OpKind::Transition, JoinStrategy::None},
    Entry{"InputIterator", OpKind::Transition, JoinStrategy::None},
    Entry{"Adapter", OpKind::Transition, JoinStrategy::None},
    Entry{"BroadcastAdapter", OpKind::Transition, JoinStrategy::None},
    Entry{"WholeStageCodegen", OpKind::CodegenStage, JoinStrategy::None},
    Entry{"ResultStage", OpKind::CodegenStage, JoinStrategy::None},
    Entry{"WriteStage", OpKind::CodegenStage, JoinStrategy::None},
    Entry{"ArrowResultStage", OpKind::CodegenStage, JoinStrategy::None},
    Entry{"BatchEvalPython", OpKind::PythonEval, JoinStrategy::None},
    Entry{"ArrowEvalPython", OpKind::PythonEval, JoinStrategy::None},
    Entry{"ColumnarArrowEvalPython", OpKind::PythonEval, JoinStrategy::None},  // Gluten
    Entry{"MapInPandas", OpKind::PythonEval, JoinStrategy::None},
    Entry{"MapInArrow", OpKind::PythonEval, JoinStrategy::None},
    Entry{"PythonMapInArrow", OpKind::PythonEval, JoinStrategy::None},
    Entry{"FlatMapGroupsInPandas", OpKind::PythonEval, JoinStrategy::None},
    Entry{"FlatMapCoGroupsInPandas", OpKind::PythonEval, JoinStrategy::None},
    Entry{"AggregateInPandas", OpKind::PythonEval, JoinStrategy::None},
    Entry{"WindowInPandas", OpKind::PythonEval, JoinStrategy::None},
    Entry{"ArrowWindowPython", OpKind::PythonEval, JoinStrategy::None},
    Entry{"BatchEvalPythonUDTF", OpKind::PythonEval, JoinStrategy::None},
    Entry{"ArrowEvalPythonUDTF", OpKind::PythonEval, JoinStrategy::None},
    Entry{"Subquery", OpKind::Subquery, JoinStrategy::None},
    Entry{"SubqueryBroadcast", OpKind::Subquery, JoinStrategy::None},
    Entry{"MetadataSubquery", OpKind::Subquery, JoinStrategy::None},
    Entry{"ReusedSubquery", OpKind::ReusedSubquery, JoinStrategy::None},
    Entry{"LocalTableScan", OpKind::LocalData, JoinStrategy::None},
    Entry{"Range", OpKind::LocalData, JoinStrategy::None},
    Entry{"InMemoryTableScan", OpKind::InMemoryScan, JoinStrategy::None},
    Entry{"InMemoryRelation", OpKind::InMemoryScan, JoinStrategy::None},
    Entry{"BatchScan", OpKind::Scan, JoinStrategy::None},
    Entry{"FileScan", OpKind::Scan, JoinStrategy::None},
    Entry{"DataSourceScan", OpKind::Scan, JoinStrategy::None},
    Entry{"RuntimeFilterSource", OpKind::Other, JoinStrategy::None},
    Entry{"CommandResult", OpKind::Command, JoinStrategy::None},
    Entry{"AtomicReplaceTableAsSelect", OpKind::Command, JoinStrategy::None},
    Entry{"AtomicCreateTableAsSelect", OpKind::Command, JoinStrategy::None},
    Entry{"ReplaceTableAsSelect", OpKind::Command, JoinStrategy::None},
    Entry{"CreateTableAsSelect", OpKind::Command, JoinStrategy::None},
    Entry{"AppendData", OpKind::Command, JoinStrategy::None},
    Entry{"OverwriteByExpression", OpKind::Command, JoinStrategy::None},
    Entry{"OverwritePartitionsDynamic", OpKind::Command, JoinStrategy::None},
    Entry{"ParquetWriter", OpKind::Write, JoinStrategy::None},
    Entry{"WriteFiles", OpKind::Write, JoinStrategy::None},
    Entry{"ArrowBatchSink", OpKind::Other, JoinStrategy::None},
    Entry{"ArrowBatchSource", OpKind::Other, JoinStrategy::None},
};

// kEntries by name: open addressing over a hash of the length and three bytes (names differ
// there; a collision only costs a comparison). Built once; the first entry of a name wins.
const Entry* find_entry(std::string_view base) {
  constexpr std::size_t kSlots = 512;  // a power of two, over 4x the entries
  static_assert(kEntries.size() * 4 < kSlots);
  static const std::array<const Entry*, kSlots> kTable = [] {
    std::array<const Entry*, kSlots> t{};
    for (const Entry& e : kEntries) {
      std::size_t i = short_name_hash(e.name) & (kSlots - 1);
      bool seen = false;
      while (t[i] != nullptr && !(seen = t[i]->name == e.name)) i = (i + 1) & (kSlots - 1);
      if (!seen) t[i] = &e;
    }
    return t;
  }();
  if (base.empty()) return nullptr;
  for (std::size_t i = short_name_hash(base) & (kSlots - 1); kTable[i] != nullptr; i = (i + 1) & (kSlots - 1))
    if (kTable[i]->name == base) return kTable[i];
  return nullptr;
}

}  // namespace

namespace {

Classification classify_uncached(std::string_view name) {
  Classification c;
  // Drop a skew marker "(skew=true)" / "(isSkew=true)" glued to the name.
  if (auto p = name.find('('); p != std::string_view::npos && p > 0) name = name.substr(0, p);
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);

  // A scan; Gluten's when its first word ends in "Transformer".
  auto scan = [&] {
    c.kind = OpKind::Scan;
    if (name.substr(0, name.find(' ')).ends_with("Transformer")) c.engine = Engine::Gluten;
    return c;
  };
  // Scans and commands, by first letter (prefixes of one letter in the order they are tested).
  switch (name.empty() ? '\0' : name.front()) {
    case 'P':
      // "PhotonScan parquet t"
      if (name.starts_with("PhotonScan") || name.starts_with("PhotonJsonScan")) {
        c.kind = OpKind::Scan;
        c.engine = Engine::Photon;
        return c;
      }
      break;
    case 'S':
      // "Scan parquet db.t", "Scan JDBCRelation(...)", "Scan In-memory table t"
      if (name.starts_with("Scan In-memory")) {
        c.kind = OpKind::InMemoryScan;
        return c;
      }
      if (name.starts_with("Scan ExistingRDD") || name == "Scan OneRowRelation") {
        c.kind = OpKind::LocalData;
        return c;
      }
      if (name.starts_with("Scan ") || name == "Scan" || name.starts_with("ScanTransformer")) return scan();
      break;
    case 'F':
    case 'B':
    case 'N':
      if (name.starts_with("FileScan ") || name.starts_with("BatchScan ") ||
          name.starts_with("BatchScanExecTransformer") || name.starts_with("FileSourceScanExecTransformer") ||
          name.starts_with("NativeScan"))
        return scan();
      break;
    case 'E':
      if (name.starts_with("Execute ")) {
        c.kind = OpKind::Command;
        return c;
      }
      break;
    default:
      break;
  }

  // First word only from here on.
  std::string_view base = name.substr(0, name.find(' '));
  // NVIDIA RAPIDS: `Gpu<Spark name>` (GpuShuffledHashJoin, GpuColumnarExchange, GpuFileGpuScan,
  // GpuColumnarToRow ...) runs on the GPU. Apache Comet: `Comet<Spark name>` (CometHashAggregate,
  // CometExchange, CometNativeScan ...) keeps engine Spark, the readers mark it (OpFacts::comet).
  // Gluten's ClickHouse backend: `CH<name>` (CHNativeColumnarToRow, CHHashAggregateExecTransformer).
  // Each takes the kind of the Spark operator it replaces.
  bool vendor_prefix = false;
  if (base.size() > 3 && base.starts_with("Gpu") && std::isupper(static_cast<unsigned char>(base[3]))) {
    c.engine = Engine::Gpu;
    base.remove_prefix(3);
    vendor_prefix = true;
  } else if (base.size() > 5 && base.starts_with("Comet") && std::isupper(static_cast<unsigned char>(base[5]))) {
    base.remove_prefix(5);
    if (base.starts_with("Spark") && base.size() > 5) base.remove_prefix(5);  // CometSparkColumnarToColumnar
    vendor_prefix = true;
  } else if (base.size() > 2 && base.starts_with("CH") && std::isupper(static_cast<unsigned char>(base[2]))) {
    c.engine = Engine::Gluten;
    base.remove_prefix(2);
    vendor_prefix = true;
  }
  if (base.ends_with("TransformerBase")) base.remove_suffix(4);  // FilterExecTransformerBase (Gluten CH)
  if (base.starts_with("Photon")) {
    c.engine = Engine::Photon;
    base.remove_prefix(6);
  } else if (base.ends_with("ExecTransformer")) {
    c.engine = Engine::Gluten;
    base.remove_suffix(15);
  } else if (base.ends_with("Transformer")) {
    c.engine = Engine::Gluten;
    base.remove_suffix(11);
  } else if (!vendor_prefix && (base.starts_with("Velox") || base.starts_with("RowToVelox") || base.starts_with("Columnar"))) {
    c.engine = Engine::Gluten;
  }
  if (base.ends_with("Exec")) base.remove_suffix(4);
  if (base.ends_with("Adaptor") && base.size() > 7) base.remove_suffix(7);  // Gluten CH ColumnarExchangeAdaptor

  // Exact-name lookup (the first entry of a name wins, as a scan in order would find it).
  if (const Entry* e = find_entry(base)) {
    c.kind = e->kind;
    c.strategy = e->strategy;
  }
  if (c.kind == OpKind::Unknown && vendor_prefix) {
    // A vendor's own names for Spark operators: HashJoin (Comet's shuffled hash join), TopN
    // (RAPIDS' TakeOrderedAndProject), and its scans (FileGpuScan, NativeScan, IcebergNativeScan).
    if (base == "HashJoin") {
      c.kind = OpKind::Join;
      c.strategy = JoinStrategy::ShuffledHash;
    } else if (base == "TopN") {
      c.kind = OpKind::TopK;
    } else if (base.ends_with("Scan") && base != "ScanWrapper") {
      c.kind = OpKind::Scan;
    }
  }
  if (c.kind == OpKind::Unknown) {
    // Gluten's and others' wrappers that are transitions between engines (Comet's
    // CometSparkColumnarToColumnar turns Spark's columnar batches into Arrow ones).
    std::string s = squash(base);
    if (s.find("columnartorow") != std::string::npos || s.find("rowtocolumnar") != std::string::npos ||
        s.find("rowtovelox") != std::string::npos || s.find("rowtoch") != std::string::npos ||
        s == "columnartocolumnar")
      c.kind = OpKind::Transition;
    else if (s.find("write") != std::string::npos || s.find("insertinto") != std::string::npos)
      c.kind = OpKind::Write;
    else if (!base.empty())
      c.kind = OpKind::Other;
  }
  // Transitions between engines belong to neither side; keep them Spark unless clearly native.
  if (c.kind == OpKind::Transition && c.engine == Engine::Gluten && base.starts_with("Columnar")) c.engine = Engine::Spark;
  return c;
}

}  // namespace

// Per thread, by name (support/name_cache.hpp): each operator's label is classified, ~200
// instructions of prefix and suffix tests.
Classification classify_operator(std::string_view name) {
  return cached_by_name<Classification, 47, classify_uncached>(name);
}

Classification classify_operator_uncached(std::string_view name) { return classify_uncached(name); }

std::string_view canonical_operator_name(std::string_view name) {
  std::string key = squash(name);
  if (key.empty()) return {};
  for (const Entry& e : kEntries)
    if (squash(e.name) == key) return e.name;
  return {};
}

JoinType parse_join_type(std::string_view text) {
  if (text.starts_with("ExistenceJoin")) return JoinType::ExistenceJoin;
  std::string s = squash(text);
  static constexpr std::pair<std::string_view, JoinType> kTypes[] = {
      {"inner", JoinType::Inner},           {"cross", JoinType::Cross},
      {"leftouter", JoinType::LeftOuter},   {"left", JoinType::LeftOuter},
      {"rightouter", JoinType::RightOuter}, {"right", JoinType::RightOuter},
      {"fullouter", JoinType::FullOuter},   {"full", JoinType::FullOuter},
      {"outer", JoinType::FullOuter},       {"leftsemi", JoinType::LeftSemi},
      {"semi", JoinType::LeftSemi},         {"leftanti", JoinType::LeftAnti},
      {"anti", JoinType::LeftAnti},         {"leftsingle", JoinType::LeftSingle},
  };
  for (const auto& [k, v] : kTypes)
    if (s == k) return v;
  return JoinType::Unknown;
}

}  // namespace planlint
