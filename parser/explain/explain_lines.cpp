// Actions for grammar/explain.hpp: fill small structs of views into the current line.
#include "parser/explain/explain_lines.hpp"

#include <charconv>
#include <cstdlib>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define PLANLINT_LEAD_AVX2 1
#endif

#include "grammar/explain.hpp"
#include "support/strings.hpp"

namespace planlint::explain {

namespace g = grammar::explain;
namespace pegtl = tao::pegtl;

namespace {

using Input = pegtl::memory_input<pegtl::tracking_mode::lazy, pegtl::eol::lf_crlf, const char*>;

Input make_input(std::string_view line) { return Input(line.data(), line.data() + line.size(), "line"); }

std::uint32_t col_of(const char* begin, const char* p) { return static_cast<std::uint32_t>(p - begin); }

int to_int(std::string_view s) {
  int v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

// The action of a rule whose whole match is stored, as a view, in one member of the line struct.
template <auto Member>
struct store_view {
  template <typename In, typename State>
  static void apply(const In& in, State& st) {
    st.out->*Member = in.string_view();
  }
};

// ---- tree lines ----

struct TreeState {
  const char* begin;
  TreeLine* out;
};

template <typename Rule>
struct tree_action : pegtl::nothing<Rule> {};

template <>
struct tree_action<g::lead> {
  template <typename In>
  static void apply(const In& in, TreeState& st) {
    st.out->column = col_of(st.begin, in.end());
    st.out->label_column = st.out->column;
    // The lead holds blanks, `:` guides and connectors: a '-' is there only as part of `+- ` / `:- `.
    st.out->connector = in.string_view().find('-') != std::string_view::npos;
  }
};
template <>
struct tree_action<g::codegen_marker> {
  template <typename In>
  static void apply(const In& in, TreeState& st) {
    st.out->codegen = in.string_view().front() != '!';  // `!Name`: an invalid node, not codegen
    st.out->label_column = col_of(st.begin, in.end());
  }
};
template <>
struct tree_action<g::codegen_stage> {
  template <typename In>
  static void apply(const In& in, TreeState& st) { st.out->codegen_stage = to_int(in.string_view()); }
};
template <>
struct tree_action<g::node_label> : store_view<&TreeLine::label> {};
template <>
struct tree_action<g::plain_label> : store_view<&TreeLine::label> {};
template <>
struct tree_action<g::outline_id> : store_view<&TreeLine::id> {};
template <>
struct tree_action<g::stats_body> {
  template <typename In>
  static void apply(const In& in, TreeState& st) {
    st.out->stats = in.string_view();
    st.out->has_stats = true;
  }
};
template <>
struct tree_action<g::columnar_suffix> {
  template <typename In>
  static void apply(const In& in, TreeState& st) {
    auto s = in.string_view();
    st.out->columnar = s.substr(1);
  }
};

// Formatted line without must<> (for detection) and with it (for the error message).
struct formatted_tree_line_try
    : pegtl::seq<g::lead, pegtl::opt<g::codegen_marker>, g::node_label, g::node_tail> {};

// ---- detail blocks ----

struct HeaderState {
  BlockHeader* out;
};
template <typename Rule>
struct header_action : pegtl::nothing<Rule> {};
template <>
struct header_action<g::block_id> : store_view<&BlockHeader::id> {};
template <>
struct header_action<g::block_name> {
  template <typename In>
  static void apply(const In& in, HeaderState& st) { st.out->name = rtrim_blank(in.string_view()); }
};
template <>
struct header_action<g::block_codegen> {
  template <typename In>
  static void apply(const In& in, HeaderState& st) { st.out->codegen_stage = to_int(in.string_view()); }
};
template <>
struct header_action<g::block_reuses> {
  template <typename In>
  static void apply(const In& in, HeaderState& st) {
    st.out->reuses = in.string_view();
    st.out->has_reuses = true;
  }
};

struct FieldState {
  const char* begin;
  FieldLine* out;
};
template <typename Rule>
struct field_action : pegtl::nothing<Rule> {};
template <>
struct field_action<g::field_key> : store_view<&FieldLine::key> {};
template <>
struct field_action<g::condition_key> : store_view<&FieldLine::key> {};
template <>
struct field_action<g::field_count> {
  template <typename In>
  static void apply(const In& in, FieldState& st) {
    std::size_t v = 0;
    auto s = in.string_view();
    std::from_chars(s.data(), s.data() + s.size(), v);
    st.out->count = v;
  }
};
template <>
struct field_action<g::field_value> {
  template <typename In>
  static void apply(const In& in, FieldState& st) {
    st.out->value = in.string_view();
    st.out->value_column = col_of(st.begin, in.begin());
  }
};

// ---- subquery lines ----
struct SubqueryState {
  const char* begin;
  SubqueryLine* out;
};
template <typename Rule>
struct subquery_action : pegtl::nothing<Rule> {};
template <>
struct subquery_action<g::subquery_number> {
  template <typename In>
  static void apply(const In& in, SubqueryState& st) { st.out->number = to_int(in.string_view()); }
};
template <>
struct subquery_action<g::hosting_id> {
  template <typename In>
  static void apply(const In& in, SubqueryState& st) { st.out->hosting_id = in.string_view(); }
};
template <>
struct subquery_action<g::hosting_expression> {
  template <typename In>
  static void apply(const In& in, SubqueryState& st) {
    st.out->expression = in.string_view();
    st.out->expression_column = col_of(st.begin, in.begin());
  }
};

// ---- statistics ----
struct StatsState {
  StatsValues* out;
  std::string_view key;
};
template <typename Rule>
struct stats_action : pegtl::nothing<Rule> {};
template <>
struct stats_action<g::stat_key> {
  template <typename In>
  static void apply(const In& in, StatsState& st) { st.key = in.string_view(); }
};

// "240.0 B", "1024.0 KiB", "8.0 EiB", "1.23E+6".
std::optional<double> parse_number_with_unit(std::string_view v) {
  while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  v = rtrim_blank(v);
  if (v.empty()) return std::nullopt;
  std::string tmp(v);
  char* end = nullptr;
  double d = std::strtod(tmp.c_str(), &end);
  if (end == tmp.c_str()) return std::nullopt;
  std::string_view unit(end);
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  static constexpr std::pair<std::string_view, double> kUnits[] = {
      {"", 1.0},
      {"B", 1.0},
      {"KiB", 1024.0},
      {"MiB", 1024.0 * 1024},
      {"GiB", 1024.0 * 1024 * 1024},
      {"TiB", 1024.0 * 1024 * 1024 * 1024},
      {"PiB", 1024.0 * 1024 * 1024 * 1024 * 1024},
      {"EiB", 1024.0 * 1024 * 1024 * 1024 * 1024 * 1024},
  };
  for (const auto& [u, m] : kUnits)
    if (unit == u) return d * m;
  return std::nullopt;
}

template <>
struct stats_action<g::stat_value> {
  template <typename In>
  static void apply(const In& in, StatsState& st) {
    if (st.key == "sizeInBytes")
      st.out->size_bytes = parse_number_with_unit(in.string_view());
    else if (st.key == "rowCount")
      st.out->row_count = parse_number_with_unit(in.string_view());
  }
};
template <>
struct stats_action<g::stat_masked> {
  template <typename In>
  static void apply(const In&, StatsState& st) { st.out->masked = true; }
};

}  // namespace

namespace {

#if defined(PLANLINT_LEAD_AVX2)
// Where g::lead ends on a line of 32 bytes or more, 32 bytes at a time (AVX2). The lead is blanks,
// connectors `+- ` / `:- ` and guides `:` before a blank; it ends at the first byte that starts
// none of them. A byte is part of a lead whose bytes before it all are when it is a blank, a '+'
// followed by "- ", a ':' followed by ' ' or "- ", or a '-' after a '+' or ':' and before a blank
// (a '-' is only ever a connector's middle, '+' and ':' only a part's first byte, so these tests
// find the parts where the grammar's left-to-right reading does). A block of 32 bytes decides its
// bytes up to the 30th (the tests look two bytes ahead); the next block starts one byte before the
// first byte not decided yet (a '-' looks one byte back), and the last block ends at the line's
// end, where a test that would look past it fails, as the grammar's does.
// `*has_dash`: whether the lead holds a '-' (a connector: the grammar's lead action searches for one).
[[gnu::target("avx2")]] std::size_t lead_end32(const char* p, std::size_t n, bool* has_dash) {
  const __m256i blank = _mm256_set1_epi8(' '), colon = _mm256_set1_epi8(':');
  const __m256i plus = _mm256_set1_epi8('+'), dash = _mm256_set1_epi8('-');
  std::size_t b = 0;
  unsigned from = ~0u;  // the bits of the block not decided by the one before it
  unsigned dashes = 0;  // the lead's dashes seen (bits of their blocks, or'ed)
  for (;;) {
    const bool last = b + 32 >= n;
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + b));
    const auto sp = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, blank)));
    const auto co = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, colon)));
    const auto pl = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, plus)));
    const auto da = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, dash)));
    const unsigned rest = (da >> 1) & (sp >> 2);  // "- " follows
    const unsigned part = sp | (pl & rest) | (co & ((sp >> 1) | rest)) | (da & ((pl | co) << 1) & (sp >> 1));
    const unsigned decided = last ? from : from & 0x3FFFFFFFu;
    if (const unsigned stop = ~part & decided) {
      *has_dash = (dashes | (da & decided & (stop - 1) & ~stop)) != 0;  // the dashes before the stop
      return b + static_cast<unsigned>(__builtin_ctz(stop));
    }
    dashes |= da & decided;
    if (last) {
      *has_dash = dashes != 0;
      return n;
    }
    const std::size_t undecided = b + 30;
    b = undecided - 1 + 32 <= n ? undecided - 1 : n - 32;
    from = ~0u << (undecided - b);
  }
}

