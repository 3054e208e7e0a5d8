// Byte scanners for line-oriented text: count and find newlines, measure a leading run of one or
// two bytes, skip a tree prefix of blanks and `:` guides. Where SSE2 is there they look at 16 bytes
// at a time (plan text has many short lines and deep tree prefixes: a byte-wise loop or a memchr
// call per line costs many times more). The 16-byte code uses GCC / clang vector extensions and
// the SSE2 builtins behind <emmintrin.h>'s _mm_movemask_epi8 and _mm_sad_epu8, so this header
// needs nothing but the standard library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace planlint {

#if defined(__SSE2__)
namespace byte_scan_detail {
using v16 = char __attribute__((vector_size(16)));            // __v16qi
using u16 = unsigned char __attribute__((vector_size(16)));   // lanes that wrap on overflow
using v2 = long long __attribute__((vector_size(16)));        // __v2di

inline v16 load16(const char* p) {
  v16 v;
  std::memcpy(&v, p, 16);
  return v;
}
inline v16 splat(char c) { return v16{} + c; }
// Bit i set when lane i of m has its top bit set (_mm_movemask_epi8).
inline unsigned movemask(v16 m) { return static_cast<unsigned>(__builtin_ia32_pmovmskb128(m)); }
// -1 in every lane where a and b are equal, else 0 (_mm_cmpeq_epi8).
inline v16 eq(v16 a, v16 b) { return reinterpret_cast<v16>(a == b); }
}  // namespace byte_scan_detail
#endif

// Of the 16 bytes at `p` (all readable): bit k set when p[k] is a byte that plain_key
// (model/facts.cpp) must look at in a column name: none of the bytes above '`' as a `char` (the
// lower-case letters, `{|}~` and DEL; with a signed char also no byte from 0x80 on) and no '_'.
// One compare of each kind with SSE2, else the same test byte by byte.
inline unsigned name_stops16(const char* p) {
#if defined(__SSE2__)
  using namespace byte_scan_detail;
  const v16 x = load16(p);
  return ~movemask(reinterpret_cast<v16>(x > splat('`')) | eq(x, splat('_'))) & 0xFFFFu;
#else
  unsigned m = 0;
  for (unsigned k = 0; k < 16; ++k) m |= static_cast<unsigned>(!(p[k] > '`' || p[k] == '_')) << k;
  return m;
#endif
}

// Newlines in `s`, 16 bytes at a time with SSE2, else eight (a byte-wise loop or memchr per line
// costs 10-20x more instructions on a plan of short lines).
inline std::size_t count_newlines(std::string_view s) {
  constexpr std::uint64_t ones = 0x0101010101010101ULL, low7 = 0x7F7F7F7F7F7F7F7FULL, nl = ones * '\n';
  std::size_t n = 0, i = 0;
#if defined(__SSE2__)
  // 16 bytes at a time: per byte lane, minus the compare masks (-1 per newline) counts up to 255
  // blocks, then the lanes are summed (_mm_sad_epu8 against zero: two sums, one per half).
  {
    using namespace byte_scan_detail;
    const v16 nlv = splat('\n');
    // 64 bytes a turn (the loop's own instructions once per four blocks), flushed before a lane
    // can pass 255 (63 turns of at most 4 each).
    while (i + 64 <= s.size()) {
      u16 acc = {};
      for (int k = 0; k < 63 && i + 64 <= s.size(); ++k, i += 64) {
        const char* p = s.data() + i;
        acc -= reinterpret_cast<u16>(eq(load16(p), nlv));
        acc -= reinterpret_cast<u16>(eq(load16(p + 16), nlv));
        acc -= reinterpret_cast<u16>(eq(load16(p + 32), nlv));
        acc -= reinterpret_cast<u16>(eq(load16(p + 48), nlv));
      }
      const v2 sums = __builtin_ia32_psadbw128(reinterpret_cast<v16>(acc), v16{});
      n += static_cast<std::size_t>(sums[0]) + static_cast<std::size_t>(sums[1]);
    }
    while (i + 16 <= s.size()) {
      u16 acc = {};
      for (int k = 0; k < 255 && i + 16 <= s.size(); ++k, i += 16)
        acc -= reinterpret_cast<u16>(eq(load16(s.data() + i), nlv));
      const v2 sums = __builtin_ia32_psadbw128(reinterpret_cast<v16>(acc), v16{});
      n += static_cast<std::size_t>(sums[0]) + static_cast<std::size_t>(sums[1]);
    }
  }
#endif
  while (i + 8 <= s.size()) {
    std::uint64_t acc = 0;  // per byte lane: how many newlines, at most 255 words per flush
    for (int k = 0; k < 255 && i + 8 <= s.size(); ++k, i += 8) {
      std::uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      const std::uint64_t x = w ^ nl;                             // newline bytes become 0
      const std::uint64_t zero = ~(((x & low7) + low7) | x | low7);  // 0x80 exactly in zero bytes
      acc += zero >> 7;
    }
    const std::uint64_t pairs = (acc & 0x00FF00FF00FF00FFULL) + ((acc >> 8) & 0x00FF00FF00FF00FFULL);
    n += static_cast<std::size_t>((pairs * 0x0001000100010001ULL) >> 48);  // sum of four lanes <= 2040
  }
  for (; i < s.size(); ++i) n += s[i] == '\n';
  return n;
}

