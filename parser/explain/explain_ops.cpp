#include "parser/explain/explain_ops.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "parser/common/classify.hpp"
#include "parser/expression/expression.hpp"
#include "support/text_search.hpp"
#include "support/strings.hpp"

namespace planlint::explain {

namespace {


// Index of the bracket closing the one at `open`, or npos.
std::size_t match_close(std::string_view s, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    char c = s[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) return i;
    }
  }
  return std::string_view::npos;
}

struct ExprKey {
  std::string_view key;
  ExprDialect dialect;
};
constexpr ExprKey kExprKeys[] = {
    {"Condition", ExprDialect::Catalyst},         {"PushedFilters", ExprDialect::PushedFilter},
    {"DataFilters", ExprDialect::Catalyst},       {"PartitionFilters", ExprDialect::Catalyst},
    {"RequiredDataFilters", ExprDialect::Catalyst}, {"OptionalDataFilters", ExprDialect::Catalyst},
    {"DictionaryFilters", ExprDialect::Catalyst}, {"Left keys", ExprDialect::Catalyst},
    {"Right keys", ExprDialect::Catalyst},        {"Join condition", ExprDialect::Catalyst},
    {"Keys", ExprDialect::Catalyst},
};

// `offset`: where `text` starts inside f.value; `value_at`: where f.value starts in the input.
// `maybe_cut`: the whole value holds "..." or "paths)[" (else no part of it can be cut).
void parse_into(TextStore& st, Field& f, std::string_view text, std::size_t offset, ExprDialect d, std::vector<ParseMessage>& msgs,
                const SourceRange& value_at, bool maybe_cut) {
  ParsedExpr e = parse_expression(st, Text::stable(text), d);  // `text` is a part of f.value
  if (!e.root && !e.error.empty() && e.error != "expression parser not available") {
    // One warning per field is enough to point at the text.
    bool seen = false;
    for (const auto& x : f.exprs) seen = seen || (!x.root && !x.error.empty());
    if (!seen) {
      SourceRange at = f.loc;
      std::size_t pos = offset + std::min<std::size_t>(e.error_offset, text.size());
      if (value_at.known() && f.value.find('\n') >= pos) {
        at.line = at.end_line = value_at.line;
        at.column = value_at.column + static_cast<std::uint32_t>(pos);
        at.end_column = at.column + 1;
      }
      msgs.push_back({MessageSeverity::Warning, at, "could not parse expression in '" + f.key + "': " + e.error});
    }
  }
  if (maybe_cut && is_truncated_value(text)) e.truncated = true;
  f.exprs.push_back(std::move(e));
}

}  // namespace

std::vector<std::string_view> split_top_level(std::string_view s, std::string_view sep) {
  std::vector<std::string_view> out;
  split_top_level(s, sep, out);
  return out;
}

namespace {

// Bytes split_top_level must look at: brackets and the separator's first byte.
struct SplitBytes {
  std::uint8_t cls[256] = {};  // 1 opens, 2 closes, 3 is the separator's first byte, 0 anything else
  char sep0;
  explicit SplitBytes(char s0) : sep0(s0) {
    for (unsigned char c : {'(', '[', '{'}) cls[c] = 1;
    for (unsigned char c : {')', ']', '}'}) cls[c] = 2;
    cls[static_cast<unsigned char>(s0)] = 3;
  }
  // Index of the first byte at or after i that is not 0 in cls, or n. Sixteen bytes at a time
  // where SSE2 is there (list values are long and mostly plain text).
  std::size_t next(const char* d, std::size_t i, std::size_t n) const {
#if defined(__SSE2__)
    const __m128i o1 = _mm_set1_epi8('('), o2 = _mm_set1_epi8('['), o3 = _mm_set1_epi8('{');
    const __m128i c1 = _mm_set1_epi8(')'), c2 = _mm_set1_epi8(']'), c3 = _mm_set1_epi8('}');
    const __m128i sp = _mm_set1_epi8(sep0);
    for (; i + 16 <= n; i += 16) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(d + i));
      const __m128i hit = _mm_or_si128(
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, o1), _mm_cmpeq_epi8(x, o2)),
                       _mm_or_si128(_mm_cmpeq_epi8(x, o3), _mm_cmpeq_epi8(x, c1))),
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, c2), _mm_cmpeq_epi8(x, c3)), _mm_cmpeq_epi8(x, sp)));
      const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
      if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(mask));
    }
