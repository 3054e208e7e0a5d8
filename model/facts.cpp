#include "model/facts.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

#include "model/expr_util.hpp"
#include "model/plan.hpp"
#include "support/byte_scan.hpp"

namespace planlint {

std::string_view to_string(FieldRole r) {
  switch (r) {
    case FieldRole::None: return "none";
    case FieldRole::Output: return "output";
    case FieldRole::Input: return "input";
    case FieldRole::ReadSchema: return "read-schema";
    case FieldRole::DataColumns: return "data-columns";
    case FieldRole::Location: return "location";
    case FieldRole::PushedFilters: return "pushed-filters";
    case FieldRole::DataFilters: return "data-filters";
    case FieldRole::RequiredDataFilters: return "required-data-filters";
    case FieldRole::OptionalDataFilters: return "optional-data-filters";
    case FieldRole::DictionaryFilters: return "dictionary-filters";
    case FieldRole::PartitionFilters: return "partition-filters";
    case FieldRole::ScanFilters: return "scan-filters";
    case FieldRole::Condition: return "condition";
    case FieldRole::LeftKeys: return "left-keys";
    case FieldRole::RightKeys: return "right-keys";
    case FieldRole::JoinCondition: return "join-condition";
    case FieldRole::GroupingKeys: return "grouping-keys";
    case FieldRole::Arguments: return "arguments";
    case FieldRole::Partitioning: return "partitioning";
    case FieldRole::Clustering: return "clustering";
    case FieldRole::TableIdentifier: return "table-identifier";
  }
  return "none";
}

std::string_view to_string(ScanSource s) {
  switch (s) {
    case ScanSource::Unknown: return "unknown";
    case ScanSource::File: return "file";
    case ScanSource::Delta: return "delta";
    case ScanSource::Iceberg: return "iceberg";
    case ScanSource::Hive: return "hive";
    case ScanSource::Jdbc: return "jdbc";
    case ScanSource::Cassandra: return "cassandra";
    case ScanSource::DataSourceV2: return "dsv2";
    case ScanSource::Cache: return "cache";
    case ScanSource::Local: return "local";
  }
  return "unknown";
}

std::string_view to_string(UdfKind k) {
  switch (k) {
    case UdfKind::None: return "none";
    case UdfKind::PythonRow: return "python";
    case UdfKind::PythonArrow: return "python-arrow";
    case UdfKind::Pandas: return "pandas";
    case UdfKind::Jvm: return "jvm";
  }
  return "none";
}

std::string_view to_string(HintKind k) {
  switch (k) {
    case HintKind::Other: return "other";
    case HintKind::Broadcast: return "broadcast";
    case HintKind::ShuffleHash: return "shuffle_hash";
    case HintKind::Merge: return "merge";
    case HintKind::ShuffleReplicateNl: return "shuffle_replicate_nl";
  }
  return "other";
}

HintKind hint_kind(std::string_view name) {
  std::string n;
  for (char c : name) n += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (n == "BROADCAST" || n == "BROADCASTJOIN" || n == "MAPJOIN") return HintKind::Broadcast;
  if (n == "SHUFFLE_HASH") return HintKind::ShuffleHash;
  if (n == "MERGE" || n == "SHUFFLE_MERGE" || n == "MERGEJOIN") return HintKind::Merge;
  if (n == "SHUFFLE_REPLICATE_NL") return HintKind::ShuffleReplicateNl;
  return HintKind::Other;
}

bool ScanFacts::has_min_max_stats() const {
  switch (source) {
    case ScanSource::Delta:
    case ScanSource::Iceberg:
      return true;
    case ScanSource::File:
    case ScanSource::Hive:
      return format == "parquet" || format == "orc" || format == "delta";
    default:
      return false;
  }
}

namespace {
// The name part of a printed column: blanks around it and its `#id` dropped.
bool space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }  // std::isspace in the C locale
std::string_view trim_blanks(std::string_view s) {
  // Most texts (every column name a key is made of) start and end in no blank; every blank is a
  // byte <= ' ', so two tests tell (31,748 calls over the golden plans).
  if (!s.empty() && static_cast<unsigned char>(s.front()) > ' ' && static_cast<unsigned char>(s.back()) > ' ') return s;
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}
std::string_view column_name(std::string_view name) {
  name = trim_blanks(name);
  if (auto h = name.find('#'); h != std::string_view::npos) name = name.substr(0, h);
  return name;
}

// The key of a name as usually printed (no quotes, nothing to lower-case): the last dotted
// segment up to the '#', found in one pass (this runs for every simple predicate and every column
// of every scan). nullopt: the name needs the general case of column_key.
std::optional<std::string_view> plain_key(std::string_view name) {
  std::string_view n = trim_blanks(name);
  std::size_t after_dot = 0;
  // The byte at i, which is no lower-case letter or '_': false when it ends the look (a '#': `n`
  // cut there; or a quote or an upper-case letter: `general` set).
  bool general = false;
  auto look = [&](std::size_t i, char c) __attribute__((always_inline)) {
    if (c == '#') {
      n = n.substr(0, i);
      return false;
    }
    if (c == '`' || c == '"' || (c >= 'A' && c <= 'Z')) return !(general = true);
    if (c == '.') after_dot = i + 1;
    return true;
  };
  std::size_t i = 0;
#if defined(__SSE2__)
  // Sixteen bytes at a time where there are that many (names of 16 bytes or more: most columns
  // with their `#id`): only the bytes that are no lower-case letter or '_' are looked at, in
  // order; the rest of a name is one last block that overlaps the one before (a byte looked at
  // again acts as it did the first time, so its bit needs no clearing).
  if (n.size() >= 16) {
    auto block = [&](std::size_t base) __attribute__((always_inline)) {
      // The bytes the loop below would not skip (name_stops16: the same test, a block at once).
      for (unsigned m = name_stops16(n.data() + base); m != 0; m &= m - 1) {
        const std::size_t at = base + static_cast<unsigned>(__builtin_ctz(m));
        if (!look(at, n[at])) return false;
      }
      return true;
    };
    bool go = true;
    for (; go && i + 16 <= n.size(); i += 16) go = block(i);
    if (go && i < n.size()) block(n.size() - 16);
    i = n.size();  // looked at whole (or cut at its '#'): the loop below has nothing left
  } else if (n.size() >= 4) {
    // Four to fifteen bytes (most names with their `#id`: `ss_item_sk#12`): the name copied into a
    // block of 'a's (no stop) with two loads of eight bytes, or four, that overlap where the name
    // is shorter than twice that (each byte lands at its own offset), then read as one block.
    // The byte loop below cost about five instructions a byte.
    alignas(16) char padded[16];
    std::memset(padded, 'a', sizeof padded);
    const char* const d = n.data();
    const std::size_t size = n.size();
    if (size >= 8) {  // constant sizes: a move each, no call
      std::memcpy(padded, d, 8);
      std::memcpy(padded + size - 8, d + size - 8, 8);
    } else {
      std::memcpy(padded, d, 4);
      std::memcpy(padded + size - 4, d + size - 4, 4);
    }
    for (unsigned m = name_stops16(padded) & ((1u << n.size()) - 1); m != 0; m &= m - 1) {
      const std::size_t at = static_cast<unsigned>(__builtin_ctz(m));
      if (!look(at, n[at])) break;
    }
    i = n.size();
  }
#endif
  for (; i < n.size(); ++i) {
    const char c = n[i];
    if (c > '`' || c == '_') continue;  // lower-case letters and '_': most bytes of most names
    if (!look(i, c)) break;
  }
  if (general) return std::nullopt;
  return n.substr(after_dot);
}

}  // namespace