// The lines of `s` in order, and of each how many of its bytes are `-` or `=` (counted up to two).
// A fill looks at up to kBatch blocks of 64 bytes: per block one 64-bit mask of newlines and one of
// `-` / `=` (the same loads for both), 32-byte compares where the processor has AVX2 (`wide`),
// else 16-byte ones (SSE2), else byte by byte; then the newline bits become the batch's line ends,
// each with its marks, so that next() is a load from a table. A split into lines that calls
// find_newline per line restarts a 16-byte loop at every line (plan lines are short: most of its
// blocks hold one line), and a later look for `-` / `=` in each line costs a search per line.
class LineCursor {
 public:
  explicit LineCursor(std::string_view s) : d_(s.data()), n_(s.size()) {}
  // The end of the next line (its newline; s.size() for the last line, and at every call after
  // it); `marks`: how many bytes `-` or `=` the line [the end before + 1, that end) holds, or 2
  // when it holds more.
  std::size_t next(unsigned& marks) {
    if (at_ == end_) [[unlikely]] return refill(marks);
    const std::uint32_t e = *at_++;
    marks = e >> 16;
    return base_ + (e & 0xFFFFu);
  }

  // The processor reads 32 bytes at a time (AVX2): fill uses scan32 (tests set it to compare the
  // two; always false where scan32 is not built).
#if defined(__x86_64__) && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
  static inline bool wide = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
#else
  static inline bool wide = false;
#endif

 private:
  // Blocks of 64 bytes a fill: a call of scan32 per fill (not inlined: its target differs) and the
  // loop's set-up. With each block's masks kept and walked bit by bit in next() (its state in
  // memory in split_lines' loop: 22 instructions a block), the golden plans' split_lines took
  // 24.37 M instructions with 8 blocks a fill, 24.10 M with 16, 23.96 M with 32; with the ends
  // made here, 23.35 M (26.21 M without AVX2). Separate tables of 16-bit ends and 8-bit marks:
  // 24.03 M (two stores a line).
  static constexpr unsigned kBatch = 32;
  const char* d_;
  std::size_t n_;
  std::size_t base_ = 0, next_ = 0;  // where the batch of ends_ starts, and where the next one does
  const std::uint32_t* at_ = nullptr;  // the next line of ends_ to give
  const std::uint32_t* end_ = nullptr; //   and the end of the batch's
  unsigned carry_ = 0;                 // marks (up to 2) of the line running past the batch's end
  std::uint32_t ends_[kBatch * 64];    // the batch's lines: end (offset from base_) | marks << 16