bool detect_lead_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}
#endif

// Where g::lead ends on `line` (the column of the node text); `*dash`: whether the lead holds a '-'.
std::size_t lead_end(std::string_view line, bool* dash) {
#if defined(PLANLINT_LEAD_AVX2)
  if (line.size() >= 32 && lead_wide) return lead_end32(line.data(), line.size(), dash);
#endif
  Input in = make_input(line);
  (void)g::lead::match(in);
  const auto end = static_cast<std::size_t>(in.current() - line.data());
  *dash = line.substr(0, end).find('-') != std::string_view::npos;  // as the lead action
  return end;
}

// The common outline line `<lead>[* ]<label> (<digits>)` read without the grammar (which parsed
// node_tail twice per line: once to find the label's end, once for the id). Exactly what
// formatted_tree_line_try reads, or false when the line has another shape (another marker, an id
// `unknown`, a suffix after the id) or may have: any earlier ` (` that could start a node_tail
// (followed by a digit or 'u'). The grammar reads those. It sets every member of `out` when it
// returns true, and none when it returns false.
bool match_common_tree_line(std::string_view line, TreeLine& out) {
  const std::size_t n = line.size();
  if (n < 4 || line[n - 1] != ')') return false;
  std::size_t d = n - 1;  // the id is [d, n - 1)
  while (d > 0 && is_digit(line[d - 1])) --d;
  if (d == n - 1 || d < 2 || line[d - 1] != '(' || line[d - 2] != ' ') return false;
  const std::size_t tail = d - 2;  // the ` (` of the id
  bool dash = false;
  const std::size_t column = lead_end(line, &dash);
  std::size_t label = column;
  bool codegen = false;
  if (column < n) {
    const char c = line[column];
    if (c == '*') {
      if (column + 1 >= n || line[column + 1] != ' ') return false;  // `*(n) `, `*Name`
      codegen = true;
      label = column + 2;
    } else if (c == '^' || c == '!') {
      return false;
    }
  }
  if (tail <= label) return false;
  // node_label ends at the first ` (` where node_tail matches: one before the id's can only if
  // an id follows it.
  for (std::size_t q = label + 1; q < tail;) {
    const void* hit = std::memchr(line.data() + q, '(', tail - q);
    if (hit == nullptr) break;
    q = static_cast<std::size_t>(static_cast<const char*>(hit) - line.data());
    if (line[q - 1] == ' ' && (is_digit(line[q + 1]) || line[q + 1] == 'u')) return false;
    ++q;
  }
  out.column = static_cast<std::uint32_t>(column);
  out.label_column = static_cast<std::uint32_t>(label);
  out.connector = dash;  // as the lead action
  out.codegen = codegen;
  out.codegen_stage.reset();
  out.label = line.substr(label, tail - label);
  out.id = line.substr(d, n - 1 - d);
  out.stats = {};
  out.has_stats = false;
  out.columnar = {};
  return true;
}

}  // namespace

