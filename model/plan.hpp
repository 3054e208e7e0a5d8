// The plan model: one format-independent operator DAG built by every reader (explain text,
// Query Profile JSON, event logs). Rules see only this.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "support/compact_optional.hpp"
#include "support/compact_vector.hpp"
#include "support/index_vector.hpp"
#include "model/expr.hpp"
#include "model/facts.hpp"
#include "support/out_of_line.hpp"
#include "support/packed_text.hpp"
#include "support/shared_part.hpp"
#include "support/text.hpp"

namespace planlint {

// 1-based line and column (bytes) in the original input; 0 means unknown.
struct SourceRange {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::uint32_t end_line = 0;
  std::uint32_t end_column = 0;  // exclusive
  [[nodiscard]] bool known() const { return line != 0; }
};

// Where a part starts: a SourceRange without its end (8 bytes instead of 16), for the parts a plan
// holds many of whose end no output reads (Field: a quarter of a million in a big plan). Set from
// the range a reader has; its start is kept.
struct SourcePos {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  constexpr SourcePos() = default;
  constexpr SourcePos(std::uint32_t l, std::uint32_t c) : line(l), column(c) {}
  constexpr SourcePos(const SourceRange& r) : line(r.line), column(r.column) {}  // NOLINT: a reader sets a place from its range
  [[nodiscard]] bool known() const { return line != 0; }
};

enum class InputFormat : std::uint8_t {
  Unknown,
  ExplainFormatted,   // explain("formatted") / EXPLAIN FORMATTED
  ExplainDefault,     // explain() / EXPLAIN: physical tree only
  ExplainExtended,    // explain(true): parsed, analyzed, optimized logical + physical
  ExplainCost,        // EXPLAIN COST: optimized logical with Statistics + physical
  PhotonExplanation,  // only a "== Photon Explanation ==" section
  QueryProfile,       // Databricks SQL Query Profile JSON export
  EventLog,           // Spark event log (JSON lines)
  HistoryServer,      // Spark History Server REST answer (/api/v1/applications/<app>/sql)
};
std::string_view to_string(InputFormat f);

enum class OpKind : std::uint8_t {
  Unknown,
  Scan,              // file / DSv2 / JDBC / Photon / profile data-source scans
  LocalData,         // LocalTableScan, Range, OneRowRelation, ExistingRDD
  InMemoryScan,      // InMemoryTableScan / InMemoryRelation
  Filter,
  Project,
  Join,              // see JoinInfo
  Exchange,          // shuffle exchange (Spark, Photon sink/source/map stage, Gluten ColumnarExchange)
  BroadcastExchange,
  ReusedExchange,
  Aggregate,
  Sort,
  TopK,              // TakeOrderedAndProject, PhotonTopK
  Limit,
  Window,
  Union,
  Expand,
  Generate,
  QueryStage,        // ShuffleQueryStage, BroadcastQueryStage, TableCacheQueryStage, ResultQueryStage
  ShuffleRead,       // AQEShuffleRead / CustomShuffleReader
  AdaptivePlan,      // AdaptiveSparkPlan
  Transition,        // ColumnarToRow, RowToColumnar, InputAdapter, Photon/Velox adapters
  CodegenStage,      // WholeStageCodegen (profiles), Photon result / write stages, Gluten WholeStageCodegenTransformer
  PythonEval,        // BatchEvalPython, ArrowEvalPython, MapInPandas, FlatMapGroupsInPandas, ...
  Subquery,          // Subquery / SubqueryBroadcast wrappers (profile, default mode)
  ReusedSubquery,
  Command,           // Execute ..., CommandResult, write commands
  Write,             // file writers (profile)
  Logical,           // a node of a logical plan (extended / cost modes, command inner children)
  Other,
};
std::string_view to_string(OpKind k);

// Gpu: NVIDIA RAPIDS Accelerator (`Gpu*` operators). Comet has none: OpFacts::comet marks its operators.
enum class Engine : std::uint8_t { Spark, Photon, Gluten, Gpu };
std::string_view to_string(Engine e);

enum class JoinType : std::uint8_t {
  None, Inner, Cross, LeftOuter, RightOuter, FullOuter, LeftSemi, LeftAnti, ExistenceJoin, LeftSingle, Unknown
};
std::string_view to_string(JoinType t);
enum class BuildSide : std::uint8_t { None, Left, Right };
std::string_view to_string(BuildSide s);
enum class JoinStrategy : std::uint8_t {
  None, BroadcastHash, ShuffledHash, SortMerge, BroadcastNestedLoop, Cartesian, Unknown
};
std::string_view to_string(JoinStrategy s);

// A join's type and strategy. Its keys and condition are not copied here: they are the parsed
// expressions of the operator's own fields (`Left keys`, `Right keys`, `Join condition`; a
// profile's LEFT_KEYS, RIGHT_KEYS, CONDITION), named by index and read through
// Operator::left_keys(), right_keys() and join_condition() (32 bytes instead of 224 and a copy of
// every key's expression tree).
struct JoinInfo {
  static constexpr std::uint32_t kNoField = UINT32_MAX;
  JoinType type = JoinType::None;
  BuildSide build = BuildSide::None;
  JoinStrategy strategy = JoinStrategy::None;
  bool skew = false;                 // (skew=true) / isSkew=true / trailing true
  std::uint32_t left_keys_field = kNoField;   // index into Operator::fields, kNoField when none
  std::uint32_t right_keys_field = kNoField;
  std::uint32_t condition_field = kNoField;   // its first parsed expression is the condition
  Text type_text;                    // as printed ("ExistenceJoin(exists#12)", "Left Semi")
};
static_assert(sizeof(JoinInfo) <= 32, "JoinInfo grew: keys are read from the operator's fields");

// Statistics(sizeInBytes=..., rowCount=...) on query stages and cost-mode logical nodes.
struct Statistics {
  std::optional<double> size_bytes;
  std::optional<double> row_count;
  bool masked = false;               // Statistics(X) in test goldens
  std::string text;
  SourceRange loc;
};

// A join hint seen in a logical plan (ResolvedHint / leftHint= / rightHint=) or SQL text.
struct Hint {
  std::string strategy;              // "broadcast", "shuffle_hash", "merge", "shuffle_replicate_nl"
  HintKind kind = HintKind::Other;   // the strategy, typed (set by the reader)
  BuildSide side = BuildSide::None;  // which join input it applies to, when known
  SourceRange loc;
};

// A part of a string held elsewhere: `size` bytes from `begin`.
struct TextSpan {
  std::uint32_t begin = 0;
  std::uint32_t size = 0;
};

// The top-level items of a list field, as parts of its value: 4 bytes an item (a plan holds half
// a million items; 8 bytes each before). An item that starts in the value's first 65,534 bytes
// and has at most 65,535 bytes is one word, its begin in the low 16 bits and its size in the high
// 16; a list with an item that does not fit is kept wide: its first word is kWide, then a begin
// and a size word for each item (a value over 64 KiB, a rare long list, converts once).
class ItemSpans {
 public:
  static constexpr std::uint32_t kWide = UINT32_MAX;  // never a narrow word: its begin would be 0xFFFF