  // The next batch's line ends (while none: a line longer than a batch), or the last line's end.
  std::size_t refill(unsigned& marks) {
    while (next_ < n_) {
      fill();
      if (at_ != end_) return next(marks);
    }
    marks = carry_;
    carry_ = 0;
    return n_;
  }
  // The line ends of the blocks from next_: the whole ones (up to kBatch), else the last, short
  // one (its bytes in a zeroed buffer: a zero is neither).
  void fill() {
    base_ = next_;
    at_ = ends_;
    const std::size_t left = n_ - base_;
    if (left >= 64) {
      const unsigned blocks = left / 64 < kBatch ? static_cast<unsigned>(left / 64) : kBatch;
      next_ = base_ + std::size_t{64} * blocks;
      end_ = scan(d_ + base_, blocks, carry_, ends_);
    } else {
      char buf[64] = {};
      std::memcpy(buf, d_ + base_, left);
      next_ = n_;
      end_ = scan(buf, 1, carry_, ends_);
    }
  }
  // `c` and the marks of `m`, counted up to 2 (kPopcnt: with popcnt, which AVX2 processors have).
  template <bool kPopcnt>
  [[gnu::always_inline]] static unsigned add(unsigned c, std::uint64_t m) {
    if constexpr (kPopcnt) {
      c += static_cast<unsigned>(__builtin_popcountll(m));
    } else {
      c += static_cast<unsigned>(m != 0) + static_cast<unsigned>((m & (m - 1)) != 0);
    }
    return c < 2 ? c : 2;
  }
  // The lines ending in one block at `at` in the batch (newlines `nl`, marks `mk`), written from w
  // on; `carry`: the marks of the line running into the block, then out of it. Returns the end.
  template <bool kPopcnt>
  [[gnu::always_inline]] static std::uint32_t* block_lines(std::uint64_t nl, std::uint64_t mk, unsigned at,
                                                           unsigned& carry, std::uint32_t* w) {
    if ((mk | carry) == 0) {  // most blocks (a quarter of the golden plans' blocks hold a mark)
      for (; nl != 0; nl &= nl - 1) *w++ = at + static_cast<unsigned>(__builtin_ctzll(nl));
      return w;
    }
    for (; nl != 0; nl &= nl - 1) {
      const std::uint64_t m = mk & (nl ^ (nl - 1));  // the marks before this newline (earlier lines' are gone)
      mk ^= m;
      *w++ = (at + static_cast<unsigned>(__builtin_ctzll(nl))) | add<kPopcnt>(carry, m) << 16;
      carry = 0;
    }
    carry = add<kPopcnt>(carry, mk);
    return w;
  }
  static std::uint32_t* scan(const char* p, unsigned blocks, unsigned& carry, std::uint32_t* w) {
#if defined(__x86_64__) && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
    if (wide) return scan32(p, blocks, carry, w);
#endif
    unsigned c = carry;  // (in a register)
    for (unsigned b = 0; b < blocks; ++b) {
      const char* const q = p + std::size_t{64} * b;
#if defined(__SSE2__)
      using namespace byte_scan_detail;
      // `-` is 0x2D and `=` 0x3D: with bit 0x10 set both are `=`, and no other byte is.
      const v16 nlv = splat('\n'), eqv = splat('='), bit = splat(0x10);
      const v16 x0 = load16(q), x1 = load16(q + 16), x2 = load16(q + 32), x3 = load16(q + 48);
      const std::uint64_t nl = std::uint64_t{movemask(eq(x0, nlv))} | std::uint64_t{movemask(eq(x1, nlv))} << 16 |
                               std::uint64_t{movemask(eq(x2, nlv))} << 32 | std::uint64_t{movemask(eq(x3, nlv))} << 48;
      const std::uint64_t mk = std::uint64_t{movemask(eq(x0 | bit, eqv))} | std::uint64_t{movemask(eq(x1 | bit, eqv))} << 16 |
                               std::uint64_t{movemask(eq(x2 | bit, eqv))} << 32 |
                               std::uint64_t{movemask(eq(x3 | bit, eqv))} << 48;
#else
      std::uint64_t nl = 0, mk = 0;
      for (unsigned j = 0; j < 64; ++j) {
        nl |= std::uint64_t{q[j] == '\n'} << j;
        mk |= std::uint64_t{q[j] == '-' || q[j] == '='} << j;
      }
#endif
      w = block_lines<false>(nl, mk, 64 * b, c, w);
    }
    carry = c;
    return w;
  }
#if defined(__x86_64__) && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
  // scan with two 32-byte compares of each kind per block (AVX2). Out of line (the target
  // differs), once per fill. Its vectors are declared in its own body: a function without the
  // target must not take or return them.
  [[gnu::target("avx2")]] static std::uint32_t* scan32(const char* p, unsigned blocks, unsigned& carry, std::uint32_t* w) {
    using v32 = char __attribute__((vector_size(32)));
    const v32 nlv = v32{} + '\n', eqv = v32{} + '=', bit = v32{} + 0x10;
    unsigned c = carry;  // (in a register)
    for (unsigned b = 0; b < blocks; ++b) {
      v32 x0, x1;
      std::memcpy(&x0, p + std::size_t{64} * b, 32);
      std::memcpy(&x1, p + std::size_t{64} * b + 32, 32);
      const auto n0 = static_cast<unsigned>(__builtin_ia32_pmovmskb256(reinterpret_cast<v32>(x0 == nlv)));
      const auto n1 = static_cast<unsigned>(__builtin_ia32_pmovmskb256(reinterpret_cast<v32>(x1 == nlv)));
      const auto m0 = static_cast<unsigned>(__builtin_ia32_pmovmskb256(reinterpret_cast<v32>((x0 | bit) == eqv)));
      const auto m1 = static_cast<unsigned>(__builtin_ia32_pmovmskb256(reinterpret_cast<v32>((x1 | bit) == eqv)));
      w = block_lines<true>(std::uint64_t{n0} | std::uint64_t{n1} << 32, std::uint64_t{m0} | std::uint64_t{m1} << 32, 64 * b, c, w);
    }
    carry = c;
    return w;
  }
#endif
};

