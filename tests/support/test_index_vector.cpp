// IndexVector, the operators' children and parents: one index inline (no block), two or more in
// a CompactVector block; it must read like the vector it replaces.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "support/index_vector.hpp"
#include "support/text.hpp"

using planlint::BlockScope;
using planlint::IndexVector;
using planlint::TextStore;

namespace {
// A BlockSource over one buffer that counts its blocks, set on the thread as a BlockScope sets
// the plan's store until close() (the buffer, like a plan's store, outlives the lists).
struct CountingArena {
  alignas(16) std::byte buffer[4096];
  std::size_t used = 0;
  int blocks = 0;
  planlint::BlockSource source{&allocate, this};
  const planlint::BlockSource* previous = planlint::detail::block_source;
  bool open = true;
  CountingArena() { planlint::detail::block_source = &source; }
  ~CountingArena() { close(); }
  void close() {
    if (open) planlint::detail::block_source = previous;
    open = false;
  }
  CountingArena(const CountingArena&) = delete;
  CountingArena& operator=(const CountingArena&) = delete;
  static void* allocate(void* owner, std::size_t bytes, std::size_t align) {
    auto* a = static_cast<CountingArena*>(owner);
    const std::size_t at = (a->used + align - 1) / align * align;
    if (at + bytes > sizeof a->buffer) return nullptr;
    a->used = at + bytes;
    ++a->blocks;
    return a->buffer + at;
  }
  bool holds(const IndexVector& v) const {
    const auto* p = reinterpret_cast<const std::byte*>(v.data());
    return p >= buffer && p < buffer + sizeof buffer;
  }
};
std::vector<std::size_t> items(const IndexVector& v) { return v; }
}  // namespace

static_assert(sizeof(IndexVector) == 8);

TEST_CASE("index vector: empty, one index inline, a block from two on") {
  IndexVector v;
  CHECK(v.empty());
  CHECK(v.size() == 0);
  CHECK(v.capacity() == 0);
  CHECK(v.begin() == v.end());
  CHECK_FALSE(v.is_inline());

  v.push_back(7);
  CHECK(v.is_inline());
  CHECK(v.size() == 1);
  CHECK(v.capacity() == 1);
  CHECK(v[0] == 7);
  CHECK(v.front() == 7);
  CHECK(v.back() == 7);
  CHECK(v.end() - v.begin() == 1);
  // The index is a real element: written through [] and iteration.
  v[0] = 8;
  for (auto& i : v) i += 1;
  CHECK(v[0] == 9);

  v.push_back(4);
  CHECK_FALSE(v.is_inline());
  CHECK(items(v) == std::vector<std::size_t>{9, 4});
  v.push_back(v[0]);  // an element of the list itself, while it grows
  v.push_back(0xffffffffu);
  CHECK(items(v) == std::vector<std::size_t>{9, 4, 9, 0xffffffffu});
  CHECK(v.at(3) == 0xffffffffu);
  CHECK_THROWS_AS(v.at(4), std::out_of_range);
  CHECK_THROWS_AS(v.push_back(std::size_t{1} << 32), std::length_error);
  CHECK(v.size() == 4);
}

TEST_CASE("index vector: the inline index moves into a block and back") {
  IndexVector v{5};
  CHECK(v.is_inline());
  v.reserve(1);  // one fits inline: still no block
  CHECK(v.is_inline());
  v.reserve(6);
  CHECK_FALSE(v.is_inline());
  CHECK(v.capacity() == 6);
  CHECK(items(v) == std::vector<std::size_t>{5});
  for (std::size_t i = 1; i < 6; ++i) v.push_back(i);
  CHECK(v.capacity() == 6);
  CHECK(items(v) == std::vector<std::size_t>{5, 1, 2, 3, 4, 5});

  // Erased down to one: inline again; returns where the erased range was.
  auto it = v.erase(v.begin() + 1, v.end());
  CHECK(v.is_inline());
  CHECK(it == v.end());
  CHECK(items(v) == std::vector<std::size_t>{5});
  v.erase(v.begin());
  CHECK(v.empty());
  CHECK_FALSE(v.is_inline());
  CHECK(v.capacity() == 0);

  v = {1, 2, 3};
  v.erase(v.begin());
  CHECK(items(v) == std::vector<std::size_t>{2, 3});
  CHECK_FALSE(v.is_inline());
  v.pop_back();
  CHECK(v.is_inline());
  CHECK(v[0] == 2);
  v.pop_back();
  CHECK(v.empty());

  v = {1, 1, 2};
  v.resize(1);
  CHECK(v.is_inline());
  CHECK(v[0] == 1);
  v.resize(3);
  CHECK(items(v) == std::vector<std::size_t>{1, 0, 0});
  v.clear();
  CHECK(v.empty());
  CHECK(v.capacity() == 0);  // cleared: no block, so one new index goes inline
  v.push_back(3);
  CHECK(v.is_inline());

  // The de-duplication Plan::link does: write in place, then resize.
  IndexVector d{4, 4};
  std::size_t kept = 0;
  for (std::size_t c : d)
    if (kept == 0 || d[kept - 1] != c) d[kept++] = static_cast<std::uint32_t>(c);
  d.resize(kept);
  CHECK(d.is_inline());
  CHECK(d[0] == 4);
}

