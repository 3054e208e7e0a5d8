#include "parser/explain/explain_ops.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <memory>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define PLANLINT_SPLIT_AVX2 1
#endif

#include "parser/common/classify.hpp"
#include "parser/expression/expression.hpp"
#include "support/text_search.hpp"
#include "support/strings.hpp"

namespace planlint::explain {

namespace {

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
                const SourceRange& field_at, const SourceRange& value_at, bool maybe_cut) {
  ParsedExpr e = parse_expression(st, Text::stable(text), d);  // `text` is a part of f.value
  if (!e.root && !e.error.empty() && e.error != "expression parser not available") {
    // One warning per field is enough to point at the text.
    bool seen = false;
    for (const auto& x : f.exprs) seen = seen || (!x.root && !x.error.empty());
    if (!seen) {
      SourceRange at = field_at;
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

// One byte of the split: an opening or closing bracket moves the depth, a separator at depth 0
// ends an item. Returns where the scan goes on (past the separator when it ended an item).
struct Splitter {
  std::string_view s;
  std::string_view sep;
  std::vector<std::string_view>& out;
  int depth = 0;
  std::size_t start = 0;
  std::size_t skip = 0;  // bytes before it belong to a separator just taken

  void open() { ++depth; }
  void close() { depth = depth > 0 ? depth - 1 : 0; }
  [[gnu::always_inline]] void separator(std::size_t i) {
    if (depth != 0) return;
    const std::size_t n = s.size();
    const char* d = s.data();
    if (sep.size() == 2 && (i + 1 >= n || d[i + 1] != sep[1])) return;
    const std::size_t next = i + sep.size();
    // "Subquery scalar-subquery#2, [id=#3]" is one expression.
    if (next + 5 <= n && d[next] == '[' && d[next + 1] == 'i' && d[next + 2] == 'd' && d[next + 3] == '=' &&
        d[next + 4] == '#')
      return;
    out.push_back(s.substr(start, i - start));
    start = next;
    skip = next;
  }
  // The byte at i (any byte: the scalar tail).
  void byte(std::size_t i) {
    if (i < skip) return;
    const char c = s[i];
    if (c == sep[0]) separator(i);
    else if (c == '(' || c == '[' || c == '{') open();
    else if (c == ')' || c == ']' || c == '}') close();
  }
};

}  // namespace

void split_top_level(std::string_view s, std::string_view sep, std::vector<std::string_view>& out) {
  split_top_level(s, sep, out, nullptr);
}

namespace {

// What split_top_level says in `*seen` of `s`, by two searches (where the split's own walk does not).
unsigned seen_in(std::string_view s) {
  return (s.find('.') != std::string_view::npos ? kSeenDot : 0u) | (s.find('\n') != std::string_view::npos ? kSeenNewline : 0u);
}

#if defined(__SSE2__)
// Calls block(at16, base, valid) on [d, d + n) sixteen bytes at a time, in order: `base` is the
// offset of `at16`, `valid` the bits of the bytes not looked at yet (the last block overlaps the
// one before it; a text shorter than 16 bytes is a copy padded with zero bytes, which are no
// bracket, separator, dot or newline).
template <class Block>
[[gnu::always_inline]] inline void each_block16(const char* d, std::size_t n, Block& block) {
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) block(d + i, i, 0xFFFFu);
  if (i == n) return;
  if (n >= 16) {
    block(d + n - 16, n - 16, (0xFFFFu << (16 - (n - i))) & 0xFFFFu);
  } else {
    alignas(16) char pad[16] = {};
    std::memcpy(pad, d, n);
    block(pad, 0, (1u << n) - 1);
  }
}
#endif

// split_top_level for the separators the readers use (", ", ",", " "), the separator's bytes known
// at compile time: `kSep1` is its second byte (0 for a one-byte separator), `kSeen` whether the
// dots and newlines are looked for. Neither ' ' nor ',' is a bracket or the separator's first byte,
// so no byte right after a separator is looked at (the general Splitter skips those), and a
// bracket byte is never a separator byte: each 16-byte block needs four bracket comparisons
// (`x & 0xDF` folds '{' onto '[' and '}' onto ']'; no other byte folds onto either).
// Where split_fixed and split_fixed32 put the items they find, bytes [b, e) of the text:
// - ViewItems: views, pushed onto a vector (split_top_level's answer);
// - WordItems: words `base + b | (e - b) << 16`, written one after another from `w` (finish_field's
//   list values, shorter than 65,535 bytes: the words ItemSpans keeps, with no view made first).
//   The caller gives room for every item (at most size / 2 + 1 for ", ").
struct ViewItems {
  std::vector<std::string_view>* out;
  const char* d;
  [[gnu::always_inline]] void item(std::size_t b, std::size_t e) { out->push_back(std::string_view(d + b, e - b)); }
};
struct WordItems {
  std::uint32_t* w;
  std::uint32_t base;
  [[gnu::always_inline]] void item(std::size_t b, std::size_t e) {
    *w++ = (base + static_cast<std::uint32_t>(b)) | (static_cast<std::uint32_t>(e - b) << 16);
  }
};

// The items of a list as split_fixed and split_fixed32 find them: given each block's separator and
// bracket bytes (bit k: byte base + k), in order, the items end at the separators at depth 0.
template <char kSep0, char kSep1, class Out>
struct ListItems {
  static_assert(kSep0 == ',' || kSep0 == ' ');
  static_assert(kSep1 == 0 || kSep1 == ' ');
  static constexpr std::size_t kSepSize = kSep1 == 0 ? 1 : 2;
  const char* d;
  std::size_t n;
  Out out;
  int depth = 0;
  std::size_t start = 0;

  // A separator byte at `at`, at depth 0: an item ends there unless the separator is incomplete or
  // "[id=#" follows it ("Subquery scalar-subquery#2, [id=#3]" is one expression).
  [[gnu::always_inline]] void separator(std::size_t at) {
    if constexpr (kSep1 != 0) {
      if (at + 1 >= n || d[at + 1] != kSep1) return;
    }
    const std::size_t next = at + kSepSize;
    if (next + 5 <= n && d[next] == '[' && d[next + 1] == 'i' && d[next + 2] == 'd' && d[next + 3] == '=' &&
        d[next + 4] == '#')
      return;
    out.item(start, at);
    start = next;
  }
  [[gnu::always_inline]] void handle(std::size_t base, unsigned seps, unsigned opens, unsigned closes) {
    if ((opens | closes) == 0) {
      // No bracket in these bytes (most of a list): only the separators, and only at depth 0.
      if (depth != 0) return;
      for (unsigned m = seps; m != 0; m &= m - 1) separator(base + static_cast<unsigned>(__builtin_ctz(m)));
      return;
    }
    for (unsigned all = seps | opens | closes; all != 0; all &= all - 1) {
      const unsigned b = static_cast<unsigned>(__builtin_ctz(all));
      const unsigned bit = 1u << b;
      if (opens & bit) ++depth;
      else if (closes & bit) depth = depth > 0 ? depth - 1 : 0;
      else if (depth == 0) separator(base + b);
    }
  }
  // The last item, from the last separator to the end.
  void finish() { out.item(start, n); }
};

template <char kSep0, char kSep1, bool kSeen, class Out>
Out split_fixed(std::string_view s, Out out, unsigned* seen) {
  const std::size_t n = s.size();
  const char* const d = s.data();
  ListItems<kSep0, kSep1, Out> items{d, n, out};
#if defined(__SSE2__)
  const __m128i open_paren = _mm_set1_epi8('('), close_paren = _mm_set1_epi8(')');
  const __m128i open_bracket = _mm_set1_epi8('['), close_bracket = _mm_set1_epi8(']');
  const __m128i fold = _mm_set1_epi8(static_cast<char>(0xDF));
  const __m128i s0 = _mm_set1_epi8(kSep0);
  const __m128i dot = _mm_set1_epi8('.'), nl = _mm_set1_epi8('\n');
  // The dots and newlines seen, lane by lane, read once at the end: whether a byte was looked at
  // twice (the overlapping last block) or is padding (zero bytes) does not change the answer.
  __m128i dots = _mm_setzero_si128(), newlines = _mm_setzero_si128();
  struct Masks {
    unsigned seps, opens, closes;
  };
  auto masks16 = [&](const char* at16) __attribute__((always_inline)) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at16));
    if constexpr (kSeen) {
      dots = _mm_or_si128(dots, _mm_cmpeq_epi8(x, dot));
      newlines = _mm_or_si128(newlines, _mm_cmpeq_epi8(x, nl));
    }
    const __m128i y = _mm_and_si128(x, fold);
    return Masks{
        static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, s0))),
        static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, open_paren), _mm_cmpeq_epi8(y, open_bracket)))),
        static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, close_paren), _mm_cmpeq_epi8(y, close_bracket))))};
  };
  auto handle = [&](std::size_t base, unsigned seps, unsigned opens, unsigned closes)
                    __attribute__((always_inline)) { items.handle(base, seps, opens, closes); };
  // 32 bytes a turn (two 16-byte blocks, one test and one walk of their masks), then a block of
  // 16, then the rest: a last block that overlaps the one before it (only its new bytes' bits
  // kept), or for a text shorter than 16 bytes a copy padded with zero bytes (no separator or
  // bracket).
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const Masks a = masks16(d + i), b = masks16(d + i + 16);
    handle(i, a.seps | b.seps << 16, a.opens | b.opens << 16, a.closes | b.closes << 16);
  }
  if (i + 16 <= n) {
    const Masks a = masks16(d + i);
    handle(i, a.seps, a.opens, a.closes);
    i += 16;
  }
  if (i < n) {
    if (n >= 16) {
      const unsigned valid = (0xFFFFu << (16 - (n - i))) & 0xFFFFu;
      const Masks a = masks16(d + n - 16);
      handle(n - 16, a.seps & valid, a.opens & valid, a.closes & valid);
    } else {
      alignas(16) char pad[16] = {};
      std::memcpy(pad, d, n);
      const Masks a = masks16(pad);
      handle(0, a.seps, a.opens, a.closes);
    }
  }
  if constexpr (kSeen)
    *seen = (_mm_movemask_epi8(dots) != 0 ? kSeenDot : 0u) | (_mm_movemask_epi8(newlines) != 0 ? kSeenNewline : 0u);