// The first byte `c` at or after an offset of `s`, for offsets that mostly grow (lines in order):
// one memchr per line that holds `c` instead of one per line.
struct NextByte {
  std::string_view s;
  char c;
  std::size_t from = 1, at = 0;  // s[from, at) holds no c, s[at] == c or at == s.size() (none yet)
  std::size_t find(std::size_t o) {
    if (o < from || o > at) {
      from = o;
      const void* p = o < s.size() ? std::memchr(s.data() + o, c, s.size() - o) : nullptr;
      at = p == nullptr ? s.size() : static_cast<std::size_t>(static_cast<const char*>(p) - s.data());
    }
    return at;
  }
};

// The first occurrence of `needle` in `s` at or after `from` (npos: none), the same answer as
// s.find(needle, from), found by looking for its byte `needle[key]` with memchr: std::string_view's
// find stops at every occurrence of the needle's FIRST byte, and needles such as " <-" or " //>"
// start with a blank, which plan text holds every few bytes (a memchr call and a compare each).
// Choose `key` as the needle's rarest byte.
inline std::size_t find_by_key(std::string_view s, std::string_view needle, std::size_t key, std::size_t from = 0) {
  if (needle.empty() || key >= needle.size()) return s.find(needle, from);
  if (from > s.size() || s.size() - from < needle.size()) return std::string_view::npos;
  const char* const d = s.data();
  const char c = needle[key];
  std::size_t i = from + key;                   // where the key byte of a match at `from` would be
  const std::size_t last = s.size() - needle.size() + key;  // ... of the last possible match
  while (i <= last) {
    const void* p = std::memchr(d + i, c, last + 1 - i);
    if (p == nullptr) return std::string_view::npos;
    i = static_cast<std::size_t>(static_cast<const char*>(p) - d);
    if (std::memcmp(d + i - key, needle.data(), needle.size()) == 0) return i - key;
    ++i;
  }
  return std::string_view::npos;
}

