// The default mode's one-line operator arguments turned into the Fields the formatted mode
// prints (explain_ops.hpp: describe_default_node, LineLocator): FileScan metadata, a Filter's
// condition, a Project's list, aggregate keys and functions, join keys, type and condition,
// Arguments.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "parser/common/classify.hpp"
#include "parser/explain/explain_ops.hpp"
#include "support/strings.hpp"

namespace planlint::explain {

SourceRange LineLocator::of(std::string_view piece) const { return of(piece, piece); }

SourceRange LineLocator::of(std::string_view first, std::string_view last) const {
  const char* b = line.data();
  const char* e = b + line.size();
  auto inside = [&](const char* p) { return p >= b && p <= e; };
  if (!norm || !inside(first.data()) || !inside(last.data() + last.size())) {
    return norm ? norm->range(index, 0, line.size()) : SourceRange{};
  }
  return norm->range(index, static_cast<std::size_t>(first.data() - b),
                     static_cast<std::size_t>(last.data() + last.size() - b));
}

namespace {

// Spark prints a plan argument that is one bare attribute by its simpleString, type included: a
// filter on a Python UDF's result reads `Filter pythonUDF0#81: boolean` (AttributeReference's
// simpleString is `name#id: type`, from Spark 2.x to 4.x: corpus/real/106, corpus/live/*/
// filter_python_udf). A condition (a filter's, a join's: an Option printed the same way) is
// boolean, so only that type is taken off; anything else is left for the expression reader.
std::string_view without_attribute_type(std::string_view cond) {
  constexpr std::string_view kSuffix = ": boolean";
  if (!cond.ends_with(kSuffix)) return cond;
  const std::string_view attr = cond.substr(0, cond.size() - kSuffix.size());
  const std::size_t hash = attr.rfind('#');
  if (hash == std::string_view::npos || hash == 0 || hash + 1 >= attr.size()) return cond;
  for (std::size_t i = hash + 1; i < attr.size(); ++i)
    if (attr[i] < '0' || attr[i] > '9') return cond;
  for (std::size_t i = 0; i < hash; ++i)
    if (attr[i] == ' ' || attr[i] == '(' || attr[i] == ')' || attr[i] == ',') return cond;
  return attr;
}

// `key` may be a literal (synthetic key) or a view into the line; the range covers the key when
// it is in the line, else the value.
Field make_field(TextStore& st, std::string_view key, std::string_view value, const LineLocator& at, std::vector<ParseMessage>& msgs) {
  Field f;
  f.key = st.keep(key);
  value = trim_spaces(value);
  f.value = st.keep(value);
  bool key_in_line = key.data() >= at.line.data() && key.data() < at.line.data() + at.line.size();
  const SourceRange field_at = at.of(key_in_line ? key : value, value);
  f.loc = field_at;
  finish_field(st, f, msgs, field_at, at.of(value));
  return f;
}

// "Batched: true, DataFilters: [...], Format: Parquet, Location: ..." -> key/value pairs. Splits at
// ", Key: " regardless of bracket depth, because values cut with "..." leave brackets open.
void split_metadata(TextStore& st, Operator& op, std::string_view s, const LineLocator& loc, std::vector<ParseMessage>& msgs) {
  auto is_key_at = [&](std::size_t i, std::size_t& key_end) {
    if (i >= s.size() || s[i] < 'A' || s[i] > 'Z') return false;
    std::size_t j = i;
    while (j < s.size() && std::isalnum(static_cast<unsigned char>(s[j]))) ++j;
    if (j + 1 >= s.size() || s[j] != ':' || s[j + 1] != ' ') return false;
    key_end = j;
    return true;
  };
  std::size_t key_end = 0;
  std::size_t start = 0;
  while (start < s.size() && !is_key_at(start, key_end)) {
    std::size_t n = s.find(' ', start);
    if (n == std::string_view::npos) return;
    start = n + 1;
  }
  while (start < s.size()) {
    std::string_view key = s.substr(start, key_end - start);
    std::size_t vstart = key_end + 2;
    std::size_t next = std::string_view::npos;
    std::size_t next_key_end = 0;
    for (std::size_t p = s.find(", ", vstart); p != std::string_view::npos; p = s.find(", ", p + 1)) {
      if (is_key_at(p + 2, next_key_end)) {
        next = p;
        break;
      }
    }
    // BatchScan: "ReadSchema: struct<...> RuntimeFilters: []" has no comma before the last key.
    std::string_view value = s.substr(vstart, next == std::string_view::npos ? std::string_view::npos : next - vstart);
    op.fields.push_back(make_field(st, key, value, loc, msgs));
    if (next == std::string_view::npos) break;
    start = next + 2;
    key_end = next_key_end;
  }
}

bool is_bool(std::string_view s) { return s == "true" || s == "false"; }

// A scan's (or local / in-memory relation's) arguments: `[columns]` as Output, then the metadata
// (a scan) or the rest as Arguments.
void default_scan_fields(TextStore& st, Operator& op, std::string_view args, const LineLocator& loc,
                         std::vector<ParseMessage>& msgs) {
  std::string_view rest = args;
  if (!rest.empty() && rest.front() == '[') {
    std::size_t close = match_close(rest, 0);
    std::string_view cols = close == std::string_view::npos ? rest : rest.substr(0, close + 1);
    Field f = make_field(st, "Output", cols, loc, msgs);
    // FileScan prints columns joined by "," without a space.
    if (f.is_list && f.item_spans.size() == 1 && cols.find(',') != std::string_view::npos) {
      f.item_spans.clear();
      std::string_view v = f.value;  // make_field trims `cols`: split the field's own copy
      for (auto it : split_top_level(v.substr(1, v.size() - 2), ",")) f.add_item(it);
    }
    op.fields.push_back(std::move(f));
    rest = close == std::string_view::npos ? std::string_view{} : trim_spaces(rest.substr(close + 1));
  }
  if (op.kind == OpKind::Scan && !rest.empty()) split_metadata(st, op, rest, loc, msgs);
  else if (!rest.empty()) op.fields.push_back(make_field(st, "Arguments", rest, loc, msgs));
  apply_fields(st, op);
}

// A join's arguments: `[left keys], [right keys], type, build side, condition, skew flag`.
void default_join_fields(TextStore& st, Operator& op, std::string_view args, const LineLocator& loc,
                         std::vector<ParseMessage>& msgs) {
  auto items = split_top_level(args);
  std::size_t i = 0;
  if (i < items.size() && items[i].starts_with("[")) op.fields.push_back(make_field(st, "Left keys", items[i++], loc, msgs));
  if (i < items.size() && items[i].starts_with("[")) op.fields.push_back(make_field(st, "Right keys", items[i++], loc, msgs));
  bool have_cond = false;
  for (; i < items.size(); ++i) {
    std::string_view it = trim_spaces(items[i]);
    if (it == "BuildLeft") op.join.edit().build = BuildSide::Left;
    else if (it == "BuildRight") op.join.edit().build = BuildSide::Right;
    else if (is_bool(it)) {
      if (it == "true" && i + 1 == items.size() &&
          (op.join->strategy == JoinStrategy::SortMerge || op.join->strategy == JoinStrategy::ShuffledHash))
        op.join.edit().skew = true;
    } else if (it == "isSkew=true") op.join.edit().skew = true;
    else if ((op.join->type == JoinType::None) && parse_join_type(it) != JoinType::Unknown) {
      op.join.edit().type = parse_join_type(it);
      op.join.edit().type_text = st.keep(it);
      op.fields.push_back(make_field(st, "Join type", it, loc, msgs));
    } else if (op.join->type == JoinType::None && it.starts_with("ExistenceJoin(")) {
      op.join.edit().type = JoinType::ExistenceJoin;
      op.join.edit().type_text = st.keep(it);
      op.fields.push_back(make_field(st, "Join type", it, loc, msgs));
    } else if (!have_cond) {
      have_cond = true;
      op.fields.push_back(make_field(st, "Join condition", without_attribute_type(it), loc, msgs));
    }
  }
  if (!have_cond) op.fields.push_back(make_field(st, "Join condition", "None", loc, msgs));
  apply_fields(st, op);
}

}  // namespace

void describe_default_node(TextStore& st, Operator& op, std::string_view text, const LineLocator& loc,
                           std::vector<ParseMessage>& msgs) {
  text = trim_spaces(text);
  const Text kept = st.keep(text);
  // A part of the line as a part of the kept text (no second copy). `text` stays the line: the
  // fields below locate their pieces in it.
  auto part = [&](std::string_view p) { return kept.sub(static_cast<std::size_t>(p.data() - text.data()), p.size()); };
  // Name: up to the first space, '[' or '('; "FileScan fmt table", "Scan <rel>", "BatchScan <t>",
  // "Execute <Cmd>" keep more words.
  std::size_t end = text.find_first_of(" [(");
  if (end == std::string_view::npos) end = text.size();
  std::string_view first = text.substr(0, end);
  std::string_view name = first;
  std::string_view args;
  // RAPIDS and Comet scans print as FileScan does: "GpuFileGpuScan parquet [cols] ...",
  // "CometScan parquet db.t[cols] ...".
  const bool vendor_scan = first == "GpuFileGpuScan" || first == "GpuScan" || first == "GpuBatchScan" ||
                           first == "CometScan" || first == "CometNativeScan";
  if (first == "FileScan" || first == "Scan" || first == "BatchScan" || first.starts_with("PhotonScan") ||
      first == "Execute" || vendor_scan) {
    std::size_t b = text.find('[');
    std::size_t sp = text.find(' ', end + 1);
    std::size_t stop = std::min(b, text.size());
    if (first == "Execute") stop = std::min(sp, text.size());
    if (first == "Scan" && (text.starts_with("Scan ExistingRDD") || text.starts_with("Scan OneRowRelation")))
      stop = std::min(b, text.size());
    // A relation's own options print in brackets before the output, as part of its name:
    // "Scan JDBCRelation(EVENTS) [numPartitions=1] [name#18] PushedFilters: ..." (the formatted
    // mode's name is "Scan JDBCRelation(EVENTS) [numPartitions=1]"). Such a bracket holds
    // `key=value` and no attribute, and another bracket follows it.
    if (first == "Scan")
      while (stop < text.size() && text[stop] == '[') {
        std::size_t close = match_close(text, stop);
        if (close == std::string_view::npos) break;
        std::string_view inside = text.substr(stop + 1, close - stop - 1);
        std::string_view after = trim_spaces(text.substr(close + 1));
        if (inside.find('=') == std::string_view::npos || inside.find('#') != std::string_view::npos ||
            !after.starts_with('['))
          break;
        stop = static_cast<std::size_t>(after.data() - text.data());
      }
    name = trim_spaces(text.substr(0, stop));
    args = trim_spaces(text.substr(stop));
  } else {
    // "SortMergeJoin(skew=true) [a], [b], Inner" keeps the skew marker with the name.
    if (end < text.size() && text[end] == '(' && text.substr(end).starts_with("(skew=true)")) end += 11;
    name = text.substr(0, end);
    args = trim_spaces(text.substr(end));
  }
  describe_operator(st, op, part(name), {});
  op.label = kept;
  op.arguments = args.empty() ? Text{} : part(args);
  if (args.empty()) return;

  if (op.kind == OpKind::Scan || op.kind == OpKind::LocalData || op.kind == OpKind::InMemoryScan) {
    default_scan_fields(st, op, args, loc, msgs);
    return;
  }
  if (op.kind == OpKind::Filter) {
    // Comet prints the output before the condition (`CometFilter [a#6], cond`), RAPIDS a flag
    // after it (`GpuFilter gpuisnotnull(id#0L), true`): the condition is what is left.
    std::string_view cond = args;
    if (op.name.starts_with("Comet") && cond.starts_with('['))
      if (std::size_t c = match_close(cond, 0); c != std::string_view::npos && cond.substr(c + 1).starts_with(", "))
        cond = trim_spaces(cond.substr(c + 2));
    if (op.engine == Engine::Gpu)
      for (std::string_view flag : {", true", ", false"})
        if (cond.ends_with(flag)) cond.remove_suffix(flag.size());
    cond = without_attribute_type(cond);
    op.fields.push_back(make_field(st, "Condition", cond, loc, msgs));
    return;
  }
  if (op.kind == OpKind::Project) {
    op.fields.push_back(make_field(st, "Output", args, loc, msgs));
    return;
  }
  if (op.kind == OpKind::Join) {
    default_join_fields(st, op, args, loc, msgs);
    return;
  }
  if (args.front() == '(' && op.kind == OpKind::Aggregate) {
    // HashAggregate(keys=[..], functions=[..], output=[..])
    std::size_t close = match_close(args, 0);
    std::string_view inner = args.substr(1, (close == std::string_view::npos ? args.size() : close) - 1);
    for (auto kv : split_top_level(inner)) {
      std::size_t eq = kv.find('=');
      if (eq == std::string_view::npos) continue;
      std::string_view k = kv.substr(0, eq);
      std::string_view key = k == "keys" ? "Keys" : k == "functions" ? "Functions" : k == "output" ? "Results" : k;
      op.fields.push_back(make_field(st, key, kv.substr(eq + 1), loc, msgs));
    }
    return;
  }
  if (op.kind == OpKind::ReusedExchange) {
    auto items = split_top_level(args);
    if (!items.empty() && items[0].starts_with("[")) op.fields.push_back(make_field(st, "Output", items[0], loc, msgs));
  }
  op.fields.push_back(make_field(st, "Arguments", args, loc, msgs));
}

}  // namespace planlint::explain