std::optional<std::string_view> column_key_view(std::string_view name) { return plain_key(name); }

std::string column_key(std::string_view name) {
  if (auto key = plain_key(name)) return std::string(*key);
  name = column_name(name);
  // Without quotes, the last dotted segment, lower-cased; one pass, one allocation at most. Written
  // through a pointer (a `+=` per byte checks the capacity each time: this runs for every predicate).
  std::string s(name.size(), '\0');
  char* const begin = s.data();
  char* w = begin;
  for (char c : name) {
    if (c == '`' || c == '"') continue;
    if (c == '.') w = begin;
    else *w++ = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;  // ASCII, as in the C locale
  }
  s.resize(static_cast<std::size_t>(w - begin));
  return s;
}

Text column_key(TextStore& store, Text name) {
  const auto key = plain_key(name);
  if (!key) return store.keep(column_key(column_name(name)));
  // A part of a Text is as stable as the Text: a view, with no look-up in the store.
  return key->empty() ? Text{} : Text::stable(*key);
}

namespace {

bool untrusted(const Field& f) {
  if (f.truncated || f.count_mismatch) return true;
  return std::any_of(f.exprs.begin(), f.exprs.end(), [](const ParsedExpr& e) { return e.truncated; });
}

// Top-level names of a `struct<a:int,b:struct<...>>` schema. `columns`: how many there likely
// are (room for them in one block).
std::optional<ColumnSet> schema_columns(TextStore& store, Text v, std::size_t columns) {
  v = Text::stable(trim_blanks(v));
  if (v.substr(0, 7) != "struct<") return std::nullopt;
  v = v.sub(7);
  ColumnSet out;
  out.reserve(columns);
  int depth = 0;
  std::size_t start = 0;
  bool in_name = true;
  for (std::size_t i = 0; i < v.size(); ++i) {
    char c = v[i];
    // Every byte this loop acts on lies in '(' .. '>': letters, '_' and the rest skip the tests.
    if (static_cast<unsigned char>(c - '(') > '>' - '(') continue;
    if (c == '<' || c == '(') ++depth;
    else if (c == '>' || c == ')') {
      if (depth == 0) break;
      --depth;
    } else if (depth == 0 && c == ':' && in_name) {
      out.add(column_key(store, v.sub(start, i - start)));
      in_name = false;
    } else if (depth == 0 && c == ',') {
      start = i + 1;
      in_name = true;
    }
  }
  out.finish();
  return out;
}

// fn(a) for each Attribute node of `e`, in collect_attributes' order (pre-order, left to right),
// through a work list kept per thread: no two vectors a call (every partition filter of every
// scan asks). `fn` must not call each_attribute.
template <class Fn>
void each_attribute(const Expr& e, Fn&& fn) {
  thread_local std::vector<const Expr*> todo;
  todo.clear();
  todo.push_back(&e);
  while (!todo.empty()) {
    const Expr* x = todo.back();
    todo.pop_back();
    if (x->kind == ExprKind::Attribute) fn(*x);
    for (auto it = x->args.rbegin(); it != x->args.rend(); ++it) todo.push_back(&*it);
  }
}

}  // namespace