  [[nodiscard]] std::size_t size() const noexcept {
    const std::size_t n = words_.size();
    return wide() ? (n - 1) / 2 : n;
  }
  [[nodiscard]] bool empty() const noexcept { return words_.empty(); }
  [[nodiscard]] bool wide() const noexcept { return !words_.empty() && words_[0] == kWide; }
  void clear() noexcept { words_.clear(); }
  // Room for `n` narrow items.
  void reserve(std::size_t n) { words_.reserve(n); }
  // The items, each a part of `value`, in place of those held: when the value is shorter than
  // 65,535 bytes every part fits a narrow word (its begin and size are below that), written
  // without a test each (a plan's lists hold half a million items); otherwise item by item.
  void assign(std::string_view value, const std::vector<std::string_view>& parts) {
    if (value.size() < 0xFFFFu) {
      std::uint32_t* w = assign_narrow(parts.size());
      for (const std::string_view p : parts)
        *w++ = static_cast<std::uint32_t>(p.data() - value.data()) | (static_cast<std::uint32_t>(p.size()) << 16);
      return;
    }
    words_.clear();
    reserve(parts.size());
    for (const std::string_view p : parts)
      push_back({static_cast<std::uint32_t>(p.data() - value.data()), static_cast<std::uint32_t>(p.size())});
  }
  // Room for `n` narrow items in place of those held, left for the caller to write: each word
  // begin | size << 16, a part of a value shorter than 65,535 bytes (as assign writes them). A
  // reader that splits a list straight into words copies them here: one block of exactly `n`.
  std::uint32_t* assign_narrow(std::size_t n) { return words_.assign_for_overwrite(n); }
  void push_back(TextSpan s) {
    if (!wide() && fits(s)) {
      words_.push_back(s.begin | (s.size << 16));
      return;
    }
    if (!wide()) widen(1);
    words_.push_back(s.begin);
    words_.push_back(s.size);
  }
  [[nodiscard]] TextSpan operator[](std::size_t i) const noexcept {
    return wide() ? TextSpan{words_[1 + 2 * i], words_[2 + 2 * i]} : unpack(words_[i]);
  }
  // The words (for FieldItems' iterator): from first_word(), one word an item or two when wide().
  [[nodiscard]] const std::uint32_t* first_word() const noexcept { return words_.data() + (wide() ? 1 : 0); }
  [[nodiscard]] const std::uint32_t* end_word() const noexcept { return words_.data() + words_.size(); }
  static TextSpan unpack(std::uint32_t w) noexcept { return {w & 0xFFFFu, w >> 16}; }

