// Operator-name facts shared by the readers whose nodes carry Spark's operator names (explain
// text, event-log plans, Query Profiles): Python UDF evaluators, streaming operators, Coalesce,
// result stages, logical joins, pass-through projections, bloom-filter aggregates, Photon reasons.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "parser/common/facts_fill.hpp"
#include "support/byte_scan.hpp"
#include "support/name_cache.hpp"
#include "support/text_search.hpp"
#include "model/plan_walk.hpp"

namespace planlint {

namespace {

// `s` contains `lower` (lower-case ASCII) ignoring the case of `s`.
bool contains_lower(std::string_view s, std::string_view lower) {
  const char first = lower.front();  // compare the first byte before the rest
  for (std::size_t i = 0; i + lower.size() <= s.size(); ++i)
    if (ascii_lower(s[i]) == first && iequals(s.substr(i, lower.size()), lower)) return true;
  return false;
}

bool bare_attribute(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  // The name bytes from the front: the first other byte must be the '#' of the id ('#' is not a
  // name byte, and the id after it holds none, so it is also the last '#'). One pass, no search
  // from the back.
  // The bytes of an attribute's name: ASCII letters, digits, '_', '.' and '`'.
  std::size_t h = word_run_end<'_', '.', '`'>(s.data(), 0, s.size());
  if (h == 0 || h == s.size() || s[h] != '#') return false;
  // ASCII classes inline (std::isalnum / isdigit in the C locale).
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  std::string_view id = s.substr(h + 1);
  if (!id.empty() && id.back() == 'L') id.remove_suffix(1);
  if (id.empty()) return false;
  return std::all_of(id.begin(), id.end(), [&](char c) { return digit(c) || c == 'x'; });
}

// A Project whose list is only attributes: `Project [a#1, b#2]` / `Output [2]: [a#1, b#2]`.
bool passes_columns(const Operator& op) {
  if (op.kind != OpKind::Project) return false;
  if (const Field* f = op.field(FieldRole::Output); f && f->is_list && !f->count_mismatch && !f->truncated) {
    const FieldItems list = f->items();
    if (list.begin() == list.end()) return false;
    return std::all_of(list.begin(), list.end(), [](std::string_view i) { return bare_attribute(i); });
  }
  std::string_view a = op.arguments;
  if (a.size() < 2 || a.front() != '[' || a.back() != ']') return false;
  a = a.substr(1, a.size() - 2);
  // The top-level items, each checked as it is cut (there is always at least one).
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= a.size(); ++i) {
    if (i == a.size() || (a[i] == ',' && depth == 0)) {
      if (!bare_attribute(a.substr(start, i - start))) return false;
      start = i + 1;
    } else if (a[i] == '(' || a[i] == '[') {
      ++depth;
    } else if (a[i] == ')' || a[i] == ']') {
      --depth;
    }
  }
  return true;
}

// What an operator's name alone says: the answers of the name tests of fill_operator_name_facts.
struct NameFacts {
  bool row_to_columnar = false;  // a transition into a native engine's columnar batches
  bool streaming = false;        // a stateful streaming operator's name
  bool coalesce = false;         // the base name is Coalesce
  bool result_stage = false;     // the name holds ResultQueryStage
  UdfKind python = UdfKind::Pandas;  // the UDF kind a PythonEval operator of this base name has
};

NameFacts name_facts_uncached(std::string_view name) {
  NameFacts nf;
  // The bytes of the name, in one pass: a word whose bytes are not all there is not searched for.
  ByteSet bytes;
  for (char c : name) bytes.add(c);
  // The base name (up to the first ' ' or '[').
  std::size_t e = 0;
  while (e < name.size() && name[e] != ' ' && name[e] != '[') ++e;
  const std::string_view base = name.substr(0, e);

  // "sparktocolumnar" holds "columnar": most names are ruled out by that one test. ColumnarToRow
  // (one above every Spark scan) holds it but none of the other words. Comet's
  // CometSparkColumnarToColumnar turns a JVM scan's Spark batches into Arrow ones for Comet.
  static constexpr ByteSet kColumnar("columnar");
  if (bytes.may_contain_folded(kColumnar)) {
    if (base != "ColumnarToRow" && contains_lower(base, "columnar") &&
        (contains_lower(base, "rowto") || contains_lower(base, "sparktocolumnar") ||
         contains_lower(base, "columnartocolumnar")))
      nf.row_to_columnar = true;
    // Comet's JVM columnar shuffle takes Spark rows and writes Arrow batches for Comet above it.
    if (base == "CometColumnarExchange") nf.row_to_columnar = true;
  }
  if (base == "BatchEvalPython" || base == "BatchEvalPythonUDTF") nf.python = UdfKind::PythonRow;
  else if (base == "ArrowEvalPython" || base == "ArrowEvalPythonUDTF" || base == "ColumnarArrowEvalPython")
    nf.python = UdfKind::PythonArrow;
  // Every streaming name holds "State", "Stream", "MicroBatch" or "Watermark": most names are
  // ruled out by four short searches instead of eight.
  static constexpr ByteSet kStat("Stat"), kStream("Stream"), kMicroBatch("MicroBatch"), kWatermark("Watermark");
  if ((bytes.may_contain(kStat) && contains(name, "Stat")) || (bytes.may_contain(kStream) && contains(name, "Stream")) ||
      (bytes.may_contain(kMicroBatch) && contains(name, "MicroBatch")) ||
      (bytes.may_contain(kWatermark) && contains(name, "Watermark")))
    for (std::string_view w : {"StateStore", "StreamingSymmetricHashJoin", "MicroBatch", "StreamingDeduplicate",
                               "EventTimeWatermark", "FlatMapGroupsWithState", "TransformWithState",
                               "StreamingGlobalLimit"})
      if (contains(name, w)) nf.streaming = true;
  nf.coalesce = base == "Coalesce";
  nf.result_stage = contains(name, "ResultQueryStage");
  return nf;
}

// Per thread, by name (support/name_cache.hpp): the byte set of the name and the base cut cost
// ~130 instructions an operator.
NameFacts name_facts(std::string_view name) { return cached_by_name<NameFacts, 55, name_facts_uncached>(name); }

}  // namespace