// The first occurrence of `needle` in `s` at or after `from` (npos: none), the same answer as
// s.find(needle, from), found through its two bytes at `k` and `k + 1`: where SSE2 is there, 128
// places a turn are compared with that pair (two loads and two compares per 16 bytes), and only a
// place that holds the pair is compared whole. For a needle none of whose bytes is rare in plan
// text but one of whose pairs is (the `nl` of `planlint:`): find and memchr stop at every one of
// its first (or key) byte, a call and a compare each.
inline std::size_t find_by_pair(std::string_view s, std::string_view needle, std::size_t k, std::size_t from = 0) {
  if (k + 1 >= needle.size()) return s.find(needle, from);
  if (from > s.size() || s.size() - from < needle.size()) return std::string_view::npos;
  const char* const d = s.data();
  const char a = needle[k], b = needle[k + 1];
  std::size_t i = from + k;                                 // where the pair of a match at `from` would be
  const std::size_t last = s.size() - needle.size() + k;  // ... of the last possible match (last + 1 < s.size())
  const auto whole = [&](std::size_t at) { return std::memcmp(d + at - k, needle.data(), needle.size()) == 0; };
#if defined(__SSE2__)
  {
    using namespace byte_scan_detail;
    const v16 va = splat(a), vb = splat(b);
    // Lane j of pair16(p): -1 where p[j] == a and p[j + 1] == b (the bytes [p, p + 17) are read).
    const auto pair16 = [&](const char* p) { return eq(load16(p), va) & eq(load16(p + 1), vb); };
    // 128 places [i, i + 128) a turn, all <= last (two loads, two compares and an `and` per 16
    // bytes, one test a turn); a turn that holds the pair is looked at again 16 places at a time.
    for (; i + 128 <= last + 1; i += 128) {
      const char* p = d + i;
      const v16 h = ((pair16(p) | pair16(p + 16)) | (pair16(p + 32) | pair16(p + 48))) |
                    ((pair16(p + 64) | pair16(p + 80)) | (pair16(p + 96) | pair16(p + 112)));
      if (movemask(h) == 0) continue;  // most turns
      for (std::size_t b16 = 0; b16 < 128; b16 += 16)
        for (unsigned m = movemask(pair16(p + b16)); m != 0; m &= m - 1) {
          const std::size_t at = i + b16 + static_cast<std::size_t>(__builtin_ctz(m));
          if (whole(at)) return at - k;
        }
    }
    for (; i + 16 <= last + 1; i += 16)
      for (unsigned m = movemask(pair16(d + i)); m != 0; m &= m - 1) {
        const std::size_t at = i + static_cast<std::size_t>(__builtin_ctz(m));
        if (whole(at)) return at - k;
      }
  }
#endif
  for (; i <= last; ++i)
    if (d[i] == a && d[i + 1] == b && whole(i)) return i - k;
  return std::string_view::npos;
}

// The first newline in s at or after `from`, or s.size(): inline, 16 bytes at a time where SSE2
// is there (lines are short: a memchr call per line costs more than the search).
inline std::size_t find_newline(std::string_view s, std::size_t from) {
  const char* const d = s.data();
  const std::size_t n = s.size();
  std::size_t i = from;
#if defined(__SSE2__)
  {
    using namespace byte_scan_detail;
    const v16 nlv = splat('\n');
    for (; i + 16 <= n; i += 16) {
      const unsigned m = movemask(eq(load16(d + i), nlv));
      if (m != 0) return i + static_cast<std::size_t>(__builtin_ctz(m));
    }
  }
#endif
  while (i < n && d[i] != '\n') ++i;
  return i;
}

// How many bytes s starts with that are a or b (16 bytes at a time where SSE2 is there: tree
// lines start with long runs of blanks).
inline std::size_t leading_run(std::string_view s, char a, char b) {
  const char* const d = s.data();
  const std::size_t n = s.size();
  std::size_t i = 0;
  if (n == 0 || (d[0] != a && d[0] != b)) return 0;  // most lines
#if defined(__SSE2__)
  {
    using namespace byte_scan_detail;
    const v16 va = splat(a), vb = splat(b);
    for (; i + 16 <= n; i += 16) {
      const v16 x = load16(d + i);
      const unsigned other = ~movemask(eq(x, va) | eq(x, vb)) & 0xFFFFu;
      if (other != 0) return i + static_cast<std::size_t>(__builtin_ctz(other));
    }
  }
#endif
  while (i < n && (d[i] == a || d[i] == b)) ++i;
  return i;
}