 private:
  static bool fits(TextSpan s) noexcept { return s.begin < 0xFFFFu && s.size <= 0xFFFFu; }
  // The narrow items rewritten as pairs behind a kWide word, with room for `more` items.
  void widen(std::size_t more) {
    CompactVector<std::uint32_t> w;
    w.reserve(1 + 2 * (words_.size() + more));
    w.push_back(kWide);
    for (std::uint32_t x : words_) {
      const TextSpan s = unpack(x);
      w.push_back(s.begin);
      w.push_back(s.size);
    }
    words_.swap(w);
  }
  CompactVector<std::uint32_t> words_;
};

// The top-level items of a list field: views into the field's printed value (4 bytes per item
// instead of a string each, see ItemSpans). Iterates as std::string_view.
class FieldItems {
 public:
  FieldItems(std::string_view text, const ItemSpans& spans) : text_(text), spans_(&spans) {}
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = std::string_view;
    iterator() = default;
    iterator(std::string_view text, const std::uint32_t* at, bool wide) : text_(text), at_(at), wide_(wide) {}
    std::string_view operator*() const {
      const TextSpan s = wide_ ? TextSpan{at_[0], at_[1]} : ItemSpans::unpack(*at_);
      return text_.substr(s.begin, s.size);
    }
    iterator& operator++() {
      at_ += wide_ ? 2 : 1;
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const iterator& o) const { return at_ == o.at_; }
    bool operator!=(const iterator& o) const { return at_ != o.at_; }

   private:
    std::string_view text_;
    const std::uint32_t* at_ = nullptr;
    bool wide_ = false;
  };
  [[nodiscard]] iterator begin() const { return {text_, spans_->first_word(), spans_->wide()}; }
  [[nodiscard]] iterator end() const { return {text_, spans_->end_word(), spans_->wide()}; }
  [[nodiscard]] std::size_t size() const { return spans_->size(); }
  [[nodiscard]] bool empty() const { return spans_->empty(); }
  std::string_view operator[](std::size_t i) const {
    const TextSpan s = (*spans_)[i];
    return text_.substr(s.begin, s.size);
  }
  [[nodiscard]] std::vector<std::string> strings() const { return {begin(), end()}; }
  bool operator==(const std::vector<std::string>& v) const {
    if (v.size() != size()) return false;
    for (std::size_t i = 0; i < v.size(); ++i)
      if ((*this)[i] != v[i]) return false;
    return true;
  }

 private:
  std::string_view text_;
  const ItemSpans* spans_;
};

// The printed [N] of a field: 4 bytes (a plan holds a quarter of a million fields). A count of
// kMaxFieldCount or more is kept as kMaxFieldCount (no list has that many items: a CompactVector
// holds at most 2^31 - 1, so such a count is a mismatch either way).
using FieldCount = CompactOptional<std::uint32_t, EmptyIntegerIs<std::uint32_t, UINT32_MAX>>;
inline constexpr std::size_t kMaxFieldCount = UINT32_MAX - 1;