#endif
    while (i < n && cls[static_cast<unsigned char>(d[i])] == 0) ++i;
    return i;
  }
};

}  // namespace

void split_top_level(std::string_view s, std::string_view sep, std::vector<std::string_view>& out) {
  out.clear();
  if (s.empty() || sep.empty()) return;
  const char s0 = sep[0];
  const bool two = sep.size() == 2;
  const char s1 = two ? sep[1] : '\0';
  const std::size_t n = s.size();
  const char* d = s.data();
  const SplitBytes bytes(s0);
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = bytes.next(d, 0, n); i < n; i = bytes.next(d, i + 1, n)) {
    const char c = d[i];
    const std::uint8_t k = bytes.cls[static_cast<unsigned char>(c)];
    if (k == 1) {
      ++depth;
      continue;
    }
    if (k == 2) {
      depth = depth > 0 ? depth - 1 : 0;
      continue;
    }
    if (c != s0 || depth != 0) continue;
    if (two && (i + 1 >= n || d[i + 1] != s1)) continue;
    const std::size_t next = i + sep.size();
    // "Subquery scalar-subquery#2, [id=#3]" is one expression.
    if (next + 5 <= n && d[next] == '[' && d[next + 1] == 'i' && d[next + 2] == 'd' && d[next + 3] == '=' &&
        d[next + 4] == '#')
      continue;
    out.push_back(s.substr(start, i - start));
    start = next;
    i = next - 1;
  }
  out.push_back(s.substr(start));
}

CutMarks scan_cut_marks(std::string_view v, bool file_index) {
  CutMarks r;
  // "...", "...]" at the end (tested in place: this runs on every field value).
  const std::size_t n = v.size();
  if (n >= 3 && v[n - 1] == '.' && v[n - 2] == '.' && v[n - 3] == '.') return {true, true};
  if (n >= 4 && v[n - 1] == ']' && v[n - 2] == '.' && v[n - 3] == '.' && v[n - 4] == '.') return {true, true};
  // "... 12 more fields", "... 3 entries]": every "..." is looked at once (it also answers
  // `marks`, which callers would otherwise search the value again for).
  for (std::size_t p = v.find("..."); p != std::string_view::npos; p = v.find("...", p + 1)) {
    r.marks = true;
    if (p + 3 >= n || v[p + 3] != ' ') continue;
    std::size_t i = p + 4;
    const std::size_t b = i;
    while (i < n && is_digit(v[i])) ++i;
    if (i == b) continue;
    const std::string_view tail = v.substr(i);
    if (tail.starts_with(" more") || tail.starts_with(" entries]")) return {true, true};
  }
  // InMemoryFileIndex(3 paths)[p1, p2, ...]: fewer paths listed than there are.
  // Searched without its leading blank: memchr on 'p' stops far less often than on ' '. Still
  // one memchr call per 'p' (a common byte in plan text): other fields skip it.
  if (!file_index) return r;
  for (std::size_t q = v.find("paths)["); q != std::string_view::npos; q = v.find("paths)[", q + 7)) {
    r.marks = true;
    if (q == 0 || v[q - 1] != ' ') continue;
    const std::size_t p = q - 1;
    std::size_t b = p;
    while (b > 0 && is_digit(v[b - 1])) --b;
    if (b == p || b == 0 || v[b - 1] != '(') continue;
    std::size_t k = 0;
    for (std::size_t i = b; i < p; ++i) k = k * 10 + static_cast<std::size_t>(v[i] - '0');
    std::size_t open = p + 7;
    std::size_t close = match_close(v, open);
    if (close == std::string_view::npos) return {true, true};
    if (split_top_level(v.substr(open + 1, close - open - 1)).size() < k) return {true, true};
  }
  return r;
}