void derive_common_facts(Plan& plan) {
  // The operators' facts this loop edits (OutOfLine parts) live in the plan's store, as those of
  // the fact passes before it, not a heap block each.
  {
    const BlockScope blocks(plan.text_store());
    for (Operator& op : plan.ops) {
      if (op.engine == Engine::Photon) plan.facts.engine.photon = true;
      if (op.engine == Engine::Gluten) plan.facts.engine.gluten = true;
      if (op.engine == Engine::Gpu) plan.facts.engine.gpu = true;
      if (op.kind == OpKind::AdaptivePlan || op.kind == OpKind::QueryStage || op.kind == OpKind::ShuffleRead)
        plan.facts.aqe = true;
      if (op.facts->streaming) plan.facts.streaming = true;
      if (op.kind == OpKind::Join) {
        bool cond = !op.left_keys().empty() || !op.right_keys().empty();
        if (!cond && op.join_condition()) {
          std::string_view t = trim_blanks(op.join_condition()->text);
          cond = !(t.empty() || (t.size() == 4 && std::tolower(static_cast<unsigned char>(t[0])) == 'n' &&
                                 std::tolower(static_cast<unsigned char>(t[1])) == 'o' &&
                                 std::tolower(static_cast<unsigned char>(t[2])) == 'n' &&
                                 std::tolower(static_cast<unsigned char>(t[3])) == 'e'));
        }
        if (cond) op.facts.edit().join_has_condition = true;
      }
      if (op.kind == OpKind::Aggregate && !op.facts->global_aggregate) {
        if (const Field* keys = op.field(FieldRole::GroupingKeys))
          if (keys->item_spans.empty() && (keys->value.empty() || keys->value == "[]"))
            op.facts.edit().global_aggregate = true;
      }
      if (op.kind != OpKind::Scan && op.kind != OpKind::InMemoryScan && !op.scan) continue;
      if (!op.scan) op.scan = SharedPart<ScanFacts>::make();
      ScanFacts& sc = *op.scan;
      if (const Field* f = op.field(FieldRole::DataColumns); f && f->is_list) {
        ColumnSet out;
        out.reserve(f->item_spans.size());
        for (std::string_view i : f->items()) out.add(column_key(plan.text_store(), Text::stable(i)));
        out.finish();
        sc.data_columns = std::move(out);
        sc.data_columns_truncated = untrusted(*f);
      } else if (const Field* r = op.field(FieldRole::ReadSchema)) {
        // A scan usually outputs the columns it reads: its Output list's length is the room to take.
        const Field* out = op.field(FieldRole::Output);
        sc.data_columns = schema_columns(plan.text_store(), r->value, out ? out->item_spans.size() : 0);
        sc.data_columns_truncated = untrusted(*r);
      }
      if (sc.format.empty()) {
        for (char c : op.scan_format()) sc.format += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
      for (const Field& f : op.fields) {
        switch (f.role) {
          case FieldRole::Output:
            sc.output_columns.reserve(f.item_spans.size());
            for (std::string_view i : f.items()) sc.output_columns.add(column_key(plan.text_store(), Text::stable(i)));
            if (untrusted(f)) sc.output_truncated = true;
            break;
          case FieldRole::PartitionFilters:
            for (const ParsedExpr& pe : f.exprs)
              if (pe.root)
                each_attribute(*pe.root, [&](const Expr& a) {
                  sc.partition_columns.add(column_key(plan.text_store(), a.name));
                });
            break;
          case FieldRole::Location:
            if (untrusted(f) || f.value.find("...") != std::string::npos) sc.location_truncated = true;
            break;
          default:
            break;
        }
      }
      sc.output_columns.finish();
      sc.partition_columns.finish();
    }
  }
  // The creation side of a bloom-filter runtime filter: everything below an aggregate that builds
  // one (through the children; an AQE subquery's final and initial plans share their scan, so a
  // walk up from the scan would meet two parents).
  {
    std::vector<std::size_t> todo;
    for (const Operator& op : plan.ops)
      if (op.facts->runtime_filter_agg) todo.insert(todo.end(), op.children.begin(), op.children.end());
    while (!todo.empty()) {
      std::size_t i = todo.back();
      todo.pop_back();
      if (i >= plan.ops.size() || plan.ops[i].facts->runtime_filter_side) continue;
      plan.ops[i].facts.edit().runtime_filter_side = true;
      todo.insert(todo.end(), plan.ops[i].children.begin(), plan.ops[i].children.end());
    }
  }
  // AQE final plan that collapsed to an empty local relation (every stage returned no rows, or the
  // optimizer proved the result empty at runtime): the initial plan's stages are what ran.
  {
    bool any_final = false, only_local = true, local = false;
    for (const Operator& op : plan.ops) {
      if (op.section != Section::AqeFinal && op.section != Section::AqeCurrent) continue;
      any_final = true;
      if (op.kind == OpKind::LocalData) local = true;
      switch (op.kind) {
        case OpKind::LocalData:
        case OpKind::AdaptivePlan:
        case OpKind::Transition:
        case OpKind::CodegenStage:
        case OpKind::Project:
        case OpKind::QueryStage:
        case OpKind::ShuffleRead:
        case OpKind::Limit:
        case OpKind::TopK:
        case OpKind::Sort:
          break;
        default:
          only_local = false;
      }
    }
    bool has_initial = std::any_of(plan.ops.begin(), plan.ops.end(), [](const Operator& o) {
      return o.section == Section::AqeInitial && o.kind == OpKind::Exchange;
    });
    plan.facts.final_plan_collapsed = any_final && only_local && local && has_initial;
  }
  if (!plan.query.sql_text.empty() && plan.facts.sql_hints.empty()) plan.facts.sql_hints = parse_sql_hints(plan.query.sql_text);
}

namespace {

bool keeps_id(std::string_view out) {
  // Every word ends in 'g' or 'y': most texts before a '#' (a column name) are rejected at once.
  if (out.empty() || (out.back() != 'g' && out.back() != 'y')) return false;
  for (std::string_view w : {"dynamicpruning", "subquery", "scalar-subquery", "ScalarSubquery"})
    if (out.size() >= w.size() && out.substr(out.size() - w.size()) == w) return true;
  return false;
}

}  // namespace

std::string without_ids(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  append_without_ids(out, s);
  return out;
}

void append_without_ids(std::string& out, std::string_view s) {
  // What this call wrote so far (the word before a '#' is judged on this text only).
  const std::size_t start = out.size();
  auto written = [&out, start] { return std::string_view(out).substr(start); };
  // The next '#' and the next '[' at or after i, each found with one search and searched again
  // only once passed.
  auto next = [&s](char c, std::size_t from) {
    std::size_t k = s.find(c, from);
    return k == std::string_view::npos ? s.size() : k;
  };
  std::size_t i = 0;
  std::size_t hash = next('#', 0);
  std::size_t bracket = next('[', 0);
  while (i < s.size()) {
    // Copy up to the next '#' or '[' in one piece.
    if (hash < i) hash = next('#', i);
    if (bracket < i) bracket = next('[', i);
    const std::size_t k = std::min(hash, bracket);
    out.append(s, i, k - i);
    i = k;
    if (i == s.size()) break;
    if (s[i] == '#' && !keeps_id(written())) {
      std::size_t j = i + 1;
      while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == 'x')) ++j;
      if (j < s.size() && s[j] == 'L') ++j;
      if (j > i + 1) {
        i = j;
        continue;
      }
    }
    if (s[i] == '[' && (s.compare(i, 4, "[id=") == 0 || s.compare(i, 9, "[plan_id=") == 0)) {
      auto close = s.find(']', i);
      if (close != std::string_view::npos) {
        i = close + 1;
        continue;
      }
    }
    out += s[i];
    ++i;
  }
}