bool match_formatted_tree_line_by_grammar(std::string_view line, TreeLine& out) {
  out = TreeLine{};
  TreeState st{line.data(), &out};
  Input in = make_input(line);
  return pegtl::parse<formatted_tree_line_try, tree_action>(in, st);
}

bool match_formatted_tree_line(std::string_view line, TreeLine& out, LineError* err) {
  if (match_common_tree_line(line, out)) return true;  // (it sets every member)
  out = TreeLine{};
  TreeState st{line.data(), &out};
  {
    Input in = make_input(line);
    if (pegtl::parse<formatted_tree_line_try, tree_action>(in, st)) return true;
  }
  if (!err) return false;
  out = TreeLine{};
  try {
    Input in = make_input(line);
    if (pegtl::parse<g::formatted_tree_line, tree_action, g::control>(in, st)) return true;
    err->column = 0;
    err->message = "expected a tree line";
  } catch (const pegtl::parse_error& e) {
    const auto& pos = e.positions();
    err->column = pos.empty() ? 0 : static_cast<std::uint32_t>(pos.front().byte);
    err->message = std::string(e.message());
  }
  return false;
}

bool match_plain_tree_line(std::string_view line, TreeLine& out) {
  out = TreeLine{};
  TreeState st{line.data(), &out};
  Input in = make_input(line);
  return pegtl::parse<g::plain_tree_line, tree_action>(in, st);
}