// Skip blanks and lone colons (a `:` followed by a blank or the end of s): the prefix of a tree
// line, its `:` guides. Returns the offset of what follows. Deep trees have long prefixes: 16 bytes
// at a time where SSE2 is there.
inline std::size_t skip_blanks_and_lone_colons(std::string_view s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  const char* const d = s.data();
  if (n == 0 || (d[0] != ' ' && d[0] != ':')) return 0;  // most lines
#if defined(__SSE2__)
  {
    using namespace byte_scan_detail;
    const v16 sp = splat(' '), co = splat(':');
    for (; i + 16 <= n; i += 16) {
      const v16 x = load16(d + i);
      const unsigned spaces = movemask(eq(x, sp));
      const unsigned colons = movemask(eq(x, co));
      // Stop at a byte that is neither, or at a `:` whose next byte (in this block) is not a blank.
      const unsigned stop = (~(spaces | colons) & 0xFFFFu) | (colons & ~(spaces >> 1) & 0x7FFFu);
      if (stop != 0) return i + static_cast<std::size_t>(__builtin_ctz(stop));
      if ((colons & 0x8000u) != 0 && i + 16 < n && d[i + 16] != ' ') return i + 15;
    }
  }
#endif
  while (i < n) {
    if (d[i] == ' ') {
      ++i;
    } else if (d[i] == ':' && (i + 1 == n || d[i + 1] == ' ')) {
      ++i;
    } else {
      break;
    }
  }
  return i;
}

// The bytes of a word: ASCII letters, ASCII digits and the bytes `Extra` (one load per byte
// instead of five range tests).
template <char... Extra>
struct WordBytes {
  bool of[256] = {};
  constexpr WordBytes() {
    for (int c = 0; c < 256; ++c)
      of[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              ((c == static_cast<unsigned char>(Extra)) || ...);
  }
};
template <char... Extra>
inline constexpr WordBytes<Extra...> kWordBytes{};

// The end of the run of word bytes (WordBytes<Extra...>) from b[q]; b[n] is not read. 16 bytes a
// look where SSE2 is there and 16 are left (names such as `ss_sold_date_sk` run to a dozen bytes
// and more: a byte-wise loop costs three or four instructions a byte), then byte by byte.
template <char... Extra>
inline std::size_t word_run_end(const char* b, std::size_t q, std::size_t n) {
#if defined(__SSE2__)
  using namespace byte_scan_detail;
  while (n - q >= 16) {
    const v16 x = load16(b + q);
    const v16 lower = x | splat(0x20);  // A-Z to a-z; no other byte lands in a-z
    v16 word = reinterpret_cast<v16>(lower >= splat('a')) & reinterpret_cast<v16>(lower <= splat('z'));
    word |= reinterpret_cast<v16>(x >= splat('0')) & reinterpret_cast<v16>(x <= splat('9'));
    ((word |= eq(x, splat(Extra))), ...);
    const unsigned m = ~movemask(word) & 0xFFFFu;
    if (m != 0) return q + static_cast<std::size_t>(__builtin_ctz(m));
    q += 16;
  }
#endif
  while (q < n && kWordBytes<Extra...>.of[static_cast<unsigned char>(b[q])]) ++q;
  return q;
}

// Whether the n bytes at a and b are equal, for short texts (names, detail keys): word loads, the
// last one overlapping the one before, no call to memcmp (whose call and length dispatch cost more
// than the compare for the dozen bytes of an operator name or a field key). Reads [a, a + n) and
// [b, b + n) only.
inline bool same_short_bytes(const char* a, const char* b, std::size_t n) {
  auto load8 = [](const char* p) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
  };
  auto load4 = [](const char* p) {
    std::uint32_t w;
    std::memcpy(&w, p, 4);
    return w;
  };
  if (n >= 8) {  // the first and last words first (all of 8..16 bytes), then the words between
    if (load8(a) != load8(b) || load8(a + n - 8) != load8(b + n - 8)) return false;
    for (std::size_t i = 8; i + 8 < n; i += 8)
      if (load8(a + i) != load8(b + i)) return false;
    return true;
  }
  if (n >= 4) return load4(a) == load4(b) && load4(a + n - 4) == load4(b + n - 4);  // Project, Filter, Sort
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

}  // namespace planlint