std::vector<SqlHint> parse_sql_hints(std::string_view s) {
  std::vector<SqlHint> out;
  std::size_t pos = 0;
  while ((pos = s.find("/*+", pos)) != std::string_view::npos) {
    std::size_t end = s.find("*/", pos + 3);
    if (end == std::string_view::npos) break;
    std::string_view body = s.substr(pos + 3, end - pos - 3);
    pos = end + 2;
    std::size_t i = 0;
    while (i < body.size()) {
      while (i < body.size() && (std::isspace(static_cast<unsigned char>(body[i])) || body[i] == ',')) ++i;
      std::size_t ns = i;
      while (i < body.size() && (std::isalnum(static_cast<unsigned char>(body[i])) || body[i] == '_')) ++i;
      if (i == ns) {
        ++i;
        continue;
      }
      SqlHint h;
      for (char c : body.substr(ns, i - ns)) h.name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      h.kind = hint_kind(h.name);
      while (i < body.size() && std::isspace(static_cast<unsigned char>(body[i]))) ++i;
      if (i < body.size() && body[i] == '(') {
        std::size_t close = body.find(')', i);
        if (close == std::string_view::npos) close = body.size();
        std::string_view args = body.substr(i + 1, close - i - 1);
        std::size_t a = 0;
        while (a <= args.size()) {
          std::size_t c = args.find(',', a);
          if (c == std::string_view::npos) c = args.size();
          auto arg = trim_blanks(args.substr(a, c - a));
          if (!arg.empty()) h.args.emplace_back(arg);
          a = c + 1;
        }
        i = close + 1;
      }
      out.push_back(std::move(h));
    }
  }
  return out;
}

}  // namespace planlint