bool match_aqe_header(std::string_view line, AqeTitle& title, std::uint32_t& column) {
  // Every AQE title ends the line with "Plan ==": tested first, it rules out a tree line without
  // searching it.
  if (!line.ends_with(" Plan ==")) return false;
  Input in = make_input(line);
  if (!pegtl::parse<g::aqe_header>(in)) return false;
  std::size_t p = line.find("+- ==");
  column = static_cast<std::uint32_t>(p);
  std::string_view t = line.substr(p + 6);
  title = t.substr(0, 5) == "Final" ? AqeTitle::Final : t.substr(0, 7) == "Current" ? AqeTitle::Current : AqeTitle::Initial;
  return true;
}

bool match_mode_header(std::string_view line, std::string_view& title) {
  if (line.size() < 7 || line.substr(0, 3) != "== ") return false;
  Input in = make_input(line);
  if (!pegtl::parse<g::mode_header>(in)) return false;
  title = line.substr(3, line.size() - 6);
  return true;
}

bool match_subqueries_marker(std::string_view line) {
  if (line.substr(0, 5) != "=====") return false;
  Input in = make_input(line);
  return pegtl::parse<g::subqueries_marker>(in);
}

bool match_optimized_out_marker(std::string_view line) {
  if (line.substr(0, 5) != "=====") return false;
  Input in = make_input(line);
  return pegtl::parse<g::optimized_out_marker>(in);
}

bool match_subplan_line(std::string_view line, int& number, LineError* err) {
  if (line.substr(0, 8) != "Subplan:") return false;
  try {
    Input in = make_input(line);
    pegtl::parse<g::subplan_line, pegtl::nothing, g::control>(in);
    number = to_int(line.substr(8));
    return true;
  } catch (const pegtl::parse_error& e) {
    if (err) {
      const auto& pos = e.positions();
      err->column = pos.empty() ? 0 : static_cast<std::uint32_t>(pos.front().byte);
      err->message = std::string(e.message());
    }
    return false;
  }
}