#else
  for (std::size_t i = 0; i < n; ++i) {
    const char c = d[i];
    if (c == kSep0) {
      if (items.depth == 0) items.separator(i);
    } else if (c == '(' || c == '[' || c == '{') {
      ++items.depth;
    } else if (c == ')' || c == ']' || c == '}') {
      items.depth = items.depth > 0 ? items.depth - 1 : 0;
    }
  }
  if constexpr (kSeen) *seen = seen_in(s);
#endif
  items.finish();
  return items.out;
}

#if defined(PLANLINT_SPLIT_AVX2)
// split_fixed thirty-two bytes at a time (AVX2), for a text of 32 bytes or more on a processor
// that has it (split_wide): the same masks and the same walk of their bits, one block of 32 bytes
// where split_fixed takes two of 16 (and copies registers SSE2's two-operand instructions
// overwrite), and for the rest one last block of 32 that overlaps the one before it (only its new
// bytes' bits kept). The intrinsics are in this function's own body, not in lambdas: a lambda does
// not take the function's target, and the compilers refuse to inline an AVX2 intrinsic into it.
template <char kSep0, char kSep1, bool kSeen, class Out>
[[gnu::target("avx2")]] Out split_fixed32(std::string_view s, Out out, unsigned* seen) {
  const std::size_t n = s.size();
  const char* const d = s.data();
  ListItems<kSep0, kSep1, Out> items{d, n, out};  // (plain code: inlined here under this function's target)
  // The bytes compared, 32 of each, loaded from a table (one load each; gcc builds a repeated byte
  // in three instructions) through a pointer it cannot see through (an empty asm), and kept in
  // registers: gcc otherwise builds some of them again in every turn of the loop.
  alignas(32) static const char kRows[8][32] = {
#define PLANLINT_ROW32(c) {c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c}
      PLANLINT_ROW32('('), PLANLINT_ROW32(')'), PLANLINT_ROW32('['), PLANLINT_ROW32(']'),
      PLANLINT_ROW32(static_cast<char>(0xDF)), PLANLINT_ROW32(kSep0), PLANLINT_ROW32('.'), PLANLINT_ROW32('\n')};
#undef PLANLINT_ROW32
  const char(*rows)[32] = kRows;
  __asm__("" : "+r"(rows));
  auto row = [rows](int k) __attribute__((always_inline)) { return reinterpret_cast<const __m256i*>(rows[k]); };
  __m256i open_paren = _mm256_load_si256(row(0)), close_paren = _mm256_load_si256(row(1));
  __m256i open_bracket = _mm256_load_si256(row(2)), close_bracket = _mm256_load_si256(row(3));
  __m256i fold = _mm256_load_si256(row(4)), s0 = _mm256_load_si256(row(5));
  __m256i dot = _mm256_load_si256(row(6)), nl = _mm256_load_si256(row(7));
  __asm__("" : "+x"(open_paren), "+x"(close_paren), "+x"(open_bracket), "+x"(close_bracket));
  __asm__("" : "+x"(fold), "+x"(s0), "+x"(dot), "+x"(nl));
  __m256i dots = _mm256_setzero_si256(), newlines = _mm256_setzero_si256();
  // Blocks of 32 bytes, the last one ending at the text's end: it overlaps the one before it and
  // only its new bytes' bits are kept (`valid`). One loop body for both (a second copy of it for
  // the last block made the compiler keep fewer of the compared bytes in registers). The dots and
  // newlines are or'ed in lane by lane: a byte looked at twice does not change them.
  std::size_t at = 0;
  unsigned valid = ~0u;
  for (;;) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(d + at));
    if constexpr (kSeen) {
      dots = _mm256_or_si256(dots, _mm256_cmpeq_epi8(x, dot));
      newlines = _mm256_or_si256(newlines, _mm256_cmpeq_epi8(x, nl));
    }
    const __m256i y = _mm256_and_si256(x, fold);
    const auto seps = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, s0)));
    const auto opens = static_cast<unsigned>(
        _mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8(x, open_paren), _mm256_cmpeq_epi8(y, open_bracket))));
    const auto closes = static_cast<unsigned>(
        _mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8(x, close_paren), _mm256_cmpeq_epi8(y, close_bracket))));
    items.handle(at, seps & valid, opens & valid, closes & valid);
    const std::size_t next = at + 32;
    if (next >= n) break;
    if (next + 32 > n) {
      valid = ~0u << (32 - (n - next));  // the last n - next bytes are new
      at = n - 32;
    } else {
      at = next;
    }
  }
  if constexpr (kSeen)
    *seen = (_mm256_movemask_epi8(dots) != 0 ? kSeenDot : 0u) | (_mm256_movemask_epi8(newlines) != 0 ? kSeenNewline : 0u);
  items.finish();
  return items.out;
}

