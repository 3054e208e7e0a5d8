// The expression parser's control (parser/expression/expr_control.hpp) relies on PEGTL's private
// names: `never_fails` and `markless` are specialised on the pegtl::internal types that the public
// combinators stand for. A PEGTL upgrade that renames them breaks the build there; one that keeps
// the names but stops using those types for the public combinators would silently turn the
// specialisations off. The static_asserts below fail to compile in that case, and the test case
// fails when PEGTL is not the version the control was checked against.
#include <doctest/doctest.h>

#include <string_view>

#include <tao/pegtl.hpp>

#include "parser/expression/expr_control.hpp"

namespace {

namespace pegtl = tao::pegtl;
namespace xp = planlint::expr_parse;
using A = pegtl::any;
using B = pegtl::eof;

// star and opt never fail.
static_assert(xp::never_fails<pegtl::star<A>::rule_t>::value);
static_assert(xp::never_fails<pegtl::opt<A>::rule_t>::value);
static_assert(!xp::never_fails<pegtl::plus<A>::rule_t>::value);
// Lookaheads, alternatives, sequences whose tail never fails, guarded rules: no mark needed.
static_assert(xp::markless<pegtl::at<A>::rule_t>::value);
static_assert(xp::markless<pegtl::not_at<A>::rule_t>::value);
static_assert(xp::markless<pegtl::sor<A, B>::rule_t>::value);
static_assert(xp::markless<pegtl::seq<A, pegtl::star<B>, pegtl::opt<B>>::rule_t>::value);
static_assert(xp::markless<pegtl::seq<pegtl::at<A>, B>::rule_t>::value);
// A sequence that can fail after its first rule needs a mark.
static_assert(!xp::markless<pegtl::seq<A, B>::rule_t>::value);
static_assert(!xp::markless<pegtl::plus<A>::rule_t>::value);

}  // namespace

TEST_CASE("expression control: PEGTL is the version whose internal names expr_control.hpp was checked against") {
  // On a PEGTL upgrade: check that the pegtl::internal names in expr_control.hpp still stand for
  // star, opt, at, not_at, sor and seq, then update kPegtlVersionReliedOn and the header comment.
  CHECK(std::string_view(TAO_PEGTL_VERSION) == std::string_view(xp::kPegtlVersionReliedOn));
}