bool match_subquery_line(std::string_view line, SubqueryLine& out, LineError* err) {
  if (line.substr(0, 9) != "Subquery:") return false;
  out = SubqueryLine{};
  SubqueryState st{line.data(), &out};
  try {
    Input in = make_input(line);
    return pegtl::parse<g::subquery_line, subquery_action, g::control>(in, st);
  } catch (const pegtl::parse_error& e) {
    if (err) {
      const auto& pos = e.positions();
      err->column = pos.empty() ? 0 : static_cast<std::uint32_t>(pos.front().byte);
      err->message = std::string(e.message());
    }
    return false;
  }
}

namespace {

// The common detail block header `(<digits>) <name>[ [codegen id : <digits>]]` read without the
// grammar (which tried header_tail at each blank of the name and then once more). Exactly what
// block_header reads, or false for any other shape (a `[` that is not the codegen part, a reuses
// part, blanks or a tab at the end): the grammar reads those.
bool match_common_block_header(std::string_view line, BlockHeader& out) {
  const std::size_t n = line.size();
  std::size_t i = 1;
  while (i < n && is_digit(line[i])) ++i;
  if (i == 1 || i + 1 >= n || line[i] != ')' || line[i + 1] != ' ') return false;
  if (line[n - 1] == ' ' || line[n - 1] == '\t') return false;
  const std::size_t name = i + 2;
  const void* hit = name < n ? std::memchr(line.data() + name, '[', n - name) : nullptr;
  if (hit == nullptr) {  // no part: header_tail matches only at the end
    out.id = line.substr(1, i - 1);
    out.name = line.substr(name);
    return true;
  }
  // The first `[` must open the codegen part, and the part must end the line.
  const auto br = static_cast<std::size_t>(static_cast<const char*>(hit) - line.data());
  constexpr std::string_view kCodegen = " [codegen id : ";
  if (br <= name || line.substr(br - 1, kCodegen.size()) != kCodegen) return false;
  std::size_t d = br - 1 + kCodegen.size(), e = d;
  while (e < n && is_digit(line[e])) ++e;
  if (e == d || e + 1 != n || line[e] != ']') return false;
  out.id = line.substr(1, i - 1);
  out.name = rtrim_blank(line.substr(name, br - 1 - name));
  out.codegen_stage = to_int(line.substr(d, e - d));
  return true;
}

}  // namespace

bool match_block_header_by_grammar(std::string_view line, BlockHeader& out) {
  if (line.size() < 4 || line[0] != '(') return false;
  out = BlockHeader{};
  HeaderState st{&out};
  Input in = make_input(line);
  return pegtl::parse<g::block_header, header_action>(in, st);
}

bool match_block_header(std::string_view line, BlockHeader& out) {
  if (line.size() < 4 || line[0] != '(') return false;
  out = BlockHeader{};
  if (match_common_block_header(line, out)) return true;
  out = BlockHeader{};
  HeaderState st{&out};
  Input in = make_input(line);
  return pegtl::parse<g::block_header, header_action>(in, st);
}

bool match_field_line_by_grammar(std::string_view line, FieldLine& out) {
  if (line.empty() || line[0] < 'A' || line[0] > 'Z') return false;
  out = FieldLine{};
  FieldState st{line.data(), &out};
  Input in = make_input(line);
  return pegtl::parse<g::field_line, field_action>(in, st);
}