bool detect_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}
#endif

}  // namespace

#if defined(PLANLINT_SPLIT_AVX2)
bool split_wide = detect_avx2();
#else
bool split_wide = false;
#endif

void split_top_level(std::string_view s, std::string_view sep, std::vector<std::string_view>& out, unsigned* seen) {
  out.clear();
  if (s.empty() || sep.empty()) {
    if (seen) *seen = seen_in(s);
    return;
  }
  // The separators the readers use, read by split_fixed (split_fixed32 for a text of 32 bytes or
  // more, when the processor reads 32 bytes at a time).
#if defined(PLANLINT_SPLIT_AVX2)
  const bool wide = s.size() >= 32 && split_wide;
#endif
  if (sep.size() == 2 && sep[0] == ',' && sep[1] == ' ') {
#if defined(PLANLINT_SPLIT_AVX2)
    if (wide) {
      if (seen) split_fixed32<',', ' ', true>(s, ViewItems{&out, s.data()}, seen);
      else split_fixed32<',', ' ', false>(s, ViewItems{&out, s.data()}, nullptr);
      return;
    }
#endif
    if (seen) split_fixed<',', ' ', true>(s, ViewItems{&out, s.data()}, seen);
    else split_fixed<',', ' ', false>(s, ViewItems{&out, s.data()}, nullptr);
    return;
  }
  if (!seen && sep.size() == 1 && (sep[0] == ',' || sep[0] == ' ')) {
#if defined(PLANLINT_SPLIT_AVX2)
    if (wide) {
      if (sep[0] == ',') split_fixed32<',', 0, false>(s, ViewItems{&out, s.data()}, nullptr);
      else split_fixed32<' ', 0, false>(s, ViewItems{&out, s.data()}, nullptr);
      return;
    }
#endif
    if (sep[0] == ',') split_fixed<',', 0, false>(s, ViewItems{&out, s.data()}, nullptr);
    else split_fixed<' ', 0, false>(s, ViewItems{&out, s.data()}, nullptr);
    return;
  }
  split_top_level_general(s, sep, out, seen);
}