// One detail line of an operator: `Key [N]: [...]`, `Key: value`, `Condition : ...`, a bare line,
// a profile metadata entry, or one argument of a default-mode tree line.
struct Field {
  // (members ordered so that the count, the role and the flags share one word, the texts 8 bytes
  // each, the place without its end: 48 bytes; a plan holds several fields per operator)
  PackedText key;                    // "" for a bare line
  PackedText value;                  // raw text (continuation lines joined with '\n')
  ItemSpans item_spans;              // top-level list items (when is_list), as parts of `value`
  CompactVector<ParsedExpr> exprs;     // parsed items for expression-bearing keys (conditions, filters, keys)
  // Where the line (or the key) starts. Its end is not kept: no output reads it, and a reader
  // that warns about the field while reading it has the whole range (finish_field takes it).
  SourcePos loc;
  FieldCount count;                  // the printed [N] (see FieldCount)
  FieldRole role = FieldRole::None;  // what the key means, set by the reader (rules use this)
  bool is_list : 1 = false;          // value is a [...] list that was split into items
  bool count_mismatch : 1 = false;   // items.size() != count: items are not trusted
  bool truncated : 1 = false;        // Spark abbreviated the value ("...", "... N more fields")
  bool more_fields : 1 = false;      // ... by spark.sql.debug.maxToStringFields ("... N more fields")
  // The printed count, kept (a count of kMaxFieldCount or more as kMaxFieldCount).
  void set_count(std::optional<std::size_t> n) {
    if (n) count = static_cast<std::uint32_t>(std::min<std::size_t>(*n, kMaxFieldCount));
    else count = std::nullopt;
  }
  // The top-level list items (when is_list): views into `value`, valid while the field lives.
  [[nodiscard]] FieldItems items() const { return {value, item_spans}; }
  // Adds an item: `part` must be a view into `value`.
  void add_item(std::string_view part) {
    item_spans.push_back({static_cast<std::uint32_t>(part.data() - value.data()), static_cast<std::uint32_t>(part.size())});
  }
  // A list of these items: the value becomes `[a, b, c]` (kept in `store`) and each item a part of it.
  void set_items(TextStore& store, const std::vector<std::string>& list);
  // Nothing in it: no value, `[]`, or a list with no items.
  // The printed value says nothing ("" or "[]"); items / parsed expressions are not looked at.
  [[nodiscard]] bool empty_value() const { return value.empty() || value == "[]"; }
  // No entry at all: no items, no parsed expression and an empty printed value.
  [[nodiscard]] bool empty_list() const { return item_spans.empty() && exprs.empty() && empty_value(); }
  // Owns nothing but its texts and lists (ReleasesOnlyListParts: a plan's fields are let go with
  // its store, without a walk over each one): a member that owns anything else breaks that.
  using releases_only_list_parts = void;
};

enum class MetricUnit : std::uint8_t { Count, Bytes, Millis };

// A runtime metric normalised to Count, Bytes or milliseconds.
struct Metric {
  // What the metric measures, whatever the source calls it. Each reader maps its own labels
  // (one name table per reader); rules ask `op.metric(Metric::FilesRead)`.
  enum Id : std::uint16_t {
    Unknown,
    // rows
    OutputRows, RowsScanned, SinkOutputRows, SourceOutputRows, ShuffleRecordsWritten, ExchangeShuffleRecordsWritten,
    // files
    FilesRead, FilesPruned, FilesReadBytes, FilesPrunedBytes, SmallestFileBytes, FileStatusTime, FooterFetchTime,
    // shuffles
    DataSize, ExchangeDataSize, ShuffleReadPartitionDataSize, ShuffleBytesWritten, ExchangeShuffleBytesWritten,
    SinkBytesWritten, SinkUncompressedBytesWritten, SinkPartitions, ExchangePartitions,
    SkewedPartitions, SkewedPartitionSplits, MapStageSkewRatio, MapStageSkewedPartitions,
    // spill
    SpillBytes, SinkSpillBytes, SpillBytesLeft, SpillBytesRight, SpillSize, Spills, SinkSpills, SpilledRows,
    SinkSpilledRows, SpillRecursionDepth, SinkSpillMergeTime,
    // operator time
    AggBuildTime, Duration, PeakMemory,
    // query level
    TotalTime, WaitingForComputeTime, QueuedAtCapacityTime, CompilationTime, ExecutionTime, ResultFetchTime,
    MetadataTime, TaskTotalTime, PhotonTotalTime, QuerySpillBytes, QueryReadBytes,
  };
  // label and key are 8-byte views (a plan holds one Metric per metric of every operator: 30,000 for a
  // 10,000-node profile): their bytes live in the plan's TextStore, each distinct label once (the
  // readers intern them, see MetricNames), or in a string literal.
  PackedText label;                  // as the source names it ("Number of output rows")
  PackedText key;                    // profile key when not UNKNOWN_KEY
  OptionalDouble value;              // absent: the source had no value
  MetricUnit unit = MetricUnit::Count;
  bool hidden = false;
  Id id = Unknown;                   // set by the reader's name table
};
static_assert(sizeof(Metric) <= 32, "Metric grew: a plan holds one per metric of every operator");

