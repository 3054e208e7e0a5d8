// A set of column keys (lower-case, unqualified: model/facts.hpp column_key) as sorted,
// unique Texts. The keys are views into the input or the plan's TextStore, so a scan's column sets
// cost 16 bytes a column instead of a tree node and a string each.
// The list is a CompactVector: built while a BlockScope is open (derive_common_facts), its block
// is in the plan's store, as the keys it lists often are; a std::vector took a heap block a set
// (three a scan), a second one from finish's shrink_to_fit, and a free each at teardown.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>

#include "support/compact_vector.hpp"
#include "support/text.hpp"

namespace planlint {

class ColumnSet {
 public:
  // Building: add() every key, then finish() once (sorts and drops duplicates).
  void add(Text key) { keys_.push_back(key); }
  void reserve(std::size_t n) { keys_.reserve(keys_.size() + n); }  // one block for a known count
  void finish() {
    std::sort(keys_.begin(), keys_.end(), [](const Text& a, const Text& b) { return a.view() < b.view(); });
    keys_.erase(std::unique(keys_.begin(), keys_.end(), [](const Text& a, const Text& b) { return a.view() == b.view(); }),
                keys_.end());
    keys_.shrink_to_fit();
  }

  [[nodiscard]] bool contains(std::string_view key) const {
    auto it = std::lower_bound(keys_.begin(), keys_.end(), key, [](const Text& a, std::string_view k) { return a.view() < k; });
    return it != keys_.end() && it->view() == key;
  }
  [[nodiscard]] std::size_t count(std::string_view key) const { return contains(key) ? 1 : 0; }
  [[nodiscard]] bool empty() const { return keys_.empty(); }
  [[nodiscard]] std::size_t size() const { return keys_.size(); }
  [[nodiscard]] auto begin() const { return keys_.begin(); }
  [[nodiscard]] auto end() const { return keys_.end(); }

 private:
  CompactVector<Text> keys_;
};

}  // namespace planlint
