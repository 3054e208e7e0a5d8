// The expression tree: what Spark printed in a condition, a filter list, a join key or a hint,
// parsed by grammar/expression.hpp. Shared by every input format; rules read only this.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "support/compact_vector.hpp"
#include "support/packed_text.hpp"
#include "support/text.hpp"

namespace planlint {

enum class ExprKind : std::uint8_t {
  Attribute,       // name#12, name#12L, name#x, or a bare column name in pushed filters / profile SQL
  Literal,         // 10, 10.5, 1.0E3, 2024-01-01, DATE '2024-01-01', unquoted strings, null, true
  Function,        // f(a, b); also Spark's pushed-filter syntax GreaterThan(a,5), IsNotNull(a)
  Cast,            // cast(x as date), try_cast(...); `type` holds the target type
  Binary,          // AND, OR, =, <=>, !=, <>, <, <=, >, >=, +, -, *, /, %, LIKE, RLIKE, ||
  Unary,           // NOT, unary minus, IS NULL, IS NOT NULL (op in `name`)
  In,              // args[0] IN (args[1..]); `name` = "IN" or "NOT IN"
  InSubquery,      // x IN dynamicpruning#5, x IN subquery#3 ; `name` holds the subquery name
  Case,            // CASE WHEN c THEN v ... [ELSE e] END; args alternate when/then, last else
  List,            // [a, b, c] (pushed filter In values, arrays)
  Subquery,        // scalar-subquery#51, [id=#52] / Subquery subquery#7 / ScalarSubquery#7
  Raw,             // text that the grammar did not understand (kept, never guessed at)
};

// A plan holds one node per attribute, literal, call and operator of every parsed expression (half
// a million for a 100,000-operator plan), so the texts are 8-byte views (PackedView: trivially
// copied, moved and destroyed, as Text is): 48 bytes a node instead of 72 (docs/performance.md,
// fifth round of issue 37).
struct Expr {
  // Views into ParsedExpr::text, literals or the plan's TextStore (a name the parser built).
  PackedView name;           // attribute name, function name (as printed), operator, literal text
  PackedView expr_id;        // Attribute: "12", "12L" or "x"; Subquery: its id; empty otherwise
  PackedView type;           // Cast: target type ("date", "decimal(10,2)"); Literal: a guessed type
  CompactVector<Expr> args;  // one pointer; most nodes have none
  std::uint32_t begin = 0;   // byte offsets into ParsedExpr::text
  std::uint32_t end = 0;
  ExprKind kind = ExprKind::Raw;
  // Owns nothing but its list of arguments (support/compact_vector.hpp ReleasesOnlyListParts): keep it so.
  using releases_only_list_parts = void;
};
static_assert(sizeof(Expr) <= 48, "Expr grew: a plan holds one per node of every parsed expression");

// An expression or none, in the size of the expression (48 bytes instead of std::optional's 56):
// "none" is a kind no expression has, kept in the node's own kind byte. Reads like the
// std::optional it replaces (has_value(), explicit bool, *, ->, value(), = expr, = std::nullopt,
// reset(), emplace()).
class OptionalExpr {
 public:
  static constexpr ExprKind kNone = static_cast<ExprKind>(0xFF);

  OptionalExpr() noexcept { v_.kind = kNone; }
  OptionalExpr(std::nullopt_t) noexcept : OptionalExpr() {}  // NOLINT: like std::optional
  OptionalExpr(Expr e) noexcept : v_(std::move(e)) {}        // NOLINT: like std::optional
  OptionalExpr& operator=(std::nullopt_t) noexcept {
    reset();
    return *this;
  }
  OptionalExpr& operator=(Expr e) noexcept {
    v_ = std::move(e);
    return *this;
  }

  [[nodiscard]] bool has_value() const noexcept { return v_.kind != kNone; }
  explicit operator bool() const noexcept { return has_value(); }
  const Expr& operator*() const noexcept { return v_; }
  Expr& operator*() noexcept { return v_; }
  const Expr* operator->() const noexcept { return &v_; }
  Expr* operator->() noexcept { return &v_; }
  [[nodiscard]] const Expr& value() const {
    if (!has_value()) throw std::bad_optional_access();
    return v_;
  }
  Expr& emplace() noexcept {
    v_ = Expr{};
    return v_;
  }
  void reset() noexcept {
    v_ = Expr{};
    v_.kind = kNone;
  }
  friend bool operator==(const OptionalExpr& a, std::nullopt_t) noexcept { return !a.has_value(); }

 private:
  Expr v_;
};
static_assert(sizeof(OptionalExpr) == sizeof(Expr));

// One printed expression with its parse result. `root` is empty when the text did not parse;
// `error` then says why and the text is still kept so messages can quote it. `text` is a view
// into the plan's texts (the field value it was printed in).
struct ParsedExpr {
  PackedView text;
  OptionalExpr root;         // empty when the text did not parse
  PackedView error;          // why the text did not parse (a literal or kept in the plan's store)
  std::uint32_t error_offset = 0;
  bool truncated = false;    // contained Spark's "..." / "... N more fields" abbreviation
  // Owns nothing but its tree's lists (ReleasesOnlyListParts): keep it so.
  using releases_only_list_parts = void;
};
// 72 bytes (80 while `root` was a std::optional: its flag and padding took 8 bytes).
static_assert(sizeof(ParsedExpr) <= 72, "ParsedExpr grew: a plan holds one per parsed condition, filter and key");

// Which of Spark's printed forms the text is in: Catalyst expressions (conditions, data and
// partition filters), the v1 data-source Filter syntax used by PushedFilters, or the SQL-like
// strings of a Databricks profile (`FILTERS`) and SQL text.
enum class ExprDialect : std::uint8_t { Catalyst, PushedFilter, Sql };

}  // namespace planlint
