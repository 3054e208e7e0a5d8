// Explain text -> typed facts: the field keys of formatted mode, partitioning and shuffle-read
// arguments, scan sources from the scan's name, version markers.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cctype>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>

#include "parser/common/facts_fill.hpp"
#include "parser/explain/explain_ops.hpp"
#include "parser/expression/expression.hpp"
#include "support/byte_scan.hpp"
#include "support/text_search.hpp"
#include "model/expr_util.hpp"

namespace planlint {

namespace {

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

// The role of a detail key: kExplainFieldRoles looked up among the keys of the same length (every
// field of every operator asks).
const FieldRole* explain_field_role(std::string_view key) {
  constexpr std::size_t kMaxLen = 24;
  struct ByLength {
    std::array<std::array<std::uint8_t, 4>, kMaxLen + 1> idx{};  // indexes into kExplainFieldRoles, + 1
  };
  static constexpr ByLength kByLength = [] {
    ByLength t;
    for (std::size_t i = 0; i < std::size(kExplainFieldRoles); ++i) {
      auto& slot = t.idx[kExplainFieldRoles[i].first.size()];
      std::size_t k = 0;
      while (slot[k] != 0) ++k;  // at most 4 keys of one length (a compile error otherwise)
      slot[k] = static_cast<std::uint8_t>(i + 1);
    }
    return t;
  }();
  if (key.size() > kMaxLen) return nullptr;
  for (std::uint8_t i : kByLength.idx[key.size()]) {
    if (i == 0) break;
    if (same_short_bytes(kExplainFieldRoles[i - 1].first.data(), key.data(), key.size())) return &kExplainFieldRoles[i - 1].second;
  }
  return nullptr;
}

// The label, the arguments and the Arguments / Partitioning fields, joined by newlines, written
// into `t` (a buffer the caller reuses from one operator to the next: no allocation per operator).
void op_text(const Operator& op, std::string& t) {
  t.assign(std::string_view(op.label));
  t += '\n';
  t += std::string_view(op.arguments);
  for (const Field& f : op.fields)
    if (f.role == FieldRole::Arguments || f.role == FieldRole::Partitioning) {
      t += '\n';
      t += std::string_view(f.value);
    }
}

// Whether op_text(op) contains `w`, without building it: `w` holds no newline, so it cannot span
// two of the parts op_text joins with one. `k`: see contains_via. A part that lies inside one
// searched already is not searched again (a default-mode label holds its arguments; the
// formatted-mode arguments are the Arguments field).
bool op_text_contains(const Operator& op, std::string_view w, std::size_t k = 0) {
  if (contains_via(op.label, w, k)) return true;
  const bool args_in_label = lies_within(op.arguments, op.label);
  if (!args_in_label && contains_via(op.arguments, w, k)) return true;
  for (const Field& f : op.fields)
    if ((f.role == FieldRole::Arguments || f.role == FieldRole::Partitioning) && !lies_within(f.value, op.label) &&
        !lies_within(f.value, op.arguments) && contains_via(f.value, w, k))
      return true;
  return false;
}

// The first '(' or ')' of t from q on, t.size() when none: 16 bytes a look where SSE2 is there
// and 16 are left (the partitioning expressions run to a hundred bytes), then byte by byte.
inline std::size_t next_paren(std::string_view t, std::size_t q) {
#if defined(__SSE2__)
  using namespace byte_scan_detail;
  while (t.size() - q >= 16) {
    const v16 x = load16(t.data() + q);
    const unsigned m = movemask(eq(x & splat(static_cast<char>(0xFE)), splat('(')));  // ( ) to (
    if (m != 0) return q + static_cast<std::size_t>(__builtin_ctz(m));
    q += 16;
  }
#endif
  while (q < t.size() && t[q] != '(' && t[q] != ')') ++q;
  return q;
}

// The partition count of the partitioning whose marker (`hashpartitioning(` ...) ends at `p`.
std::optional<std::uint32_t> number_after(std::string_view t, std::size_t p) {
  // hashpartitioning(a#1, b#2, 200): the number is the last argument before ')'. The parentheses
  // found 16 bytes a look (next_paren), each counted as the byte loop counted it.
  int depth = 1;
  std::size_t close = p;
  while (close < t.size() && depth > 0) {
    close = next_paren(t, close);
    if (close == t.size()) break;
    if (t[close] == '(') ++depth;
    else --depth;
    ++close;
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

constexpr std::string_view kExecutorBroadcast = "EXECUTOR_BROADCAST";
constexpr std::string_view kPlanIdTag = "[plan_id=";

void fill_partitioning(Operator& op, const ExplainFillHints& hints) {
  // Most operators have nothing to say (no exchange, no EXECUTOR_BROADCAST in the input): they
  // leave before the Partitioning is made and tested (0.17 M on the golden plans).
  if (op.kind != OpKind::Exchange && op.kind != OpKind::BroadcastExchange && !hints.executor_broadcast) return;
  Partitioning p;
  if (hints.executor_broadcast && op_text_contains(op, kExecutorBroadcast, 1)) p.executor_broadcast = true;
  if (op.kind == OpKind::Exchange) {
    thread_local std::string text;  // fill_partitioning is not re-entered
    op_text(op, text);
    const std::string_view t = text;  // number_after reads past a part's end, as it always did
    // Each word searched once: the count is read after the place the kind's search found.
    constexpr std::string_view kHash = "hashpartitioning(", kRange = "rangepartitioning(",
                               kRoundRobin = "RoundRobinPartitioning(";
    const bool single_partition = contains(t, "SinglePartition");
    std::size_t at = 0;
    if (single_partition) {
      p.kind = PartitioningKind::Single;
      p.partitions = 1;
    } else if ((at = t.find(kHash)) != std::string_view::npos) {
      p.kind = PartitioningKind::Hash;
      p.partitions = number_after(t, at + kHash.size());
    } else if ((at = t.find(kRange)) != std::string_view::npos) {
      p.kind = PartitioningKind::Range;
      p.partitions = number_after(t, at + kRange.size());
    } else if ((at = t.find(kRoundRobin)) != std::string_view::npos) {
      p.kind = PartitioningKind::RoundRobin;
      p.partitions = number_after(t, at + kRoundRobin.size());
    }
    if (single_partition || contains(t, "RoundRobinPartitioning(1)")) p.single = true;
    if (contains(t, "ENSURE_REQUIREMENTS")) p.origin = ShuffleOrigin::EnsureRequirements;
    else if (contains(t, "REPARTITION_BY_NUM")) p.origin = ShuffleOrigin::RepartitionByNum;
    else if (contains(t, "REPARTITION_BY_COL")) p.origin = ShuffleOrigin::RepartitionByCol;
    else if (contains(t, "REBALANCE_PARTITIONS_BY")) p.origin = ShuffleOrigin::Rebalance;
  }
  if (op.kind == OpKind::BroadcastExchange) p.kind = PartitioningKind::Broadcast;
  // Facts are out of line: only an operator with something to say gets them.
  if (p.kind != PartitioningKind::Unknown || p.partitions || p.single || p.executor_broadcast ||
      p.origin != ShuffleOrigin::Unknown)
    op.facts.edit().partitioning = p;
}

void fill_shuffle_read(Operator& op) {
  if (op.kind != OpKind::ShuffleRead) return;
  std::string args(op.arguments);
  if (const Field* f = op.field(FieldRole::Arguments)) args += " " + f->value;
  // Spark 4 also prints the marks after the outline name: "AQEShuffleRead (6), skewed".
  args += " " + op.label;
  op.facts.edit().shuffle_read.skew_handled = contains(args, "skewed") && !contains(args, "no skewed");
  op.facts.edit().shuffle_read.coalesced = contains(args, "coalesced");
  op.facts.edit().shuffle_read.local = contains(args, "local");
}

// Iceberg prints the predicates its scan accepted in its description, in Iceberg's own words:
// `lake.db.t (branch=null) [filters=x IS NOT NULL, x = 42, groupedBy=]` (one-line modes: after
// the output; formatted mode, event logs, REST answers: the line without a key). That list is the
// scan's pushed-filter list: kept as a field of role ScanFilters (the filters the scan node
// evaluates), its items parsed as SQL. An empty list (`[filters=, groupedBy=]`) says nothing was
// accepted. Views into the parts searched; nothing is kept when no `filters=` is there or the
// list does not end inside the part.
void fill_iceberg_filters(TextStore& st, Operator& op, const std::string_view* parts, std::size_t n) {
  for (const Field& f : op.fields)
    if (f.role == FieldRole::ScanFilters) return;
  // Iceberg 1.10 on Spark 3.5: `[filters=..., groupedBy=]`; Iceberg 1.12 on Spark 4.1:
  // `IcebergScan(table=..., branch=null, filters=..., runtimeFilters=, groupedBy=)`.
  static constexpr std::string_view kTag = "filters=";
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view t = parts[i];
    std::size_t at = t.find(kTag);
    // `filters=` right after `[`, `(` or `, ` (never the tail of `runtimeFilters=`).
    while (at != std::string_view::npos &&
           !(at > 0 && (t[at - 1] == '[' || t[at - 1] == '(' || (at > 1 && t[at - 1] == ' ' && t[at - 2] == ','))))
      at = t.find(kTag, at + 1);
    if (at == std::string_view::npos) continue;
    // The list ends at the bracket or parenthesis closing its group or at the next top-level
    // `, key=` (a word right before '=': Iceberg prints its comparisons with blanks around the
    // operator).
    const std::size_t from = at + kTag.size();
    std::size_t end = std::string_view::npos;
    int depth = 0;
    char quote = 0;
    for (std::size_t j = from; j < t.size() && end == std::string_view::npos; ++j) {
      const char c = t[j];
      if (quote) {
        if (c == quote) quote = 0;
        continue;
      }
      if (c == '\'' || c == '"') quote = c;
      else if (c == '(' || c == '[' || c == '{') ++depth;
      else if ((c == ']' || c == ')') && depth == 0) end = j;
      else if (c == ')' || c == '}' || c == ']') --depth;
      else if (depth == 0 && c == ',' && j + 1 < t.size() && t[j + 1] == ' ') {
        std::size_t k = j + 2;
        while (k < t.size() && (std::isalnum(static_cast<unsigned char>(t[k])) || t[k] == '_')) ++k;
        if (k > j + 2 && k < t.size() && t[k] == '=') end = j;
      }
    }
    if (end == std::string_view::npos) return;  // cut, or not Iceberg's list: nothing to say
    const std::string_view list = t.substr(from, end - from);
    std::vector<std::string> items;
    for (std::string_view item : explain::split_top_level(list, ", "))
      if (!item.empty()) items.emplace_back(item);
    Field f;
    f.key = st.keep("filters");
    f.role = FieldRole::ScanFilters;
    f.is_list = true;
    f.count = items.size();
    f.set_items(st, items);
    f.truncated = explain::is_truncated_value(list);
    for (std::string_view item : f.items()) f.exprs.push_back(parse_expression(st, Text::stable(item), ExprDialect::Sql));
    op.fields.push_back(std::move(f));
    return;
  }
}

// Whether one of the n texts contains w (out of line: see fill_scan's in_text).
[[gnu::noinline]] bool any_contains(const std::string_view* texts, std::size_t n, std::string_view w) {
  return std::any_of(texts, texts + n, [&](std::string_view t) { return contains(t, w); });
}

// The operators fill_scan reads: one in nine of the golden plans' operators (2,758 of 24,002).
// The caller tests this inline: the call, its frame and the test cost about 30 instructions for
// each of the others (0.7 M on the golden plans).
constexpr bool scan_kind(OpKind k) { return k == OpKind::Scan || k == OpKind::InMemoryScan || k == OpKind::LocalData; }

// A scan's facts (scan_kind(op.kind)).
void fill_scan(TextStore& st, Operator& op) {
  if (!op.scan) op.scan = SharedPart<ScanFacts>::make();
  ScanFacts& sc = *op.scan;
  // The format in lower case, written in place (no string built a byte at a time and moved), and
  // compared as a view: the length first.
  const std::string_view given = op.scan_format();
  sc.format.resize(given.size());
  std::transform(given.begin(), given.end(), sc.format.begin(), ascii_lower);
  const std::string_view fmt = sc.format;
  // The label, name and arguments are searched in that order, as the one string they would make
  // joined by spaces: no word searched for holds a space, so none can span two of them.
  // A DSv2 scan's description line in formatted mode is a field without a key (formatted_details.cpp):
  // `lake.db.t (branch=null) [filters=x = 42, groupedBy=]`, what the one-line modes print after the output.
  std::string_view description;
  for (const Field& f : op.fields)
    if (f.key.empty() && f.role == FieldRole::None) {
      description = f.value;
      break;
    }
  const std::string_view parts[] = {op.label, op.name, op.arguments, description};
  // Only the parts that do not lie inside an earlier one (the name and arguments of a label):
  // a word such a part contains, the part around it contains too.
  // Their bytes rule out most words (a parquet scan's label holds no upper-case J, D, V or I)
  // before any search.
  std::string_view searched[4];
  std::size_t n_searched = 0;
  ByteSet bytes;
  for (std::string_view t : parts)
    if (std::none_of(searched, searched + n_searched, [&](std::string_view o) { return lies_within(t, o); })) {
      searched[n_searched++] = t;
      for (char c : t) bytes.add(c);
    }
  // The bytes' test inline, the search a call (any_contains): most words are ruled out by their
  // bytes, and the test as a call of its own cost a frame each (8 a scan, 0.3 M).
  auto in_text = [&](Word w) { return bytes.may_contain(w.bytes) && any_contains(searched, n_searched, w.text); };
  std::string_view location;
  if (const Field* f = op.field(FieldRole::Location)) location = f->value;
  if (op.kind == OpKind::InMemoryScan) sc.source = ScanSource::Cache;
  else if (op.kind == OpKind::LocalData) sc.source = ScanSource::Local;
  else if (fmt == "jdbc" || in_text("JDBCRelation")) {
    sc.source = ScanSource::Jdbc;
    sc.format = "jdbc";
    for (std::string_view t : parts) {
      const auto n = t.find("numPartitions=");
      if (n == std::string_view::npos) continue;
      std::uint32_t v = 0;
      bool any = false;
      for (std::size_t i = n + 14; i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); ++i) {
        v = v * 10 + static_cast<std::uint32_t>(t[i] - '0');
        any = true;
      }
      if (any) sc.source_partitions = v;
      break;  // the first one only
    }
  } else if (in_text("cassandra") || in_text("Cassandra")) sc.source = ScanSource::Cassandra;
  else if (op.name.starts_with("HiveTableScan") || fmt == "hive") sc.source = ScanSource::Hive;
  else if (fmt == "delta" || contains(location, "TahoeLogFileIndex") || contains(location, "PreparedDeltaFileIndex") ||
           contains(location, "TahoeBatchFileIndex") || in_text("DeltaTableV2"))
    sc.source = ScanSource::Delta;
  else if (fmt == "iceberg" || in_text("[filters=") || in_text("(branch=") || in_text("IcebergScan") ||
           in_text("iceberg"))
    sc.source = ScanSource::Iceberg;
  else if (fmt == "parquet" || fmt == "orc" || fmt == "csv" || fmt == "json" || fmt == "text" || fmt == "avro" ||
           fmt == "binaryfile")
    sc.source = ScanSource::File;
  else if (op.name.starts_with("BatchScan") || op.name.starts_with("Scan ")) sc.source = ScanSource::DataSourceV2;
  if (sc.source == ScanSource::Iceberg) fill_iceberg_filters(st, op, searched, n_searched);

  // JDBC marks the pushed filters it evaluates completely with a leading `*`: `[*IsNotNull(id)]`.
  for (const Field& f : op.fields) {
    if (f.role != FieldRole::PushedFilters) continue;
    for (const ParsedExpr& pe : f.exprs)
      if (pe.root)
        for_each_conjunct(*pe.root, [&sc](const Expr& c) {
          if (handled_by_source(c)) sc.handled_by_source.push_back(to_string(c));
        });
  }
}

// Spark versions from the markers the plan printed: lower bounds, flagged as inferred.
void infer_version(Plan& plan, const ExplainFillHints& hints) {
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
    auto has = [&](std::string_view w) { return op_text_contains(op, w); };
    // A marker below what is already known cannot raise it: skip its search.
    auto below = [&](int ma, int mi) { return major < ma || (major == ma && minor < mi); };
    // Each marker is found through a rare byte of it ('=', 'Q', 'Y'): see contains_via.
    if (below(3, 3) && hints.plan_ids && op_text_contains(op, kPlanIdTag, 8)) at_least(3, 3);
    if (below(3, 2) && (op.name.starts_with("AQEShuffleRead") || op.name.starts_with("TableCacheQueryStage")))
      at_least(3, 2);
    if (below(3, 0) && (op.name.starts_with("CustomShuffleReader") || op.name.starts_with("AdaptiveSparkPlan") ||
                        op.name.starts_with("ShuffleQueryStage")))
      at_least(3, 0);
    if (below(3, 1) && (op_text_contains(op, "ENSURE_REQUIREMENTS", 9) || op_text_contains(op, "REPARTITION_BY_", 13)))
      at_least(3, 1);
    // The Spark 2 test below counts exchanges only while no marker was seen, and its answer is
    // read only when none is found and the plan is not formatted (formatted: 3.0 at least).
    if (major > 0) {
      if (!below(3, 3)) break;  // the highest marker: nothing left to learn
      continue;
    }
    if (!formatted && !op.detail_loc.known() && op.kind == OpKind::Exchange && op.section == Section::Main) {
      ++exchanges;
      if (!has("[id=") && !has("plan_id") && !has("ENSURE_REQUIREMENTS") && !has("REPARTITION") && !has("REBALANCE") &&
          !has(", true") && !has(", false"))
        ++bare_exchanges;
    }
  }
  if (formatted) at_least(3, 0);
  // `&&` / `||` in any operator's text (logical ones too): how Spark 2.x printed And and Or (3.0
  // prints AND / OR). Asked only when no marker was found, the one case that reads the answer
  // (asked of every operator until a marker was seen, it cost 0.7 M on the golden plans).
  auto spark2_logic = [&] {
    return std::any_of(plan.ops.begin(), plan.ops.end(), [](const Operator& op) {
      return op_text_contains(op, " && ", 1) || op_text_contains(op, " || ", 1);
    });
  };
  if (major > 0) {
    e.spark_major = major;
    e.spark_minor = minor;
    e.version_inferred = true;
  } else if (spark2_logic() || (exchanges > 0 && bare_exchanges == exchanges &&
                                  (plan.format == InputFormat::ExplainDefault ||
                                   plan.format == InputFormat::ExplainExtended))) {
    // Spark 2.x prints `Exchange hashpartitioning(k#1, 200)` with no plan id and no shuffle origin,
    // and And / Or as `&&` / `||`.
    e.spark_major = 2;
    e.version_inferred = true;
  }
}

// Comet's explain annotation on an operator it did not run: `Project [COMET: <reason>]`.
constexpr std::string_view kCometFallbackNote = "[COMET: ";

// The reason of the note at `p` in `text`; whether it is not empty.
bool take_comet_fallback_reason(Operator& op, std::string_view text, std::size_t p) {
  p += kCometFallbackNote.size();
  int depth = 1;
  std::size_t e = p;
  for (; e < text.size() && depth > 0; ++e) {
    if (text[e] == '[') ++depth;
    else if (text[e] == ']') --depth;
  }
  std::string_view reason = text.substr(p, depth == 0 ? e - 1 - p : text.size() - p);
  while (!reason.empty() && reason.back() == ' ') reason.remove_suffix(1);
  op.facts.edit().fallback_reason = std::string(reason);  // OutOfLine: allocated only here
  return !reason.empty();
}

void fill_comet_fallback_reason(Operator& op) {
  // The label, the arguments, then each field, up to the first note with a reason. The note is
  // found through its 'M' (list values start with '[', and memchr would stop at every one).
  // Most texts hold none: the search is inline, and a text inside one that held no note (the
  // arguments of a default-mode label, the Arguments field that is the formatted-mode
  // arguments) is not searched again.
  auto note = [](std::string_view t) { return find_via(t, kCometFallbackNote, 3); };
  constexpr std::size_t npos = std::string_view::npos;
  const std::size_t in_label = note(op.label);
  if (in_label != npos && take_comet_fallback_reason(op, op.label, in_label)) return;
  const bool label_clear = in_label == npos;
  bool args_clear = label_clear && lies_within(op.arguments, op.label);
  if (!args_clear) {
    const std::size_t in_args = note(op.arguments);
    if (in_args != npos && take_comet_fallback_reason(op, op.arguments, in_args)) return;
    args_clear = in_args == npos;
  }
  for (const Field& f : op.fields) {
    if ((args_clear && lies_within(f.value, op.arguments)) || (label_clear && lies_within(f.value, op.label))) continue;
    const std::size_t p = note(f.value);
    if (p != npos && take_comet_fallback_reason(op, f.value, p)) return;
  }
}

}  // namespace