bool is_truncated_value(std::string_view v) { return scan_cut_marks(v).truncated; }

void describe_operator(TextStore& st, Operator& op, std::string_view label, std::string_view header_name) {
  op.label = st.keep(trim_spaces(label));
  label = op.label;  // the parts below are views into the kept label
  // A part of the kept label is already kept: view it (keep() would test the store's blocks
  // again for each of the name, the table and the format).
  auto keep_part = [&](std::string_view part) -> Text {
    if (part.empty()) return {};
    return lies_within(part, label) ? Text::stable(part) : st.keep(part);
  };
  std::string_view first = label.substr(0, label.find(' '));
  std::string_view rest = first.size() < label.size() ? trim_spaces(label.substr(first.size())) : std::string_view{};
  // "SortMergeJoin(skew=true)", "ShuffledHashJoin(skew=true)".
  std::string_view base = first;
  if (auto p = base.find('('); p != std::string_view::npos && p > 0) {
    if (base.find("skew=true") != std::string_view::npos) op.join.edit().skew = true;
    base = base.substr(0, p);
  }
  Classification c = classify_operator(base);
  if (c.kind == OpKind::Join) {
    op.name = keep_part(header_name.empty() ? base : trim_spaces(header_name));
    op.kind = c.kind;
    op.engine = c.engine;
    op.join.edit().strategy = c.strategy;
    // "<JoinType> [BuildLeft|BuildRight]"; the type can hold parentheses: ExistenceJoin(exists#1).
    thread_local std::vector<std::string_view> parts;  // describe_operator is not re-entered
    split_top_level(rest, " ", parts);
    for (auto p : parts) {
      p = trim_spaces(p);
      if (p.empty()) continue;
      if (p == "BuildLeft") op.join.edit().build = BuildSide::Left;
      else if (p == "BuildRight") op.join.edit().build = BuildSide::Right;
      else if (op.join->type == JoinType::None) {
        op.join.edit().type = parse_join_type(p);
        op.join.edit().type_text = std::string(p);
      }
    }
    return;
  }
  std::string_view name = header_name.empty() ? label : trim_spaces(header_name);
  op.name = keep_part(name);
  if (name != base) c = classify_operator(name);
  op.kind = c.kind;
  op.engine = c.engine;
  if (c.kind == OpKind::Scan || c.kind == OpKind::InMemoryScan) {
    // "Scan parquet db.t", "PhotonScan parquet t", "FileScan parquet db.t", "BatchScan t",
    // "Scan JDBCRelation(t) [numPartitions=1]", "Scan In-memory table t".
    thread_local std::vector<std::string_view> words;
    split_top_level(name, " ", words);
    std::string_view w0 = words.empty() ? std::string_view{} : words[0];
    if (name.starts_with("Scan In-memory table ")) {
      op.table = keep_part(trim_spaces(name.substr(21)));
    } else if (w0 == "BatchScan") {
      if (words.size() >= 2) op.table = keep_part(trim_spaces(name.substr(10)));
    } else if (words.size() >= 2 && (w0 == "Scan" || w0 == "FileScan" || w0.starts_with("PhotonScan") ||
                                     w0.ends_with("Transformer"))) {
      std::string_view fmt = words[1];
      if (fmt.starts_with("JDBCRelation(")) {
        op.scan_format = "jdbc";
        std::size_t close = match_close(fmt, 12);
        if (close != std::string_view::npos) op.table = keep_part(fmt.substr(13, close - 13));
      } else if (fmt != "ExistingRDD" && fmt != "OneRowRelation") {
        op.scan_format = keep_part(fmt);
        std::size_t pos = static_cast<std::size_t>(fmt.data() + fmt.size() - name.data());
        std::string_view t = trim_spaces(name.substr(pos));
        if (auto b = t.find('['); b != std::string_view::npos && w0 == "FileScan") t = t.substr(0, b);
        op.table = keep_part(t);
      }
    }
  }
}

