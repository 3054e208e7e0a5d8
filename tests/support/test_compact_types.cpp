// The compact members of Operator: CompactOptional (rows, duration_ms, reuses, codegen_stage),
// CompactVector (children, parents, fields, metrics) and SharedPart (scan) must behave like the
// std types they replace.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "support/compact_optional.hpp"
#include "support/compact_vector.hpp"
#include "model/plan.hpp"
#include "support/text.hpp"
#include "support/shared_part.hpp"
#include "support/packed_text.hpp"
#include "support/out_of_line.hpp"

using namespace planlint;

TEST_CASE("OptionalDouble: empty, values, and a NaN value is not empty") {
  OptionalDouble d;
  CHECK_FALSE(d.has_value());
  CHECK_FALSE(static_cast<bool>(d));
  CHECK(d == std::nullopt);
  CHECK(d.value_or(-1) == -1);
  CHECK_THROWS_AS((void)d.value(), std::bad_optional_access);
  CHECK(static_cast<std::optional<double>>(d) == std::nullopt);

  d = 2.5;
  REQUIRE(d);
  CHECK(*d == 2.5);
  CHECK(d == 2.5);
  CHECK(d.value() == 2.5);
  CHECK(d.value_or(-1) == 2.5);
  CHECK(static_cast<std::optional<double>>(d) == std::optional<double>(2.5));
  d = 0.0;
  CHECK(d.has_value());  // zero is a value

  // A computed NaN is a value (std::optional<double> holding NaN), not "empty".
  double zero = 0.0;
  d = zero / zero;
  CHECK(d.has_value());
  CHECK(std::isnan(*d));
  d = std::numeric_limits<double>::quiet_NaN();
  CHECK(d.has_value());
  d = -std::numeric_limits<double>::quiet_NaN();
  CHECK(d.has_value());
  d = std::numeric_limits<double>::infinity();
  CHECK(d.has_value());

  // Even the bits that mean "empty", stored as a value, read back as a value (a NaN).
  d = EmptyDoubleIsNaN::empty();
  CHECK(d.has_value());
  CHECK(std::isnan(*d));

  d = std::nullopt;
  CHECK_FALSE(d.has_value());
  d = std::optional<double>(7);
  CHECK(d == 7);
  d = std::optional<double>();
  CHECK_FALSE(d);
}

TEST_CASE("OptionalDouble compares like std::optional<double>") {
  OptionalDouble a, b;
  CHECK(a == b);
  CHECK(a == std::optional<double>());
  b = 1;
  CHECK_FALSE(a == b);
  CHECK_FALSE(b == std::optional<double>());
  CHECK(b == std::optional<double>(1));
  a = 1;
  CHECK(a == b);
  CHECK_FALSE(a == 2);
  a = std::numeric_limits<double>::quiet_NaN();
  CHECK_FALSE(a == a);  // NaN != NaN, as for std::optional
  // A conditional with a std::optional takes the std::optional type.
  std::optional<double> other = 3;
  std::optional<double> picked = b ? b : other;
  CHECK(picked == std::optional<double>(1));
  static_assert(sizeof(OptionalDouble) == 8);
}

TEST_CASE("OptionalIndex: SIZE_MAX means empty and cannot be stored") {
  OptionalIndex i;
  CHECK_FALSE(i);
  CHECK(i == std::nullopt);
  i = 0;
  REQUIRE(i);
  CHECK(*i == 0);
  i = SIZE_MAX - 1;
  CHECK(i.has_value());
  CHECK(*i == SIZE_MAX - 1);
  CHECK_THROWS_AS(i = SIZE_MAX, std::out_of_range);
  CHECK(*i == SIZE_MAX - 1);  // unchanged
  i.reset();
  CHECK_FALSE(i.has_value());
  static_assert(sizeof(OptionalIndex) == 8);
}