// A reader's table of the metric labels and keys it has kept: the same label on every node is one
// copy in the plan's TextStore. At most kMax distinct texts are remembered (a hostile input with a
// new label per metric then keeps each one, as a plain keep would).
class MetricNames {
 public:
  static constexpr std::size_t kMax = 4096;
  explicit MetricNames(TextStore& store) : store_(&store) {}
  Text operator()(std::string_view s);

 private:
  TextStore* store_;
  std::unordered_set<std::string_view> seen_;  // views of the store's copies
};

// Where in the printed output an operator appeared.
enum class Section : std::uint8_t {
  Main, AqeFinal, AqeCurrent, AqeInitial, Subquery, OptimizedOut,
  ParsedLogical, AnalyzedLogical, OptimizedLogical, Profile
};
std::string_view to_string(Section s);

// Parts of an operator that only runtime sources (Query Profiles, event logs, the History
// Server) give: out of line, so that explain-text operators do not carry them. Every node of a
// Query Profile has one (its tag): texts are views (their bytes in the plan's store, each distinct
// tag once) and the optionals compact, 72 bytes instead of 120 and no heap block per long tag.
struct RuntimeExtras {
  Text tag;                           // profile tag (normalised upper-case)
  Text child_side;                    // profile CHILD_TAG (Left/Right/Child) when given
  OptionalDouble peak_memory_bytes;
  OptionalIndex stage_parent;         // profile subgraphParent / enclosing codegen stage
  std::vector<int> spark_stages;      // Spark stage ids linked to this operator
};
static_assert(sizeof(RuntimeExtras) <= 72, "RuntimeExtras grew: every profile node has one");

// The parts of an operator that runtime sources give (Query Profiles, event logs, the History
// Server: metrics, rows, time, RuntimeExtras) or that few explain operators print (Statistics,
// hints): one pointer in the Operator instead of 48 bytes (an explain-text operator has none of
// them; 100,000 operators of a big plan carried 4.8 MB of empty members). Read through
// Operator::metrics(), rows(), duration_ms(), stats(), extra() and hints(); written through
// Operator::edit_runtime().
struct OpRuntime {
  CompactVector<Metric> metrics;
  OptionalDouble rows;                 // output rows (profile keyMetrics / "Number of output rows")
  OptionalDouble duration_ms;          // operator time
  OutOfLine<Statistics> stats;         // Statistics(...) when printed
  OutOfLine<RuntimeExtras> extra;      // tag, child side, peak memory, stage links (runtime sources)
  OutOfLine<std::vector<Hint>> hints;  // logical plans (out of line: physical operators have none)
};

// The names only a scan has (out of line: most operators are no scan).
struct ScanNames {
  Text table;
  Text scan_format;
};

// A plan holds one of these per printed node (100,000 for a large plan), so the members are kept
// small: 8-byte views for texts (PackedText), one pointer for parts most operators lack (OutOfLine), one pointer for
// the per-operator lists (CompactVector; the children and parents in IndexVector, one index inline), optionals in the size of their value (CompactOptional),
// the flags in bits next to the one-byte enums, the shared scan facts behind one pointer
// (SharedPart). See the static_assert below the struct.
struct Operator {
  // (the index, the enums and flags, the codegen stage and the reused operator share two words)
  std::uint32_t index = 0;           // position in Plan::ops (a plan's operators fit 32 bits, as its lists do)
  OpKind kind = OpKind::Unknown;
  Engine engine = Engine::Spark;
  Section section = Section::Main;
  bool logical : 1 = false;
  bool codegen : 1 = false;          // `* ` / `*(n) ` / `^ ` marker or inside a WholeStageCodegen
  bool hidden : 1 = false;           // helper node a UI folds away
  // A formatted outline's operator whose `(N) Name` detail block the input does not hold (the paste
  // was cut): its fields (condition, output, pushed filters ...) are unknown, never "none".
  bool details_missing : 1 = false;
  OptionalInt32 codegen_stage;       // [codegen id : n] / *(n)
  OptionalIndex32 reuses;            // ReusedExchange / ReusedSubquery -> the reused operator
  PackedText id;                     // printed operator id ("12"), profile node id; empty when unknown
  PackedText name;                   // node name: "BroadcastHashJoin", "PhotonGroupingAgg", "Scan parquet spark_catalog.db.t"
  PackedText label;                  // the whole printed label / profile display name
  OutOfLine<ScanNames> scan_names;   // scans: table() and scan_format(), set through set_table / set_scan_format
  OutOfLine<JoinInfo> join;          // kind == Join (out of line: most operators are no join)
  CompactVector<Field> fields;       // detail lines in printed order
  PackedText arguments;              // default-mode one-line arguments / `Arguments:` value
  IndexVector children;              // producers, in printed order (left first); one inline, no block
  IndexVector parents;               // consumers (filled by Plan::link); one inline, no block
  OutOfLine<OpFacts> facts;          // typed facts filled by the reader (out of line: most operators have none)
  SharedPart<ScanFacts> scan;        // kind == Scan / InMemoryScan / LocalData: what the scan reads (shared by copies)
  SourceRange loc;                   // outline line (text) or node object (JSON)
  SourceRange detail_loc;            // `(N) Name` detail header, when present