void fill_operator_name_facts(Operator& op) {
  const NameFacts nf = name_facts(op.name);
  if (nf.row_to_columnar) op.facts.edit().row_to_columnar = true;
  if (op.kind == OpKind::PythonEval) {
    op.facts.edit().udf.edit().kind = nf.python;
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
          op.facts.edit().udf.edit().calls = std::move(t);
          break;
        }
      }
    }
  }
  if (nf.streaming) op.facts.edit().streaming = true;
  if (nf.coalesce) {
    bool one = op.arguments == "1" || contains(op.label, "Coalesce 1");
    if (const Field* f = op.field(FieldRole::Arguments); f && f->value == "1") one = true;
    op.facts.edit().partitioning.kind = PartitioningKind::Coalesce;
    if (one) {
      op.facts.edit().partitioning.partitions = 1;
      op.facts.edit().partitioning.single = true;
    }
  }
  if (op.kind == OpKind::QueryStage && nf.result_stage) op.facts.edit().result_stage = true;
  if ((op.logical || op.kind == OpKind::Logical) && op.name == "Join") op.facts.edit().logical_join = true;
  if (op.kind == OpKind::Aggregate && op.name == "PhotonAgg") op.facts.edit().global_aggregate = true;
  if (op.kind == OpKind::Aggregate) {
    // A text inside one searched already (the arguments of a default-mode label, the Arguments
    // field that is op.arguments in formatted mode) is not searched again.
    constexpr std::string_view kBloom = "bloom_filter_agg";
    bool bloom = contains(op.label, kBloom) || (!lies_within(op.arguments, op.label) && contains(op.arguments, kBloom));
    for (const Field& f : op.fields)
      bloom = bloom || (!lies_within(f.value, op.label) && !lies_within(f.value, op.arguments) && contains(f.value, kBloom));
    if (bloom) op.facts.edit().runtime_filter_agg = true;
  }
  if (passes_columns(op)) op.facts.edit().passes_columns = true;
  if (op.hints().present())
    for (Hint& h : op.edit_runtime().hints.edit()) h.kind = hint_kind(h.strategy);
}

void fill_photon_explanation_facts(PhotonExplanation& pe) {
  for (const std::string& r : pe.reasons) {
    std::string l;
    for (char c : r) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (contains(l, "python")) pe.python_udf = true;
    if (contains(l, "udf")) pe.udf = true;
  }
}

void fill_facts_for_format(Plan& plan) {
  switch (plan.format) {
    case InputFormat::QueryProfile:
      fill_profile_facts(plan);
      break;
    case InputFormat::EventLog:
    case InputFormat::HistoryServer:
      fill_explain_facts(plan);
      fill_eventlog_facts(plan, "");
      break;
    default:
      fill_explain_facts(plan);
      break;
  }
}

}  // namespace planlint