void finish_field(TextStore& st, Field& f, std::vector<ParseMessage>& msgs, const SourceRange& value_at) {
  const BlockScope blocks(st);  // item spans and parsed expressions: the field's plan's store
  std::string_view v = f.value;
  // Spark prints a file index, `InMemoryFileIndex(3 paths)[...]`, only as a scan's Location.
  const CutMarks cut = scan_cut_marks(v, f.key == "Location");
  f.truncated = cut.truncated;
  thread_local std::vector<std::string_view> parts;
  parts.clear();
  if (v.size() >= 2 && v.front() == '[' && v.back() == ']' && v.find('\n') == std::string_view::npos) {
    std::string_view inner = v.substr(1, v.size() - 2);
    f.is_list = true;
    f.item_spans.clear();
    if (!inner.empty()) {
      split_top_level(inner, ", ", parts);
      f.item_spans.reserve(parts.size());
      for (auto it : parts) f.add_item(it);  // views into f.value (v)
    }
    if (f.count && *f.count != f.item_spans.size()) f.count_mismatch = true;
  } else if (f.count) {
    // `Key [N]: text` whose value is not a bracketed list.
    f.count_mismatch = *f.count != 0;
  }
  for (const auto& k : kExprKeys) {
    if (f.key != k.key) continue;
    if (f.is_list) {
      // `parts` are views into v (the field's kept value); parsing does not touch either.
      f.exprs.reserve(f.exprs.size() + parts.size());  // one block, not one per growth step
      const bool maybe_cut = cut.marks;  // (a truncated value has marks too)
      for (std::string_view it : parts)
        parse_into(st, f, it, static_cast<std::size_t>(it.data() - v.data()), k.dialect, msgs, value_at, maybe_cut);
    } else if (!v.empty() && v != "None") {
      parse_into(st, f, v, 0, k.dialect, msgs, value_at, true);
    }
    break;
  }
}