TEST_CASE("index vector: copy, move, swap, assign, compare") {
  IndexVector one{3};
  IndexVector many{1, 2, 3};
  IndexVector c1 = one;
  IndexVector c2 = many;
  CHECK(c1 == one);
  CHECK(c2 == many);
  CHECK(c1.is_inline());
  c2[0] = 9;  // a deep copy
  CHECK(many[0] == 1);

  IndexVector m1 = std::move(c1);
  IndexVector m2 = std::move(c2);
  CHECK(c1.empty());  // NOLINT: moved from, left empty
  CHECK(c2.empty());  // NOLINT
  CHECK(m1.is_inline());
  CHECK(m1[0] == 3);
  CHECK(items(m2) == std::vector<std::size_t>{9, 2, 3});

  m1.swap(m2);
  CHECK(items(m1) == std::vector<std::size_t>{9, 2, 3});
  CHECK(m2.is_inline());
  CHECK(m2[0] == 3);
  m1 = m2;  // block -> one: the block is freed
  CHECK(m1.is_inline());
  m2 = many;
  m1 = std::move(m2);
  CHECK(m1 == many);

  const std::vector<std::size_t> v{6, 7};
  IndexVector from_vector(v);
  CHECK(from_vector == v);
  IndexVector assigned;
  assigned = v;
  CHECK(assigned == v);
  const std::size_t i = 41;
  assigned = {i + 1};
  CHECK(assigned.is_inline());
  CHECK(assigned == std::vector<std::size_t>{42});
  assigned = {};
  CHECK(assigned.empty());
  assigned.assign(v.begin(), v.end());
  CHECK(assigned == v);
  CHECK_FALSE(assigned == many);
  CHECK(IndexVector{} == IndexVector{});
}

TEST_CASE("index vector: blocks come from the thread's block source, one index takes none") {
  CountingArena arena;
  IndexVector one;
  IndexVector two;
  IndexVector after;
  {
    one.push_back(1);
    CHECK(one.is_inline());
    CHECK(arena.blocks == 0);  // inline: no block at all
    two.push_back(1);
    two.push_back(2);
    CHECK(arena.blocks == 1);
    CHECK(arena.holds(two));
    CHECK(arena.used == 16);  // header and two indexes
    // Erased back to one, the list leaves its arena block (the arena keeps it) and goes inline.
    IndexVector three{1, 2, 3};
    CHECK(arena.holds(three));
    three.erase(three.begin() + 1, three.end());
    CHECK(three.is_inline());
    CHECK(three[0] == 1);
    // A copy of one index takes no block either.
    IndexVector copy = one;
    CHECK(copy.is_inline());
    CHECK(arena.blocks == 2);
  }
  arena.close();
  // Source gone: an arena block still grows, into a heap block.
  for (std::size_t i = 3; i <= 40; ++i) two.push_back(i);
  CHECK(two.size() == 40);
  CHECK(two[0] == 1);
  CHECK(two[39] == 40);
  CHECK_FALSE(arena.holds(two));
  after.push_back(1);
  after.push_back(2);
  CHECK(after.size() == 2);
  CHECK_FALSE(arena.holds(after));
  CHECK(arena.blocks == 2);
}

TEST_CASE("index vector: lists built in a plan's store outlive the scope, not the store") {
  TextStore store;
  std::vector<IndexVector> lists(50);
  {
    const BlockScope blocks(store);
    for (std::size_t i = 0; i < lists.size(); ++i)
      for (std::size_t j = 0; j <= i % 4; ++j) lists[i].push_back(i + j);
  }
  for (std::size_t i = 0; i < lists.size(); ++i) {
    REQUIRE(lists[i].size() == i % 4 + 1);
    CHECK(lists[i].is_inline() == (i % 4 == 0));
    CHECK(lists[i].back() == i + i % 4);
  }
  lists[1].push_back(99);  // grows out of the store
  CHECK(lists[1].size() == 3);
  lists.clear();  // destroyed before the store (as a plan's operators are)
}