  // The runtime parts (see OpRuntime), read without allocating: an operator without them reads
  // empty ones. A reader writes them through edit_runtime(), which creates the block on first use:
  // write only what the input gives (an explain-text operator should keep none).
  [[nodiscard]] const OpRuntime& runtime() const { return *runtime_; }
  OpRuntime& edit_runtime() { return runtime_.edit(); }
  [[nodiscard]] bool has_runtime() const { return runtime_.present(); }
  [[nodiscard]] const CompactVector<Metric>& metrics() const { return runtime_->metrics; }
  [[nodiscard]] OptionalDouble rows() const { return runtime_->rows; }
  [[nodiscard]] OptionalDouble duration_ms() const { return runtime_->duration_ms; }
  [[nodiscard]] const OutOfLine<Statistics>& stats() const { return runtime_->stats; }
  [[nodiscard]] const OutOfLine<RuntimeExtras>& extra() const { return runtime_->extra; }
  [[nodiscard]] const OutOfLine<std::vector<Hint>>& hints() const { return runtime_->hints; }

  // Scans: the table identifier when printed, the format (parquet, delta, orc, csv, jdbc, ...).
  [[nodiscard]] Text table() const { return scan_names->table; }
  [[nodiscard]] Text scan_format() const { return scan_names->scan_format; }
  void set_table(Text t) {
    if (!t.empty() || scan_names.present()) scan_names.edit().table = t;
  }
  void set_scan_format(Text t) {
    if (!t.empty() || scan_names.present()) scan_names.edit().scan_format = t;
  }
  // Joins: the parsed keys and condition, read from the fields JoinInfo names (empty / null when
  // the operator has none).
  [[nodiscard]] const CompactVector<ParsedExpr>& left_keys() const { return join_exprs(join->left_keys_field); }
  [[nodiscard]] const CompactVector<ParsedExpr>& right_keys() const { return join_exprs(join->right_keys_field); }
  [[nodiscard]] const ParsedExpr* join_condition() const {
    const CompactVector<ParsedExpr>& e = join_exprs(join->condition_field);
    return e.empty() ? nullptr : &e.front();
  }

  [[nodiscard]] const Field* field(std::string_view key) const;     // first field with that key
  [[nodiscard]] const Metric* metric(std::string_view label) const; // exact label match
  [[nodiscard]] std::optional<double> metric_value(std::string_view label) const;
  [[nodiscard]] const Field* field(FieldRole role) const;           // first field with that role
  [[nodiscard]] const Metric* metric(Metric::Id id) const;          // first metric with that id and a value
  [[nodiscard]] std::optional<double> metric_value(Metric::Id id) const;

 private:
  [[nodiscard]] const CompactVector<ParsedExpr>& join_exprs(std::uint32_t field) const;

  OutOfLine<OpRuntime> runtime_;     // metrics, rows, time, statistics, runtime extras, hints
};

// 144 bytes at most (184 before the runtime parts, 48 bytes that explain-text operators never
// set, went behind one pointer, OpRuntime; 192 before the index and the reused operator took 4 bytes each, 248 before
// its texts were packed into 8 bytes each and the scan names went out of line, 352 before the
// compact members): the plan's operator array is most of a parsed plan's memory
// (docs/performance.md, sixth round and "Operator, join and field layout"). A new member must fit
// or go out of line.
static_assert(sizeof(Operator) <= 144, "Operator grew: keep new members out of line or compact");
static_assert(sizeof(Field) <= 48, "Field grew: a plan holds several per operator");