namespace {

// finish_field's split of a list value's inside (not empty) at ", ", with what it saw: what
// split_top_level(s, ", ", out, seen) does, without its tests of the separator (a call for each
// of ~44,000 list values).
void split_list(std::string_view s, std::vector<std::string_view>& out, unsigned* seen) {
  out.clear();
#if defined(PLANLINT_SPLIT_AVX2)
  if (s.size() >= 32 && split_wide) {
    split_fixed32<',', ' ', true>(s, ViewItems{&out, s.data()}, seen);
    return;
  }
#endif
  split_fixed<',', ' ', true>(s, ViewItems{&out, s.data()}, seen);
}

// The same split as words (WordItems, bytes counted from `base` before `s`: the value's '['), into
// `w`, which has room for s.size() / 2 + 1 items; the end of the words written.
std::uint32_t* split_list_words(std::string_view s, std::uint32_t base, std::uint32_t* w, unsigned* seen) {
#if defined(PLANLINT_SPLIT_AVX2)
  if (s.size() >= 32 && split_wide) return split_fixed32<',', ' ', true>(s, WordItems{w, base}, seen).w;
#endif
  return split_fixed<',', ' ', true>(s, WordItems{w, base}, seen).w;
}

// Room for `n` words, kept from one list value to the next (the thread's own).
std::uint32_t* list_words(std::size_t n) {
  thread_local std::unique_ptr<std::uint32_t[]> words;
  thread_local std::size_t room = 0;
  if (n > room) [[unlikely]] {
    room = std::max<std::size_t>(n, 2 * room);
    words = std::make_unique_for_overwrite<std::uint32_t[]>(room);
  }
  return words.get();
}

}  // namespace