TEST_CASE("OptionalIndex32: UINT32_MAX means empty and cannot be stored; an operator's reused index round-trips") {
  OptionalIndex32 i;
  CHECK_FALSE(i);
  const std::size_t far = UINT32_MAX - 1;  // set from a size_t, as the readers do
  i = static_cast<std::uint32_t>(far);
  REQUIRE(i);
  CHECK(*i == far);
  CHECK_THROWS_AS(i = UINT32_MAX, std::out_of_range);
  CHECK(*i == far);  // unchanged
  Operator op;
  op.reuses = 3'000'000'000U;
  op.index = 4'000'000'000U;
  const Operator copy = op;
  REQUIRE(copy.reuses);
  CHECK(std::size_t{*copy.reuses} == 3'000'000'000U);
  CHECK(std::size_t{copy.index} == 4'000'000'000U);
  op.reuses = std::nullopt;
  CHECK_FALSE(op.reuses);
  static_assert(sizeof(OptionalIndex32) == 4);
}

TEST_CASE("SourcePos: a field keeps where its range starts") {
  const SourceRange r{12, 7, 14, 30};
  Field f;
  CHECK_FALSE(f.loc.known());
  f.loc = r;
  CHECK(f.loc.known());
  CHECK(f.loc.line == 12);
  CHECK(f.loc.column == 7);
  const Field g = f;
  CHECK((g.loc.line == 12 && g.loc.column == 7));
  static_assert(sizeof(SourcePos) == 8);
}

TEST_CASE("OptionalInt32: INT32_MIN means empty; converts from std::optional<int>") {
  OptionalInt32 c;
  CHECK_FALSE(c);
  c = std::optional<int>(3);
  CHECK(c == 3);
  c = std::optional<int>();
  CHECK_FALSE(c.has_value());
  c = INT32_MAX;
  CHECK(*c == INT32_MAX);
  c = 0;
  CHECK(c.has_value());
  CHECK_THROWS_AS(c = INT32_MIN, std::out_of_range);
  CHECK(c == 0);
  static_assert(sizeof(OptionalInt32) == 4);
}

TEST_CASE("CompactVector of indexes works like std::vector") {
  CompactVector<std::size_t> v;
  CHECK(v.empty());
  CHECK(v.size() == 0);
  CHECK(v.begin() == v.end());
  CHECK(v == std::vector<std::size_t>{});
  for (std::size_t i = 0; i < 100; ++i) v.push_back(i);
  CHECK(v.size() == 100);
  CHECK(v.front() == 0);
  CHECK(v.back() == 99);
  CHECK(v[42] == 42);
  CHECK_THROWS_AS((void)v.at(100), std::out_of_range);
  v.erase(v.begin() + 10, v.end());
  CHECK(v == std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  v.erase(v.begin());
  v.insert(v.begin() + 2, 77);
  CHECK(v == std::vector<std::size_t>{1, 2, 77, 3, 4, 5, 6, 7, 8, 9});
  std::vector<std::size_t> more{100, 101};
  v.insert(v.begin(), more.begin(), more.end());
  CHECK(v.to_vector() == std::vector<std::size_t>{100, 101, 1, 2, 77, 3, 4, 5, 6, 7, 8, 9});
  v = {3, 1, 2};
  CompactVector<std::size_t> copy = v;
  copy.push_back(copy[0]);  // an element of the vector itself, while it grows
  CHECK(copy == CompactVector<std::size_t>{3, 1, 2, 3});
  CHECK(v == CompactVector<std::size_t>{3, 1, 2});
  CompactVector<std::size_t> moved = std::move(copy);
  CHECK(moved.size() == 4);
  CHECK(copy.empty());  // NOLINT: moved-from is empty
  v.clear();
  CHECK(v.empty());
  v.shrink_to_fit();
  CHECK(v.capacity() == 0);
  static_assert(sizeof(CompactVector<std::size_t>) == 8);
}

TEST_CASE("CompactVector holds non-trivial elements") {
  CompactVector<std::string> v;
  const std::string longer(100, 'x');
  for (int i = 0; i < 20; ++i) v.emplace_back(longer + std::to_string(i));
  v.push_back(v[3]);  // self-reference while growing
  CHECK(v.size() == 21);
  CHECK(v.back() == longer + "3");
  CompactVector<std::string> w = v;
  w.erase(w.begin() + 1, w.begin() + 20);
  CHECK(w.size() == 2);
  CHECK(w[0] == longer + "0");
  CHECK(w[1] == longer + "3");
  w.resize(4);
  CHECK(w[3].empty());
  w = v;
  CHECK(w.size() == 21);
  std::size_t n = 0;
  for (const std::string& s : v) n += s.size();
  CHECK(n > 2000);
}

namespace {
struct Counted {
  static inline int alive = 0;
  Counted() { ++alive; }
  Counted(const Counted&) = delete;
  ~Counted() { --alive; }
  int value = 0;
  std::vector<std::string> names;
};
}  // namespace

TEST_CASE("SharedPart: copies share one object, the last one frees it") {
  {
    SharedPart<Counted> a;
    CHECK_FALSE(a);
    CHECK(a == nullptr);
    CHECK(a.get() == nullptr);
    CHECK(a.use_count() == 0);
    a = SharedPart<Counted>::make();
    REQUIRE(a);
    CHECK(Counted::alive == 1);
    CHECK(a->value == 0);  // value-initialised, like std::make_shared
    CHECK(a.use_count() == 1);
    SharedPart<Counted> b = a;
    CHECK(a == b);
    CHECK(a.use_count() == 2);
    b->value = 7;  // a write through one copy is seen by the other (as with std::shared_ptr)
    b->names.push_back("x");
    CHECK(a->value == 7);
    CHECK((*a).names.size() == 1);
    const SharedPart<Counted> c = std::move(b);
    CHECK_FALSE(b);  // NOLINT: moved-from is empty
    CHECK(a.use_count() == 2);
    c->value = 8;  // a const SharedPart gives a non-const object, like std::shared_ptr
    CHECK(a->value == 8);
    a.reset();
    CHECK(Counted::alive == 1);  // c still holds it
    CHECK(c.use_count() == 1);
    a = c;
    SharedPart<Counted>& same = a;
    a = same;  // self-assignment keeps it
    CHECK(a.use_count() == 2);
    CHECK(Counted::alive == 1);
  }
  CHECK(Counted::alive == 0);
  static_assert(sizeof(SharedPart<Counted>) == 8);
}

TEST_CASE("compact vector: the first block holds 16 bytes of elements, then grows by half") {
  struct Big {
    char bytes[152];  // a parsed expression's size: a list of them usually holds one
  };
  CompactVector<Big> big;
  big.push_back(Big{});
  CHECK(big.capacity() == 1);
  big.push_back(Big{});
  CHECK(big.capacity() == 3);  // 2 needed, and half as much again
  big.push_back(Big{});
  CHECK(big.capacity() == 3);
  big.push_back(Big{});
  CHECK(big.capacity() == 6);
  CompactVector<std::uint64_t> small;
  small.push_back(1);
  CHECK(small.capacity() == 2);
  small.push_back(2);
  CHECK(small.capacity() == 2);
  small.push_back(3);
  CHECK(small.capacity() == 4);
  CompactVector<std::uint8_t> bytes;
  bytes.push_back(1);
  CHECK(bytes.capacity() == 16);
  // reserve gives exactly what is asked: one block for a list whose size is known.
  CompactVector<Big> known;
  known.reserve(5);
  CHECK(known.capacity() == 5);
}

TEST_CASE("compact vector: blocks come from the store while a BlockScope is open") {
  TextStore store;
  CompactVector<std::string> in_store;  // non-trivial elements: destroyed, their block not freed
  CompactVector<std::size_t> heap;
  {
    const BlockScope blocks(store);
    in_store.reserve(100);  // the store's first block
    for (int i = 0; i < 40; ++i) in_store.push_back("element number " + std::to_string(i));
    {
      TextStore other;
      const BlockScope nested(other);  // a nested scope, then the outer one is back
      CompactVector<std::size_t> there{1, 2, 3};
      CHECK(there.size() == 3);
    }
    in_store.erase(in_store.begin(), in_store.begin() + 10);
    CHECK(in_store.size() == 30);
    // An arena block is kept by shrink_to_fit (the heap block of the same list would shrink).
    in_store.shrink_to_fit();
    CHECK(in_store.capacity() == 100);
    CHECK(in_store.front() == "element number 10");
    // A large list takes a heap block even inside the scope (it is freed with its vector).
    CompactVector<std::size_t> large;
    large.reserve(5000);
    large.push_back(1);
    large.shrink_to_fit();
    CHECK(large.capacity() == 1);
  }
  // Scope closed: new blocks come from the heap again, and shrink_to_fit gives room back.
  heap.reserve(10);
  heap.push_back(7);
  heap.shrink_to_fit();
  CHECK(heap.capacity() == 1);
  // A vector whose block came from the store still grows (into a heap block) after the scope.
  for (int i = 0; i < 200; ++i) in_store.push_back("more");
  CHECK(in_store.size() == 230);
  CHECK(in_store[0] == "element number 10");
  CHECK(in_store[29] == "element number 39");
  CHECK(in_store.back() == "more");
  in_store.shrink_to_fit();  // a heap block now: shrinks
  CHECK(in_store.capacity() == 230);
}

namespace {
// An element that says it owns nothing but lists, and counts its destructions.
struct ListOnlyProbe {
  static inline int destroyed = 0;
  CompactVector<std::uint32_t> inner;
  ListOnlyProbe() = default;
  ListOnlyProbe(ListOnlyProbe&&) noexcept = default;
  ~ListOnlyProbe() { ++destroyed; }
  using releases_only_list_parts = void;
};
}  // namespace

TEST_CASE("compact vector: heap parts are counted; lists of list-only elements skip the walk only while none lives") {
  using detail::heap_list_parts;
  const std::size_t base = heap_list_parts.load();
  const std::string long_bytes(70000, 'x');  // a text too long for the packed word
  {
    CompactVector<std::size_t> heap{1, 2, 3};
    CHECK(heap_list_parts.load() == base + 1);
    PackedText long_text(Text::stable(long_bytes));  // a heap view of its own
    CHECK(heap_list_parts.load() == base + 2);
    PackedText copy = long_text;
    CHECK(heap_list_parts.load() == base + 3);
    copy = Text("short");
    CHECK(heap_list_parts.load() == base + 2);
  }
  CHECK(heap_list_parts.load() == base);

  TextStore store;
  // A store list whose element holds a heap block (grown after the scope closed): the walk runs
  // and frees it.
  ListOnlyProbe::destroyed = 0;
  {
    CompactVector<ListOnlyProbe> probes;
    {
      const BlockScope blocks(store);
      probes.emplace_back();
      probes.emplace_back();
      probes[0].inner.push_back(1);  // in the store
    }
    for (std::uint32_t i = 0; i < 40; ++i) probes[1].inner.push_back(i);  // a heap block now
    CHECK(heap_list_parts.load() == base + 1);
  }
  CHECK(ListOnlyProbe::destroyed == 2);
  CHECK(heap_list_parts.load() == base);

  // Everything in the store: the elements are not visited when no heap part lives anywhere.
  ListOnlyProbe::destroyed = 0;
  {
    const BlockScope blocks(store);
    CompactVector<ListOnlyProbe> probes;
    probes.emplace_back().inner.push_back(5);
  }
  CHECK(ListOnlyProbe::destroyed == (base == 0 ? 0 : 1));

  // The model's fields: a field list in the store with an expression grown on the heap later.
  {
    CompactVector<Field> fields;
    {
      const BlockScope blocks(store);
      fields.emplace_back().exprs.emplace_back().root.emplace();
    }
    for (int i = 0; i < 5; ++i) fields[0].exprs[0].root->args.emplace_back();  // heap
    fields[0].key = Text::stable(long_bytes);                                      // heap view
    CHECK(heap_list_parts.load() == base + 2);
  }
  CHECK(heap_list_parts.load() == base);
}

TEST_CASE("plan: operators whose lists live in the plan's store are destroyed before it") {
  // Under ASan a store freed before its operators is a use after free; here the order is checked
  // by building such a plan, copying, moving and assigning it.
  auto make = [] {
    Plan p;
    const BlockScope blocks(p.text_store());
    for (std::size_t i = 0; i < 50; ++i) {
      Operator& op = p.ops.emplace_back();
      op.name = p.keep("Project " + std::to_string(i));
      if (i > 0) op.children.push_back(i - 1);
    }
    p.link();
    return p;
  };
  Plan a = make();
  Plan b = a;              // copy: shares the store, copies the lists
  Plan c = std::move(a);   // move: takes the store with the lists
  b = make();              // assignment: the old operators go before the old store
  c = std::move(b);
  REQUIRE(c.ops.size() == 50);
  CHECK(c.ops[10].children.size() == 1);
  CHECK(c.ops[9].parents.size() == 1);
  CHECK(c.ops[49].name == "Project 49");
}

TEST_CASE("PackedText: 8 bytes, reads back the exact view, short and long") {
  static_assert(sizeof(PackedText) == 8);
  PackedText empty;
  CHECK(empty.empty());
  CHECK(empty.view().empty());
  const std::string input = "Left keys [1]: [a#1]";
  PackedText key;
  key = Text::stable(std::string_view(input).substr(0, 9));
  CHECK(key == "Left keys");
  CHECK(key.data() == input.data());  // a view of the same bytes, not a copy
  CHECK(key.size() == 9);
  key = "Output";
  CHECK(key == "Output");
  // 65,535 bytes or more: kept through a view of its own, still the same bytes.
  for (std::size_t n : {std::size_t{65'534}, std::size_t{65'535}, std::size_t{200'000}}) {
    const std::string big(n, 'x');
    PackedText t;
    t = Text::stable(big);
    CHECK(t.size() == n);
    CHECK(t.data() == big.data());
    PackedText copy = t;
    CHECK(copy.size() == n);
    CHECK(copy.data() == big.data());
    PackedText assigned;
    assigned = copy;
    CHECK(assigned == t);
    PackedText moved = std::move(copy);
    CHECK(moved.size() == n);
    t = "short";
    CHECK(t == "short");
    CHECK(assigned.size() == n);
  }
  // Compares and converts like a Text.
  const Text text = Text::stable("Output");
  key = text;
  CHECK(key == text);
  CHECK(text == key);
  CHECK(key != "Input");
  const Text back = key;
  CHECK(back.data() == text.data());
  CHECK(std::string("> ") + key == "> Output");
}

TEST_CASE("PackedView: 8 bytes copied as a word, short and long texts read back exactly") {
  static_assert(sizeof(PackedView) == 8);
  static_assert(std::is_trivially_copyable_v<PackedView> && std::is_trivially_destructible_v<PackedView>);
  PackedView empty;
  CHECK(empty.empty());
  const std::string input = "Left keys [1]: [a#1]";
  PackedView key = Text::stable(std::string_view(input).substr(0, 9));
  CHECK(key == "Left keys");
  CHECK(key.data() == input.data());  // a view of the same bytes, not a copy
  key = "Output";
  CHECK(key == "Output");
  CHECK(PackedView::short_parts(input.data(), input.size()));
  const PackedView part = PackedView::short_part(input.data() + 5, 4);
  CHECK(part == "keys");
  CHECK(part.data() == input.data() + 5);
  // 65,535 bytes or more: the view out of line, in the store of the open BlockScope (or, with
  // none open, kept for the process); copies read the same bytes.
  TextStore store;
  for (std::size_t n : {std::size_t{65'534}, std::size_t{65'535}, std::size_t{200'000}}) {
    const std::string big(n, 'x');
    CHECK(PackedView::short_parts(big.data(), big.size()) == (n < 65'535));
    PackedView scoped;
    {
      const BlockScope blocks(store);
      scoped = Text::stable(big);
    }
    PackedView unscoped = Text::stable(big);
    for (const PackedView& t : {scoped, unscoped}) {
      CHECK(t.size() == n);
      CHECK(t.data() == big.data());
      const PackedView copy = t;
      CHECK(copy == t);
      CHECK(copy.data() == big.data());
    }
  }
  const Text text = Text::stable("Output");
  key = text;
  CHECK(key == text);
  CHECK(text == key);
  const Text back = key;
  CHECK(back.data() == text.data());
  CHECK(std::string("> ") + key == "> Output");
}

TEST_CASE("OutOfLine: in the store while a BlockScope is open, on the heap otherwise") {
  TextStore store;
  OutOfLine<std::string> in_store;
  OutOfLine<std::string> on_heap;
  CHECK(!in_store.present());
  CHECK(in_store->empty());  // reading an absent part allocates nothing
  {
    const BlockScope blocks(store);
    in_store.edit() = std::string(100, 'a');  // a string of its own heap block: destroyed with the part
    CHECK(in_store.present());
    CHECK(in_store.in_store());
  }
  on_heap = std::string("heap");
  CHECK(on_heap.present());
  CHECK(!on_heap.in_store());
  // A copy made outside a scope is on the heap, with the same value.
  OutOfLine<std::string> copy = in_store;
  CHECK(!copy.in_store());
  CHECK(*copy == std::string(100, 'a'));
  // A move takes the part where it is.
  OutOfLine<std::string> moved = std::move(in_store);
  CHECK(!in_store.present());
  CHECK(moved.in_store());
  CHECK(moved->size() == 100);
  // Assigning a value to a present part writes into it.
  moved = std::string("b");
  CHECK(moved.in_store());
  CHECK(*moved == "b");
  copy = moved;
  CHECK(*copy == "b");
  moved.reset();
  CHECK(!moved.present());
  CHECK(moved->empty());
  // An operator's facts filled inside the scope of its plan's store.
  Plan p;
  p.ops.emplace_back();
  {
    const BlockScope blocks(p.text_store());
    p.ops[0].facts.edit().comet = true;
  }
  CHECK(p.ops[0].facts.in_store());
  CHECK(p.ops[0].facts->comet);
  const Plan q = p;  // a copied plan copies the part (to the heap: no scope is open)
  CHECK(q.ops[0].facts->comet);
  CHECK(!q.ops[0].facts.in_store());
}

TEST_CASE("model layout: operators, fields, joins and metrics keep their sizes") {
  CHECK(sizeof(Operator) <= 144);
  CHECK(sizeof(ParsedExpr) <= 72);
  CHECK(sizeof(Field) <= 48);
  CHECK(sizeof(JoinInfo) <= 32);
  CHECK(sizeof(Metric) <= 32);
  // A join names its key and condition fields instead of copying their parsed expressions.
  Operator op;
  op.kind = OpKind::Join;
  CHECK(op.left_keys().empty());
  CHECK(op.join_condition() == nullptr);
  Field keys;
  keys.key = "Left keys";
  keys.exprs.push_back(ParsedExpr{});
  keys.exprs.back().text = "k#1";
  op.fields.push_back(std::move(keys));
  Field cond;
  cond.key = "Join condition";
  cond.exprs.push_back(ParsedExpr{});
  cond.exprs.back().text = "(a#1 < b#2)";
  op.fields.push_back(std::move(cond));
  op.join.edit().left_keys_field = 0;
  op.join.edit().condition_field = 1;
  REQUIRE(op.left_keys().size() == 1);
  CHECK(op.left_keys()[0].text == "k#1");
  CHECK(op.left_keys().data() == op.fields[0].exprs.data());
  CHECK(op.right_keys().empty());
  REQUIRE(op.join_condition() != nullptr);
  CHECK(op.join_condition()->text == "(a#1 < b#2)");
  const Operator copy = op;  // a copy reads its own fields
  CHECK(copy.left_keys().data() == copy.fields[0].exprs.data());
  // Scans: absent names read as empty and cost nothing.
  CHECK(op.table().empty());
  CHECK_FALSE(op.scan_names.present());
  op.set_table("db.t");
  op.set_scan_format("parquet");
  CHECK(op.table() == "db.t");
  CHECK(op.scan_format() == "parquet");
}

TEST_CASE("Operator: the runtime parts read empty without a block, and are written through edit_runtime") {
  Operator op;
  CHECK_FALSE(op.has_runtime());
  CHECK(op.metrics().empty());
  CHECK_FALSE(op.rows());
  CHECK_FALSE(op.duration_ms());
  CHECK_FALSE(op.stats().present());
  CHECK(op.extra()->tag.empty());
  CHECK(op.hints()->empty());
  CHECK(op.metric_value(Metric::OutputRows) == std::nullopt);
  CHECK_FALSE(op.has_runtime());  // reading created nothing
  op.edit_runtime().rows = 12;
  op.edit_runtime().metrics.push_back({"Number of output rows", "", 12, MetricUnit::Count, false, Metric::OutputRows});
  op.edit_runtime().extra.edit().tag = "PHOTON_FILTER_EXEC";
  REQUIRE(op.has_runtime());
  CHECK(*op.rows() == 12);
  CHECK(op.metric_value(Metric::OutputRows) == 12);
  CHECK(op.extra()->tag == "PHOTON_FILTER_EXEC");
  const Operator copy = op;  // a copy has its own parts
  op.edit_runtime().rows = 13;
  CHECK(*copy.rows() == 12);
  CHECK(copy.metrics().size() == 1);
  CHECK(copy.extra()->tag == "PHOTON_FILTER_EXEC");
  // The block comes from the plan's store while a scope is open, as the other parts do.
  Plan p;
  p.ops.emplace_back();
  {
    const BlockScope blocks(p.text_store());
    p.ops[0].edit_runtime().duration_ms = 5;
  }
  CHECK(*p.ops[0].duration_ms() == 5);
  const Plan q = p;
  CHECK(*q.ops[0].duration_ms() == 5);
}

TEST_CASE("ItemSpans: one word an item, wide once an item does not fit 16 bits") {
  ItemSpans s;
  CHECK(s.empty());
  CHECK(s.size() == 0);
  CHECK_FALSE(s.wide());
  s.push_back({1, 3});
  s.push_back({6, 0});
  s.push_back({0xFFFE, 0xFFFF});  // the largest narrow item
  REQUIRE(s.size() == 3);
  CHECK_FALSE(s.wide());
  CHECK(s.end_word() - s.first_word() == 3);  // 4 bytes an item
  CHECK(s[0].begin == 1);
  CHECK(s[0].size == 3);
  CHECK(s[1].begin == 6);
  CHECK(s[1].size == 0);
  CHECK(s[2].begin == 0xFFFE);
  CHECK(s[2].size == 0xFFFF);
  s.push_back({0xFFFF, 1});  // begins past 16 bits (0xFFFF would be the wide marker's begin)
  REQUIRE(s.wide());
  REQUIRE(s.size() == 4);
  CHECK(s[0].begin == 1);
  CHECK(s[2].begin == 0xFFFE);
  CHECK(s[2].size == 0xFFFF);
  CHECK(s[3].begin == 0xFFFF);
  CHECK(s[3].size == 1);
  s.push_back({2, 0x10000});  // wide stays wide; a long item
  CHECK(s.size() == 5);
  CHECK(s[4].begin == 2);
  CHECK(s[4].size == 0x10000);
  ItemSpans c = s;  // copies keep the form
  CHECK(c.wide());
  CHECK(c.size() == 5);
  CHECK(c[3].begin == 0xFFFF);
  s.clear();
  CHECK(s.empty());
  CHECK_FALSE(s.wide());
  s.push_back({0, 70000});  // a first item that does not fit
  CHECK(s.wide());
  CHECK(s.size() == 1);
  CHECK(s[0].size == 70000);
}

TEST_CASE("ItemSpans::assign: the parts of a value, the same as pushed one by one") {
  // Values of 65,534 bytes (every part narrow, written in one go) and 65,535 and more (item by
  // item: a part may not fit), with parts at the start, the middle and the very end.
  for (const std::size_t size : {std::size_t{0}, std::size_t{10}, std::size_t{0xFFFE}, std::size_t{0xFFFF}, std::size_t{70000}}) {
    const std::string value(size, 'v');
    const std::string_view v = value;
    std::vector<std::string_view> parts;
    if (size > 0) {
      parts.push_back(v.substr(0, 1));
      parts.push_back(v.substr(size / 2, size - size / 2));  // to the end
      parts.push_back(v.substr(size - 1, 1));                // the last byte
      parts.push_back(v.substr(size, 0));                    // empty, at the end
      parts.push_back(v.substr(0, size));                    // the whole value
    }
    ItemSpans one_by_one;
    for (const std::string_view p : parts)
      one_by_one.push_back({static_cast<std::uint32_t>(p.data() - v.data()), static_cast<std::uint32_t>(p.size())});
    ItemSpans assigned;
    assigned.push_back({5, 5});  // replaced
    assigned.assign(v, parts);
    CAPTURE(size);
    REQUIRE(assigned.size() == parts.size());
    CHECK(assigned.wide() == one_by_one.wide());
    CHECK(assigned.wide() == (size >= 0xFFFF));
    for (std::size_t i = 0; i < parts.size(); ++i) {
      CHECK(assigned[i].begin == one_by_one[i].begin);
      CHECK(assigned[i].size == one_by_one[i].size);
      CHECK(v.substr(assigned[i].begin, assigned[i].size).data() == parts[i].data());
    }
  }
  ItemSpans none;
  none.assign("", {});
  CHECK(none.empty());
  CHECK_FALSE(none.wide());
}

TEST_CASE("CompactVector::assign_for_overwrite: exactly n elements in place of those held, one block when empty") {
  // In the store (a BlockScope open) and on the heap: an empty vector takes one block of exactly
  // `n`, a vector that holds elements keeps its block when it has room (as clear() and
  // append_for_overwrite(n) do) and grows to exactly `n` otherwise.
  for (const bool in_store : {false, true}) {
    TextStore store;
    std::optional<BlockScope> scope;
    if (in_store) scope.emplace(store);
    const std::size_t heap_before = detail::heap_list_parts.load();
    CompactVector<std::uint32_t> v;
    std::uint32_t* w = v.assign_for_overwrite(3);
    REQUIRE(v.size() == 3);
    CHECK(v.capacity() == 3);
    CHECK(w == v.data());
    CHECK(detail::heap_list_parts.load() == heap_before + (in_store ? 0 : 1));
    w[0] = 7;
    w[1] = 8;
    w[2] = 9;
    CHECK(v == CompactVector<std::uint32_t>{7, 8, 9});
    const std::uint32_t* block = v.data();
    w = v.assign_for_overwrite(2);  // room: the same block, two elements
    CHECK(w == block);
    REQUIRE(v.size() == 2);
    CHECK(v.capacity() == 3);
    w[0] = 1;
    w[1] = 2;
    CHECK(v == CompactVector<std::uint32_t>{1, 2});
    w = v.assign_for_overwrite(5);  // no room: a block of exactly 5
    REQUIRE(v.size() == 5);
    CHECK(v.capacity() == 5);
    for (std::uint32_t k = 0; k < 5; ++k) w[k] = 10 + k;
    CHECK(v == CompactVector<std::uint32_t>{10, 11, 12, 13, 14});
    v.assign_for_overwrite(0);  // none: the block stays, empty
    CHECK(v.empty());
    CHECK(v.capacity() == 5);
    CompactVector<std::uint32_t> none;
    none.assign_for_overwrite(0);  // none into an empty vector: still no block
    CHECK(none.empty());
    CHECK(none.capacity() == 0);
    CHECK(none.data() == nullptr);
  }
}

TEST_CASE("ItemSpans::assign_narrow: the caller's words in place of the items held, narrow or wide") {
  TextStore store;
  const BlockScope blocks(store);
  ItemSpans s;
  s.push_back({0, 70000});  // wide before
  REQUIRE(s.wide());
  std::uint32_t* w = s.assign_narrow(2);
  w[0] = 1 | (3u << 16);
  w[1] = 6 | (0u << 16);
  REQUIRE(s.size() == 2);
  CHECK_FALSE(s.wide());
  CHECK(s[0].begin == 1);
  CHECK(s[0].size == 3);
  CHECK(s[1].begin == 6);
  CHECK(s[1].size == 0);
  CHECK(s.end_word() - s.first_word() == 2);
  s.assign_narrow(0);
  CHECK(s.empty());
  ItemSpans fresh;
  fresh.assign_narrow(1)[0] = 0xFFFE | (0xFFFFu << 16);  // the largest narrow item
  REQUIRE(fresh.size() == 1);
  CHECK(fresh[0].begin == 0xFFFE);
  CHECK(fresh[0].size == 0xFFFF);
}

TEST_CASE("TextStore::allocate_block: aligned, apart, a new block when full, the heap (nullptr) for a large list") {
  // Blocks of many sizes and alignments, as CompactVectors ask for them: each aligned as asked,
  // none overlapping another, every one writable (a request the current block's rest cannot hold
  // while that rest is not small goes to the heap: nullptr); a request larger than a quarter of
  // the largest block goes to the heap; a new block is started when the current one is full.
  TextStore store;
  struct Taken {
    std::uintptr_t at;
    std::size_t size;
  };
  std::vector<Taken> taken;
  std::uint32_t x = 12345;
  for (int k = 0; k < 20000; ++k) {
    x = x * 1103515245u + 12345u;
    const std::size_t align = std::size_t{1} << ((x >> 8) % 5);  // 1 to 16
    const std::size_t n = 1 + (x >> 16) % 300;
    auto* p = static_cast<unsigned char*>(store.allocate_block(n, align));
    // nullptr (the heap) only while a small block's rest is still large: rare once blocks grow.
    if (p == nullptr) continue;
    CHECK(reinterpret_cast<std::uintptr_t>(p) % align == 0);
    std::memset(p, k & 0xFF, n);
    taken.push_back({reinterpret_cast<std::uintptr_t>(p), n});
  }
  CHECK(taken.size() > 19000);
  std::sort(taken.begin(), taken.end(), [](const Taken& a, const Taken& b) { return a.at < b.at; });
  for (std::size_t k = 1; k < taken.size(); ++k) REQUIRE(taken[k - 1].at + taken[k - 1].size <= taken[k].at);
  TextStore fresh;  // the first request starts the first block, up to the largest from a store
  CHECK(fresh.allocate_block(64 * 1024 / 4 + 1) == nullptr);
  void* first = fresh.allocate_block(64 * 1024 / 4);
  REQUIRE(first != nullptr);
  std::memset(first, 1, 64 * 1024 / 4);
  void* next = fresh.allocate_block(8, 8);  // the block is full: a new one
  REQUIRE(next != nullptr);
  CHECK((static_cast<char*>(next) >= static_cast<char*>(first) + 64 * 1024 / 4 || static_cast<char*>(next) + 8 <= first));
}

TEST_CASE("FieldItems: narrow and wide lists read the same items") {
  for (const std::size_t pad : {std::size_t{0}, std::size_t{70000}}) {
    Field f;
    TextStore store;
    std::string value = "[" + std::string(pad, ' ') + "a#1, bb#2, c#3]";
    f.value = store.keep(value);
    f.is_list = true;
    const std::string_view v = f.value;
    const std::size_t at = v.find("a#1");
    f.add_item(v.substr(at, 3));
    f.add_item(v.substr(at + 5, 4));
    f.add_item(v.substr(at + 11, 3));
    CHECK(f.item_spans.wide() == (pad != 0));
    const FieldItems items = f.items();
    REQUIRE(items.size() == 3);
    CHECK(items[0] == "a#1");
    CHECK(items[1] == "bb#2");
    CHECK(items[2] == "c#3");
    CHECK(items == std::vector<std::string>{"a#1", "bb#2", "c#3"});
    std::vector<std::string> seen;
    for (std::string_view it : items) seen.emplace_back(it);
    CHECK(seen == items.strings());
    CHECK(seen == std::vector<std::string>{"a#1", "bb#2", "c#3"});
  }
  // set_items builds the value and its items (narrow for a short list).
  Field g;
  TextStore store;
  g.set_items(store, {"x", "yy"});
  CHECK(g.value == "[x, yy]");
  CHECK(g.items() == std::vector<std::string>{"x", "yy"});
  CHECK_FALSE(g.item_spans.wide());
}

TEST_CASE("OptionalExpr: an expression or none in the expression's size") {
  OptionalExpr o;
  CHECK_FALSE(o.has_value());
  CHECK_FALSE(static_cast<bool>(o));
  CHECK(o == std::nullopt);
  CHECK_THROWS_AS((void)o.value(), std::bad_optional_access);
  Expr e;
  e.kind = ExprKind::Attribute;
  e.name = "a";
  e.args.push_back(Expr{});
  o = std::move(e);
  REQUIRE(o);
  CHECK(o->kind == ExprKind::Attribute);
  CHECK((*o).name == "a");
  CHECK(o.value().args.size() == 1);
  const OptionalExpr copy = o;
  CHECK(copy->args.size() == 1);
  o.reset();
  CHECK_FALSE(o);
  CHECK(copy);
  Expr& r = o.emplace();
  CHECK(o);
  CHECK(r.kind == ExprKind::Raw);  // a default expression is a value, not "none"
  o = std::nullopt;
  CHECK_FALSE(o);
  ParsedExpr p;
  CHECK_FALSE(p.root);
  p.root = Expr{};
  CHECK(p.root);
}