// field_line read by hand, rule by rule (a detail line costs ~150 instructions in the grammar's
// calls, more than the bytes it reads): field_key, then counted_rest, plain_rest, masked_rest in
// the grammar's order, then condition_field. What each sets is what the grammar's actions set.
bool match_field_line(std::string_view line, FieldLine& out) {
  const std::size_t n = line.size();
  const char* const p = line.data();
  if (n == 0 || p[0] < 'A' || p[0] > 'Z') return false;
  // Every member but the count is set where it returns true (`take`), so only the count starts
  // over (a line's fields are read into the caller's FieldLine, just made).
  out.count.reset();
  // field_key: an upper-case letter, then letters, digits, `_`, and single blanks before a letter
  // or digit (g::field_key::match, the same loop).
  std::size_t i = 1;
#if defined(__SSE2__)
  // The first 16 bytes at once where the line holds them (a key is rarely longer): the loop below
  // starts at the first byte among p[1..15] that is no key byte and no blank before a letter or
  // digit (a blank in the last lane, whose next byte is not looked at here, is left to the loop),
  // else at p[16]. The loop would pass every byte before it in the same way: a byte it skips (the
  // letter or digit after a blank) is a key byte.
  if (n >= 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Bytes in [lo, hi]: moved so that lo is the smallest signed byte, then one signed compare.
    auto in_range = [](__m128i v, int lo, int hi) {
      const __m128i y = _mm_add_epi8(v, _mm_set1_epi8(static_cast<char>(-128 - lo)));
      return _mm_cmplt_epi8(y, _mm_set1_epi8(static_cast<char>(-128 + (hi - lo + 1))));
    };
    // Letters: with bit 0x20 set, 'a'..'z' (no other byte lands there).
    const unsigned alnum = static_cast<unsigned>(_mm_movemask_epi8(
        _mm_or_si128(in_range(_mm_or_si128(x, _mm_set1_epi8(0x20)), 'a', 'z'), in_range(x, '0', '9'))));
    const unsigned under = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('_'))));
    const unsigned blank = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(' '))));
    const unsigned stop = ~(alnum | under | (blank & (alnum >> 1))) & 0xFFFEu;
    i = stop != 0 ? static_cast<std::size_t>(__builtin_ctz(stop)) : 16;
  }
#endif
  while (i < n) {
    const char c = p[i];
    if (g::field_key::kClasses.of[static_cast<unsigned char>(c)] != 0) {
      i += 1;
    } else if (c == ' ' && i + 1 < n && g::field_key::alnum_char(p[i + 1])) {
      i += 2;
    } else {
      break;
    }
  }
  auto take = [&](std::size_t key_end, std::size_t value_at) {
    out.key = line.substr(0, key_end);
    out.value = line.substr(value_at);
    out.value_column = static_cast<std::uint32_t>(value_at);
    return true;
  };
  if (i < n && p[i] == ' ') {
    // counted_rest: ' ' '[' digits ']' ':' opt<' '> rest. The count's action runs once its
    // digits are read, whatever follows (the grammar's actions are not undone); no later
    // alternative can match after them (plain_rest needs ':' at i, masked_rest a 'n' after the
    // '[', condition_field ':' after "Condition ").
    if (i + 1 < n && p[i + 1] == '[') {
      std::size_t d = i + 2;
      while (d < n && p[d] >= '0' && p[d] <= '9') ++d;
      if (d > i + 2) {
        std::size_t v = 0;
        std::from_chars(p + i + 2, p + d, v);
        out.count = v;
        if (d + 1 < n && p[d] == ']' && p[d + 1] == ':') {
          std::size_t at = d + 2;
          if (at < n && p[at] == ' ') ++at;
          return take(i, at);
        }
        return false;
      }
      // masked_rest: at<' ', "[not included in comparison]">, ' ', rest.
      constexpr std::string_view kMasked = "[not included in comparison]";
      if (line.substr(i + 1).starts_with(kMasked)) return take(i, i + 1);
    }
  } else if (i < n && p[i] == ':') {
    // plain_rest: ':' sor<' ', eof> rest.
    if (i + 1 == n) return take(i, n);
    if (p[i + 1] == ' ') return take(i, i + 2);
  }
  // condition_field: "Condition" ' ' ':' opt<' '> rest (the key's loop stopped at the blank, as
  // ':' is no letter or digit, and none of the keyed forms matched).
  if (n >= 11 && line.starts_with("Condition") && p[9] == ' ' && p[10] == ':') {
    std::size_t at = 11;
    if (at < n && p[at] == ' ') ++at;
    return take(9, at);
  }
  return false;
}

#if defined(PLANLINT_LEAD_AVX2)
bool lead_wide = detect_lead_avx2();
#else
bool lead_wide = false;
#endif

bool parse_stats_body(std::string_view body, StatsValues& out) {
  out = StatsValues{};
  StatsState st{&out, {}};
  Input in = make_input(body);
  return pegtl::parse<g::stats_list, stats_action>(in, st);
}

}  // namespace planlint::explain