void split_top_level_general(std::string_view s, std::string_view sep, std::vector<std::string_view>& out, unsigned* seen) {
  out.clear();
  if (s.empty() || sep.empty()) {
    if (seen) *seen = seen_in(s);
    return;
  }
  Splitter sp{s, sep, out};
  const std::size_t n = s.size();
  std::size_t i = 0;
#if defined(__SSE2__)
  // Sixteen bytes at a time (list values are long): one mask of the brackets and separators, and
  // only its set bits looked at, in order. `valid`: the bits of the bytes not looked at yet (the
  // last block may overlap the one before it, or be a copy of a short text padded with zeros).
  const __m128i o1 = _mm_set1_epi8('('), o2 = _mm_set1_epi8('['), o3 = _mm_set1_epi8('{');
  const __m128i c1 = _mm_set1_epi8(')'), c2 = _mm_set1_epi8(']'), c3 = _mm_set1_epi8('}');
  const __m128i s0 = _mm_set1_epi8(sep[0]);
  const __m128i dot = _mm_set1_epi8('.'), nl = _mm_set1_epi8('\n');
  unsigned dots = 0, newlines = 0;
  auto block = [&](const char* at16, std::size_t base, unsigned valid) __attribute__((always_inline)) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at16));
    if (seen) {
      dots |= static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, dot))) & valid;
      newlines |= static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, nl))) & valid;
    }
    const unsigned seps = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, s0))) & valid;
    const unsigned opens = static_cast<unsigned>(_mm_movemask_epi8(
                               _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, o1), _mm_cmpeq_epi8(x, o2)), _mm_cmpeq_epi8(x, o3)))) &
                           valid & ~seps;
    const unsigned closes = static_cast<unsigned>(_mm_movemask_epi8(
                                _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, c1), _mm_cmpeq_epi8(x, c2)), _mm_cmpeq_epi8(x, c3)))) &
                            valid & ~seps;
    if ((opens | closes) == 0) {
      // No bracket in these bytes (most of a list): only the separators, and only at depth 0.
      if (sp.depth != 0) return;
      for (unsigned m = seps; m != 0; m &= m - 1) {
        const std::size_t at = base + static_cast<unsigned>(__builtin_ctz(m));
        if (at >= sp.skip) sp.separator(at);
      }
      return;
    }
    for (unsigned all = seps | opens | closes; all != 0; all &= all - 1) {
      const unsigned b = static_cast<unsigned>(__builtin_ctz(all));
      const std::size_t at = base + b;
      if (at < sp.skip) continue;
      const unsigned bit = 1u << b;
      if (opens & bit) sp.open();
      else if (closes & bit) sp.close();
      else sp.separator(at);
    }
  };
  each_block16(s.data(), n, block);
  i = n;
  if (seen) *seen = (dots != 0 ? kSeenDot : 0u) | (newlines != 0 ? kSeenNewline : 0u);
#else
  if (seen) *seen = seen_in(s);