struct SubqueryEntry {
  int number = 0;                           // Subquery:<n>
  std::optional<std::size_t> hosting_op;    // operator whose expression contains it
  std::string hosting_expression;
  std::optional<std::size_t> root;          // printed plan root; empty when reused
  SourceRange loc;
};

struct Trailer {
  std::string title;                        // "Photon Explanation", "Extended Information (x)", ...
  std::string text;
  SourceRange loc;
};

// The parsed "== Photon Explanation ==" section.
struct PhotonExplanation {
  bool present = false;
  bool fully_supported = false;
  std::vector<std::string> reasons;          // reason headlines with their detail lines
  std::vector<std::string> reference_nodes;  // "Project [UDF(name#2964) AS ...]"
  bool python_udf = false;                   // a reason names a Python UDF
  bool udf = false;                          // a reason names a UDF (Scala, Java or Python)
  bool driver_side_only = false;             // every reference node is a driver-side result operator
                                             // (CollectLimit, CollectTail: they hand the first rows to the driver)
  SourceRange loc;
};

// Query-level facts of a profile (or an event-log execution).
struct QueryInfo {
  std::string statement_id;
  std::string sql_text;
  SourceRange sql_loc;
  std::string status;
  std::string statement_type;
  std::string description;
  std::vector<Metric> metrics;               // total/compile/execution/... normalised
  std::optional<bool> result_from_cache;
  [[nodiscard]] std::optional<double> metric_value(std::string_view label) const;
  [[nodiscard]] std::optional<double> metric_value(Metric::Id id) const;
};

// What became of a Spark stage, whatever the source calls it (Spark's own StageStatus names).
// Set by every reader that knows it: event logs (a StageCompleted with a "Failure Reason" is
// Failed, without one Complete; a stage whose tasks ran but that never completed in the log is
// Active), Query Profiles (`stageData[].status`). History Server /sql answers give no stage
// status: Unknown.
enum class StageStatus : std::uint8_t { Unknown, Complete, Failed, Active, Pending, Skipped };
std::string_view to_string(StageStatus s);  // "COMPLETE", "FAILED", ... ("" for Unknown)

struct StageInfo {
  std::string id;
  StageStatus status = StageStatus::Unknown;
  std::optional<double> num_tasks;
  std::optional<double> duration_ms;
  std::optional<double> peak_memory_bytes;
  // Task-time distribution when the source has it (event logs).
  std::optional<double> task_ms_min, task_ms_median, task_ms_max, task_ms_p75;
  std::optional<double> task_ms_total;            // all its successful tasks' time (event logs)
  // How many tasks fall in each of kTaskHistogramBins equal bins of [0, task_ms_max] (event logs;
  // the last bin holds the longest task): skew shows as a lone task far right.
  std::vector<std::uint32_t> task_ms_histogram;
  static constexpr std::size_t kTaskHistogramBins = 10;
  std::vector<std::size_t> operators;
  // Its task times leave work out: the stage failed or never completed, so the failed attempts
  // (and the tasks never run) are not in them; they count only the tasks that succeeded.
  [[nodiscard]] bool partial() const { return status == StageStatus::Failed || status == StageStatus::Active; }
};

// A Spark job of the execution and how it ended (event logs: SparkListenerJobStart / JobEnd;
// History Server answers: successJobIds / failedJobIds / runningJobIds).
enum class JobStatus : std::uint8_t { Unknown, Running, Succeeded, Failed };
std::string_view to_string(JobStatus s);  // "running", "succeeded", "failed" ("" for Unknown)

struct JobInfo {
  std::string id;
  JobStatus status = JobStatus::Unknown;
  std::string failure;              // JobFailed's exception message, its first line (event logs)
  std::vector<std::string> stages;  // its stage ids (event logs)
};

struct Plan {
  std::string name;                          // e.g. "plan 1", "execution 3: <description>", graph index
  InputFormat format = InputFormat::Unknown;
  std::vector<Operator> ops;
  std::vector<std::size_t> roots;            // physical roots (usually one)
  std::vector<std::size_t> logical_roots;    // extended / cost modes, in printed order
  bool adaptive = false;                     // AdaptiveSparkPlan present
  std::optional<bool> is_final_plan;
  std::vector<SubqueryEntry> subqueries;
  std::vector<Trailer> trailers;
  PhotonExplanation photon;
  std::vector<std::string> optimizer_statistics;  // "missing = t1" lines
  QueryInfo query;
  std::vector<StageInfo> stages;
  std::vector<JobInfo> jobs;                 // event logs and History Server answers
  SourceRange loc;                           // the whole plan's first line
  PlanFacts facts;                           // engine, version, AQE, hints: filled by the reader