void apply_fields(TextStore& st, Operator& op) {
  for (const Field& f : op.fields) {
    if (f.key == "Arguments" && op.arguments.empty()) op.arguments = f.value;
    if (op.kind != OpKind::Join) continue;
    if (f.key == "Left keys") op.join.edit().left_keys = f.exprs;
    else if (f.key == "Right keys") op.join.edit().right_keys = f.exprs;
    else if (f.key == "Join condition" && !f.exprs.empty()) op.join.edit().condition = f.exprs.front();
    else if (f.key == "Join type" && (op.join->type == JoinType::None || op.join->type == JoinType::Unknown)) {
      op.join.edit().type = parse_join_type(f.value);
      op.join.edit().type_text = f.value.str();
    }
  }
  if ((op.kind == OpKind::Scan) && op.scan_format.empty()) {
    if (const Field* f = op.field("Format")) {
      std::string format(f->value);
      std::transform(format.begin(), format.end(), format.begin(),
                     [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
      op.scan_format = st.keep(format);
    }
  }
}

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

// `key` may be a literal (synthetic key) or a view into the line; the range covers the key when
// it is in the line, else the value.
Field make_field(TextStore& st, std::string_view key, std::string_view value, const LineLocator& at, std::vector<ParseMessage>& msgs) {
  Field f;
  f.key = st.keep(key);
  value = trim_spaces(value);
  f.value = st.keep(value);
  bool key_in_line = key.data() >= at.line.data() && key.data() < at.line.data() + at.line.size();
  f.loc = at.of(key_in_line ? key : value, value);
  finish_field(st, f, msgs, at.of(value));
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
  if (first == "FileScan" || first == "Scan" || first == "BatchScan" || first.starts_with("PhotonScan") ||
      first == "Execute") {
    std::size_t b = text.find('[');
    std::size_t sp = text.find(' ', end + 1);
    std::size_t stop = std::min(b, text.size());
    if (first == "Execute") stop = std::min(sp, text.size());
    if (first == "Scan" && (text.starts_with("Scan ExistingRDD") || text.starts_with("Scan OneRowRelation")))
      stop = std::min(b, text.size());
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
    op.fields.push_back(make_field(st, "Condition", cond, loc, msgs));
    return;
  }
  if (op.kind == OpKind::Project) {
    op.fields.push_back(make_field(st, "Output", args, loc, msgs));
    return;
  }
  if (op.kind == OpKind::Join) {
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
        op.join.edit().type_text = std::string(it);
        op.fields.push_back(make_field(st, "Join type", it, loc, msgs));
      } else if (op.join->type == JoinType::None && it.starts_with("ExistenceJoin(")) {
        op.join.edit().type = JoinType::ExistenceJoin;
        op.join.edit().type_text = std::string(it);
        op.fields.push_back(make_field(st, "Join type", it, loc, msgs));
      } else if (!have_cond) {
        have_cond = true;
        op.fields.push_back(make_field(st, "Join condition", it, loc, msgs));
      }
    }
    if (!have_cond) op.fields.push_back(make_field(st, "Join condition", "None", loc, msgs));
    apply_fields(st, op);
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

void describe_logical_node(TextStore& st, Operator& op, std::string_view text, SourceRange loc) {
  op.label = st.keep(trim_spaces(text));
  text = op.label;  // the parts below are views into the kept label
  std::string_view t = text;
  while (!t.empty() && (t.front() == '\'' || t.front() == '!')) t.remove_prefix(1);
  std::size_t end = t.find_first_of(" [(");
  if (end == std::string_view::npos) end = t.size();
  op.name = st.keep(t.substr(0, end));
  op.logical = true;
  op.kind = OpKind::Logical;
  op.arguments = st.keep(trim_spaces(t.substr(end)));
  std::string_view args = op.arguments;
  auto add_hint = [&](std::string_view strategy, BuildSide side) {
    Hint h;
    h.strategy = std::string(strategy);
    h.side = side;
    h.loc = loc;
    op.hints.edit().push_back(std::move(h));
  };
  // "(strategy=broadcast)" / "strategy=shuffle_hash" -> "broadcast".
  auto strategy_of = [](std::string_view s) {
    std::size_t p = s.find("strategy=");
    if (p == std::string_view::npos) return std::string_view{};
    s = s.substr(p + 9);
    std::size_t e = s.find_first_of(",) ");
    return s.substr(0, e);
  };
  if (op.name == "ResolvedHint") {
    if (auto s = strategy_of(args); !s.empty()) add_hint(s, BuildSide::None);
  } else if (op.name == "UnresolvedHint") {
    std::string_view s = args.substr(0, args.find(','));
    if (!s.empty()) add_hint(trim_spaces(s), BuildSide::None);
  } else if (op.name == "Join") {
    for (auto part : split_top_level(args)) {
      part = trim_spaces(part);
      if (part.starts_with("leftHint=")) {
        if (auto s = strategy_of(part); !s.empty()) add_hint(s, BuildSide::Left);
      } else if (part.starts_with("rightHint=")) {
        if (auto s = strategy_of(part); !s.empty()) add_hint(s, BuildSide::Right);
      } else if (op.join->type == JoinType::None && parse_join_type(part) != JoinType::Unknown) {
        op.join.edit().type = parse_join_type(part);
        op.join.edit().type_text = std::string(part);
      } else if (op.join->type == JoinType::None && part.starts_with("ExistenceJoin(")) {
        op.join.edit().type = JoinType::ExistenceJoin;
        op.join.edit().type_text = std::string(part);
      }
    }
  }
  if (op.name == "Relation" || op.name == "LogicalRelation") {
    // "Relation spark_catalog.db.t[a#1,b#2] parquet"
    std::size_t b = args.find('[');
    op.table = st.keep(trim_spaces(args.substr(0, b)));
    if (b != std::string_view::npos) {
      std::size_t close = match_close(args, b);
      if (close != std::string_view::npos) {
        std::string_view fmt = trim_spaces(args.substr(close + 1));
        if (!fmt.empty() && fmt.find(' ') == std::string_view::npos) op.scan_format = st.keep(fmt);
      }
    }
  }
}

}  // namespace planlint::explain