#endif
  for (; i < n; ++i) sp.byte(i);
  out.push_back(s.substr(sp.start));
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
        op.join.edit().type_text = keep_part(p);
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
      op.set_table(keep_part(trim_spaces(name.substr(21))));
    } else if (w0 == "BatchScan" || w0 == "GpuBatchScan") {
      if (words.size() >= 2) op.set_table(keep_part(trim_spaces(name.substr(w0.size() + 1))));
    } else if (words.size() >= 2 && (w0 == "Scan" || w0 == "FileScan" || w0.starts_with("PhotonScan") ||
                                     w0.ends_with("Transformer") || w0 == "GpuFileGpuScan" || w0 == "GpuScan" ||
                                     w0 == "CometScan" || w0 == "CometNativeScan")) {
      std::string_view fmt = words[1];
      if (fmt.starts_with("JDBCRelation(")) {
        op.set_scan_format("jdbc");
        std::size_t close = match_close(fmt, 12);
        if (close != std::string_view::npos) op.set_table(keep_part(fmt.substr(13, close - 13)));
      } else if (fmt != "ExistingRDD" && fmt != "OneRowRelation") {
        op.set_scan_format(keep_part(fmt));
        std::size_t pos = static_cast<std::size_t>(fmt.data() + fmt.size() - name.data());
        std::string_view t = trim_spaces(name.substr(pos));
        if (auto b = t.find('['); b != std::string_view::npos && w0 != "Scan" && !w0.starts_with("PhotonScan") &&
                                  !w0.ends_with("Transformer"))
          t = t.substr(0, b);
        op.set_table(keep_part(t));
      }
    }
  }
}

namespace {

// The dialect of an expression-bearing key (kExprKeys), or nullptr: one comparison, chosen by
// the key's length and first byte, where the table was tried key by key for every field.
constexpr const ExprKey* expr_key(std::string_view key) {
  auto is = [&](std::size_t k) -> const ExprKey* { return key == kExprKeys[k].key ? &kExprKeys[k] : nullptr; };
  switch (key.size()) {
    case 4:
      return is(10);  // Keys
    case 9:
      return key[0] == 'C' ? is(0) : is(7);  // Condition, Left keys
    case 10:
      return is(8);  // Right keys
    case 11:
      return is(2);  // DataFilters
    case 13:
      return is(1);  // PushedFilters
    case 14:
      return is(9);  // Join condition
    case 16:
      return is(3);  // PartitionFilters
    case 17:
      return is(6);  // DictionaryFilters
    case 19:
      return key[0] == 'R' ? is(4) : is(5);  // RequiredDataFilters, OptionalDataFilters
    default:
      return nullptr;
  }
}
// Every key of the table is found as itself.
static_assert([] {
  for (const ExprKey& k : kExprKeys)
    if (expr_key(k.key) != &k) return false;
  return expr_key("Location") == nullptr && expr_key("Conditions") == nullptr && expr_key("Left kexs") == nullptr;
}());

}  // namespace