  Plan() = default;
  Plan(const Plan&) = default;
  Plan(Plan&&) noexcept = default;
  Plan& operator=(const Plan&) = default;
  Plan& operator=(Plan&&) noexcept = default;
  // The operators go first: their lists may live in the store (see BlockScope). Assignments are
  // safe as declared: `ops` is assigned before the store it may live in is replaced.
  ~Plan() { ops.clear(); }

  // The bytes behind the plan's Texts (operator and field strings): one arena per plan, shared by
  // copies of the plan. `keep` copies a text into it.
  TextStore& text_store() {
    if (!text_) text_ = std::make_shared<TextStore>();
    return *text_;
  }
  Text keep(std::string_view s) { return s.empty() ? Text{} : text_store().keep(s); }
  // For readers that keep texts before the plan exists: the plan holds their store from now on
  // (its own earlier texts stay valid).
  void share_text_store(std::shared_ptr<TextStore> store) {
    if (!store || store == text_) return;
    if (text_) store->retain(std::move(text_));
    text_ = std::move(store);
  }

  // Fill Operator::parents from children (and drop duplicate edges). Call once after building.
  void link();
  [[nodiscard]] const Operator* find_id(std::string_view id) const;
  // The jobs that failed, in the order the source lists them.
  [[nodiscard]] std::vector<const JobInfo*> failed_jobs() const;
  // Its task times leave work out: a job failed or a stage failed or never completed. The task
  // time it reports (taskTotalTimeMs, the stages' distributions) counts only the tasks that
  // succeeded, so it is a lower bound, never the whole.
  [[nodiscard]] bool task_times_partial() const;
  // Puts the plan, its operators (outline and detail lines), fields, statistics, subqueries and
  // trailers at `loc`: for a plan read from a text embedded in another input (an event log's or a
  // History Server answer's planDescription), whose own lines do not map onto that input.
  void relocate_all(SourceRange loc);

 private:
  std::shared_ptr<TextStore> text_;
};

enum class MessageSeverity : std::uint8_t { Error, Warning, Note };

// A parser's own message: a syntax error, an unparsable expression, a dangling edge.
struct ParseMessage {
  MessageSeverity severity = MessageSeverity::Error;
  SourceRange loc;
  std::string message;                       // "expected ')' after cast type"
};

// What the reader of an input says about inputs of its kind, so that front ends ask it instead of
// branching on InputFormat: each reader declares one (parser/registry/reader.hpp, Reader::traits)
// and puts it in every ParseResult it returns.
struct InputTraits {
  // How a person names the kind: "explain text", "Query Profile", "event log", "History Server
  // answer" (the `check` folder-walk summary, messages about the input).
  std::string_view display_name = "explain text";
  // The input is JSON: it has no comments (a `# planlint:` directive cannot be written in it), and
  // an editor finds the operator under the cursor by its node object.
  bool json = false;
  // Each operator's position is where its JSON node object starts and the nodes follow each other:
  // the operator under a position is the last one starting at or before it (Query Profile).
  bool operator_at_node_start = false;
  // The bytes may be binary (a compressed event log): not refused as binary data.
  bool may_be_binary = false;
  // Each plan is one SQL execution, QueryInfo::statement_id its id and QueryInfo::description its
  // description (event logs, History Server answers): findings name their execution, and
  // `--execution N` selects one.
  bool executions = false;
};

// Everything read from one input: one or more plans plus the parser's messages.
struct ParseResult {
  std::string path;                          // as given ("-" for stdin)
  InputFormat format = InputFormat::Unknown;
  InputTraits traits;                        // set by the reader that read it
  std::vector<Plan> plans;
  std::vector<ParseMessage> messages;
  // Plans read but not in `plans`: handed over one at a time as they were finished (a reader given
  // ReadOptions::each_plan) or dropped once linted (`planlint check`). They came before those in
  // `plans`, which are numbered after them; `handed_over_ops` counts their operators.
  std::size_t handed_over_plans = 0;
  std::size_t handed_over_ops = 0;
  [[nodiscard]] bool has_errors() const;
};

}  // namespace planlint
