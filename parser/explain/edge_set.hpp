// The explain reader's record of the (parent, child) edges it placed: a set of 64-bit keys in one
// open-addressing table (linear probing). A node-based std::unordered_set allocated one node per
// edge, that is per tree line of every plan.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace planlint::explain {

class EdgeSet {
 public:
  // True when `key` was not in the set (and is now).
  bool insert(std::uint64_t key) {
    if (key == kEmpty) {  // the one key that marks a free slot is kept aside
      const bool fresh = !has_empty_key_;
      has_empty_key_ = true;
      return fresh;
    }
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();  // at most 3/4 full
    return put(key);
  }
  // Room for `n` keys without growing (a plan's edges are about its tree lines: counted first).
  void reserve(std::size_t n) {
    std::size_t want = 16;
    while (want * 3 < n * 4) want *= 2;
    if (want > slots_.size()) rehash(want);
  }
  void clear() {
    std::vector<std::uint64_t>().swap(slots_);
    size_ = 0;
    has_empty_key_ = false;
  }
  [[nodiscard]] std::size_t size() const { return size_ + (has_empty_key_ ? 1 : 0); }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};

  static std::size_t slot_of(std::uint64_t k, std::size_t mask) {
    k ^= k >> 33;  // mixes parent (high half) and child (low half) into the low bits
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return static_cast<std::size_t>(k) & mask;
  }
  bool put(std::uint64_t key) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = slot_of(key, mask);; i = (i + 1) & mask) {
      if (slots_[i] == key) return false;
      if (slots_[i] == kEmpty) {
        slots_[i] = key;
        ++size_;
        return true;
      }
    }
  }
  void grow() { rehash(std::max<std::size_t>(16, slots_.size() * 2)); }
  void rehash(std::size_t slots) {  // slots: a power of two
    std::vector<std::uint64_t> old;
    old.swap(slots_);
    slots_.assign(slots, kEmpty);
    size_ = 0;
    for (std::uint64_t k : old)
      if (k != kEmpty) put(k);
  }

  std::vector<std::uint64_t> slots_;
  std::size_t size_ = 0;
  bool has_empty_key_ = false;
};

}  // namespace planlint::explain