void finish_field(TextStore& st, Field& f, std::vector<ParseMessage>& msgs, const SourceRange& field_at,
                  const SourceRange& value_at) {
  const BlockScope blocks(st);  // item spans and parsed expressions: the field's plan's store
  std::string_view v = f.value;
  const std::string_view key = f.key;  // read once: the model's texts are packed (PackedText)
  // Spark prints a file index, `InMemoryFileIndex(3 paths)[...]`, only as a scan's Location.
  const bool file_index = key == "Location";
  std::vector<std::string_view>* parts = nullptr;  // the items of a value of 65,535 bytes or more
  bool list = false;
  bool dots = true;  // whether the value may hold a '.' (then "..." is looked for)
  // A value shorter than 65,535 bytes is split straight into ItemSpans' words: one word an item,
  // copied into the field's spans once their count is known (no view made and converted).
  const bool narrow = v.size() < 0xFFFFu;
  const std::uint32_t* words = nullptr;
  std::size_t items = 0;
  if (v.size() >= 2 && v.front() == '[' && v.back() == ']') {
    // A list when it holds no newline: the split of its items also says whether it holds a
    // newline or a dot (one pass where a search for each and the split made three).
    const std::string_view inner(v.data() + 1, v.size() - 2);
    unsigned seen = 0;
    if (!inner.empty()) {
      if (narrow) {
        std::uint32_t* w = list_words(inner.size() / 2 + 1);
        items = static_cast<std::size_t>(split_list_words(inner, 1, w, &seen) - w);
        words = w;
      } else {
        thread_local std::vector<std::string_view> long_parts;
        parts = &long_parts;
        split_list(inner, *parts, &seen);
        items = parts->size();
      }
    }
    list = (seen & kSeenNewline) == 0;
    if (!list) items = 0;
    dots = (seen & kSeenDot) != 0;
  }
  // scan_cut_marks' answer: without a dot there is no "..." (and `v` ends with ']'), and only a
  // file index can be cut otherwise.
  const CutMarks cut = dots || file_index ? scan_cut_marks(v, file_index) : CutMarks{};
  f.truncated = cut.truncated;
  if (list) {
    f.is_list = true;
    if (!parts) std::copy_n(words, items, f.item_spans.assign_narrow(items));
    else f.item_spans.assign(v, *parts);  // the parts are views into f.value (v)
    if (f.count && *f.count != items) f.count_mismatch = true;
  } else if (f.count) {
    // `Key [N]: text` whose value is not a bracketed list.
    f.count_mismatch = *f.count != 0;
  }
  if (const ExprKey* k = expr_key(key)) {
    if (f.is_list) {
      // The items are parts of v (the field's kept value); parsing does not touch either.
      f.exprs.reserve(f.exprs.size() + items);  // one block, not one per growth step
      const bool maybe_cut = cut.marks;  // (a truncated value has marks too)
      for (std::size_t j = 0; j < items; ++j) {
        const TextSpan at = !parts ? ItemSpans::unpack(words[j])
                                   : TextSpan{static_cast<std::uint32_t>((*parts)[j].data() - v.data()),
                                              static_cast<std::uint32_t>((*parts)[j].size())};
        parse_into(st, f, std::string_view(v.data() + at.begin, at.size), at.begin, k->dialect, msgs, field_at, value_at,
                   maybe_cut);
      }
    } else if (!v.empty() && v != "None") {
      parse_into(st, f, v, 0, k->dialect, msgs, field_at, value_at, true);
    }
  }
}

void apply_fields(TextStore& st, Operator& op) {
  for (std::size_t i = 0; i < op.fields.size(); ++i) {
    const Field& f = op.fields[i];
    const std::string_view key = f.key;  // read once: the model's texts are packed (PackedText)
    if (key == "Arguments" && op.arguments.empty()) op.arguments = f.value;
    if (op.kind != OpKind::Join) continue;
    // The keys and the condition stay in their fields: the join names them (the last of each).
    const auto at = static_cast<std::uint32_t>(i);
    if (key == "Left keys") op.join.edit().left_keys_field = at;
    else if (key == "Right keys") op.join.edit().right_keys_field = at;
    else if (key == "Join condition" && !f.exprs.empty()) op.join.edit().condition_field = at;
    else if (key == "Join type" && (op.join->type == JoinType::None || op.join->type == JoinType::Unknown)) {
      op.join.edit().type = parse_join_type(f.value);
      op.join.edit().type_text = f.value;
    }
  }
  if ((op.kind == OpKind::Scan) && op.scan_format().empty()) {
    if (const Field* f = op.field("Format")) {
      std::string format(f->value);
      std::transform(format.begin(), format.end(), format.begin(),
                     [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
      op.set_scan_format(st.keep(format));
    }
  }
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
    op.edit_runtime().hints.edit().push_back(std::move(h));
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
        op.join.edit().type_text = Text::stable(part);  // a part of the kept arguments
      } else if (op.join->type == JoinType::None && part.starts_with("ExistenceJoin(")) {
        op.join.edit().type = JoinType::ExistenceJoin;
        op.join.edit().type_text = Text::stable(part);
      }
    }
  }
  if (op.name == "Relation" || op.name == "LogicalRelation") {
    // "Relation spark_catalog.db.t[a#1,b#2] parquet"
    std::size_t b = args.find('[');
    op.set_table(st.keep(trim_spaces(args.substr(0, b))));
    if (b != std::string_view::npos) {
      std::size_t close = match_close(args, b);
      if (close != std::string_view::npos) {
        std::string_view fmt = trim_spaces(args.substr(close + 1));
        if (!fmt.empty() && fmt.find(' ') == std::string_view::npos) op.set_scan_format(st.keep(fmt));
      }
    }
  }
}

}  // namespace planlint::explain
