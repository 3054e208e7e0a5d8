// The plain run of a JSON string: the bytes a one-pass JSON scanner can copy or skip without a
// second look. Shared by the event log's task-end scanner (parser/eventlog/task_end.cpp) and the
// Query Profile scanner (parser/profile/profile_json_scan.hpp).
#pragma once

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace planlint {

// The first byte at or after `p` (before `end`) that ends a plain run of a JSON string's content:
// the quote, a backslash, a control byte (< 0x20, invalid in JSON strings) or a non-ASCII byte
// (>= 0x80, whose UTF-8 the caller checks or leaves to nlohmann); `end` when there is none.
// 16 bytes at a time where SSE2 is there.
inline const char* json_plain_run(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20);
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Signed compare: bytes >= 0x80 are negative, so (v < 0x20) catches them and control bytes.
    const __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                      _mm_cmplt_epi8(v, space));
    const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(stop));
    if (mask != 0) return p + __builtin_ctz(mask);
    p += 16;
  }
#endif
  for (; p != end; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) return p;
  }
  return end;
}

}  // namespace planlint
