// The explain reader's index from printed operator ids to operators. Spark prints ids as small
// decimal numbers ("(12)", "[codegen id : 3]" is not one of them), so those go to a vector indexed by
// the number; anything else (a leading zero, letters, a huge number from damaged text) to a map.
// A plan of 100,000 operators pays 4 bytes per id instead of a hash node.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace planlint::explain {

class OperatorIds {
 public:
  // The operator printed with `id`, if any.
  [[nodiscard]] std::optional<std::size_t> find(std::string_view id) const {
    if (auto n = number(id)) {
      if (*n < by_number_.size() && by_number_[*n] != 0) return by_number_[*n] - 1;
      return std::nullopt;
    }
    return find_other(id);
  }
  // Records `id` -> `op`; false (and no change) when `id` is already taken. `id` must outlive this
  // index (a view kept in the plan).
  bool add(std::string_view id, std::size_t op) {
    if (auto n = number(id); n && op < kMaxOps) {
      if (*n >= by_number_.size())
        by_number_.resize(std::min(kMaxNumber, std::max<std::size_t>(*n + 1, by_number_.size() * 2)), 0);
      if (by_number_[*n] != 0) return false;
      by_number_[*n] = static_cast<std::uint32_t>(op + 1);
      return true;
    }
    return other_.emplace(id, op).second;
  }
  void clear() {
    by_number_.clear();
    other_.clear();
  }

 private:
  // Numbers below this go to the vector (4 MB at most: a damaged "(99999999)" must not allocate
  // 400 MB); the routing depends on the id alone, so find() and add() always agree.
  static constexpr std::size_t kMaxNumber = 1u << 20;
  static constexpr std::size_t kMaxOps = 0xFFFFFFFEu;
  // The map's look-up, out of line: inlined, its registers were saved and restored on every
  // find() of a plain number too (~20 instructions of ~67 a call, for every detail block).
  [[gnu::noinline]] [[nodiscard]] std::optional<std::size_t> find_other(std::string_view id) const {
    auto it = other_.find(id);
    if (it == other_.end()) return std::nullopt;
    return it->second;
  }
  [[nodiscard]] static std::optional<std::size_t> number(std::string_view id) {
    if (id.empty() || id.size() > 7 || (id[0] == '0' && id.size() > 1)) return std::nullopt;
    std::size_t n = 0;
    for (char c : id) {
      if (c < '0' || c > '9') return std::nullopt;
      n = n * 10 + static_cast<std::size_t>(c - '0');
    }
    if (n >= kMaxNumber) return std::nullopt;
    return n;
  }
  std::vector<std::uint32_t> by_number_;  // id -> operator index + 1 (0: none)
  std::unordered_map<std::string_view, std::size_t> other_;
};

}  // namespace planlint::explain