ExplainFillHints explain_fill_hints(std::string_view text, bool rewritten) {
  ExplainFillHints h;
  if (rewritten) return h;
  // Each through a rare byte of it (the 'M', the 'X', the '=').
  h.comet_notes = contains_via(text, kCometFallbackNote, 3);
  h.executor_broadcast = contains_via(text, kExecutorBroadcast, 1);
  h.plan_ids = contains_via(text, kPlanIdTag, 8);
  return h;
}

void fill_explain_facts(Plan& plan, const ExplainFillHints& hints) {
  fill_photon_explanation_facts(plan.photon);
  {
    // The operators' facts (OutOfLine parts, their lists) live in the plan's store, not a heap block each.
    const BlockScope blocks(plan.text_store());
    for (Operator& op : plan.ops) {
      for (Field& f : op.fields) {
        if (const FieldRole* role = explain_field_role(f.key)) f.role = *role;
        // Spark prints the cut as "... N more fields", which makes the field truncated
        // (finish_field): only such fields are searched, "more fields" found through "fields"
        // ('f' is far rarer than 'm' in plan text).
        if (f.truncated && contains_via(f.value, "more fields", 5)) f.more_fields = true;
      }
      fill_operator_name_facts(op);
      fill_partitioning(op, hints);
      fill_shuffle_read(op);
      if (scan_kind(op.kind)) fill_scan(plan.text_store(), op);
      if (op.name.starts_with("Comet")) {
        plan.facts.engine.comet = true;
        op.facts.edit().comet = true;
      }
      if (hints.comet_notes) fill_comet_fallback_reason(op);
    }
  }
  infer_version(plan, hints);
  derive_common_facts(plan);
  if (plan.facts.engine.photon) plan.facts.engine.databricks = true;
}

}  // namespace planlint
