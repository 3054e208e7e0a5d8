// A per-thread cache of a function of an operator's name. A plan repeats a few dozen names over
// hundreds of operators, and the answers that depend on the name's bytes alone (its kind and join
// strategy, its name facts) cost 100-200 instructions each to work out: the last answer for each
// of 256 slots is kept, with a copy of its name, so that a repeated name costs a hash and a
// compare.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "support/byte_scan.hpp"

namespace planlint {

// A hash of a non-empty name: its length and three of its bytes (the first, the middle and the
// last; operator names differ there).
inline std::size_t short_name_hash(std::string_view n) {
  const std::size_t len = n.size();
  return len * 131u + static_cast<unsigned char>(n[0]) * 31u + static_cast<unsigned char>(n[len / 2]) * 7u +
         static_cast<unsigned char>(n[len - 1]);
}

// Uncached(name), remembered per thread for names of 1 to MaxName bytes (longer ones and the empty
// name are worked out every time). Uncached must depend on the name's bytes only. One cache per
// instantiation (per Uncached).
template <class Answer, std::size_t MaxName, Answer (*Uncached)(std::string_view)>
Answer cached_by_name(std::string_view name) {
  static_assert(MaxName > 0 && MaxName < 0xFF, "a slot's size byte holds the name's size, 0xFF for empty");
  struct Slot {
    std::uint8_t size = 0xFF;  // 0xFF: empty
    char name[MaxName];
    Answer answer;
  };
  constexpr std::size_t kSlots = 256;  // a power of two
  const std::size_t n = name.size();
  if (n == 0 || n > MaxName) return Uncached(name);
  thread_local std::array<Slot, kSlots> cache;
  Slot& slot = cache[short_name_hash(name) & (kSlots - 1)];
  if (slot.size == n && same_short_bytes(slot.name, name.data(), n)) return slot.answer;
  const Answer a = Uncached(name);
  slot.size = static_cast<std::uint8_t>(n);
  std::memcpy(slot.name, name.data(), n);
  slot.answer = a;
  return a;
}

}  // namespace planlint
