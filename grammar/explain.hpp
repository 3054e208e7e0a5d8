// PEGTL grammars for the lines of Spark's explain text (every mode). Each rule matches ONE
// normalised line (no '\n'); the line-level state machine in parser/explain/explain_parser.cpp decides
// which rule to try. Nothing here builds data: actions live in parser/explain/explain_lines.cpp.
// Layout reference: ../shared/docs/spark-explain-format.md (§1.1 EBNF, §2 outline, §3 blocks).
#pragma once

#include <cstddef>

#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze_traits.hpp>

namespace planlint::grammar::explain {

namespace pegtl = tao::pegtl;
using pegtl::alnum;
using pegtl::alpha;
using pegtl::any;
using pegtl::at;
using pegtl::digit;
using pegtl::eof;
using pegtl::must;
using pegtl::not_at;
using pegtl::not_one;
using pegtl::one;
using pegtl::opt;
using pegtl::plus;
using pegtl::seq;
using pegtl::sor;
using pegtl::star;
using pegtl::upper;

struct sp : one<' '> {};
struct digits : plus<digit> {};
struct rest : star<any> {};  // everything to the end of the line

// ---- shared pieces -------------------------------------------------------------------------

// An operator reference: a number or `unknown` (§10.6).
struct op_ref : sor<digits, TAO_PEGTL_STRING("unknown")> {};

// Statistics(sizeInBytes=240.0 B, rowCount=10) / Statistics(X): the body is kept raw and split by
// the stats grammar below.
struct stats_body : star<not_one<')'>> {};
struct statistics : seq<TAO_PEGTL_STRING("Statistics("), stats_body, one<')'>> {};

// Inside a Statistics body: `key=value` pairs separated by ", ".
struct stat_key : plus<pegtl::identifier_other> {};
struct stat_value : star<not_one<',', ')'>> {};
struct stat_pair : seq<stat_key, one<'='>, stat_value> {};
struct stat_masked : seq<not_at<stat_pair>, plus<not_one<',', ')'>>> {};
struct stats_list : seq<sor<stat_pair, stat_masked>, star<one<','>, star<sp>, sor<stat_pair, stat_masked>>, eof> {};

// ---- outline tree lines (§2.1) --------------------------------------------------------------

struct connector : sor<TAO_PEGTL_STRING("+- "), TAO_PEGTL_STRING(":- ")> {};
struct guide : seq<one<':'>, at<sp>> {};
// Spaces, `:` guides and connectors in any mix: paste damage can leave columns that are not a
// multiple of 3, and the column-stack rule only needs the label's column. A label never starts
// with a space, `: ` or a connector.
// The same language as `star<sor<connector, sp, guide>>`, matched in one loop: it runs on every
// tree line, and the generic form cost a rule call per byte of indentation.
struct lead {
  using rule_t = lead;
  using subs_t = pegtl::empty_list;
  template <typename ParseInput>
  static bool match(ParseInput& in) {
    const std::size_t n = in.size(std::size_t(-1) / 2);
    const char* p = in.current();
    std::size_t i = 0;
    while (i < n) {
      const char c = p[i];
      if ((c == '+' || c == ':') && i + 2 < n && p[i + 1] == '-' && p[i + 2] == ' ') {
        i += 3;  // connector
      } else if (c == ' ' || (c == ':' && i + 1 < n && p[i + 1] == ' ')) {
        ++i;  // sp, guide
      } else {
        break;
      }
    }
    in.bump(i);
    return true;
  }
};

// `* ` (formatted codegen), `*(3) ` (default-mode codegen), `^ ` (Gluten offloaded).
struct codegen_stage : digits {};
// Spark 2.0-2.2 print `*Project` (no stage id, no blank); Gluten's default mode prints `^(2) `;
// `!Project` marks a node Spark calls invalid. All three are markers, not part of the name.
struct codegen_marker
    : sor<seq<one<'*'>, opt<one<'('>, codegen_stage, one<')'>>, sp>,
          seq<one<'^'>, opt<one<'('>, codegen_stage, one<')'>>, sp>, seq<one<'*', '!'>, at<alpha>>> {};

// The trailing ` (id)` with its optional suffix (§2.3 "Finding the id").
struct outline_id : op_ref {};
struct columnar_suffix : seq<TAO_PEGTL_STRING(" (columnar"), star<not_one<')'>>, one<')'>> {};
struct stats_suffix : seq<one<','>, sp, statistics> {};
// Spark 4 outline suffixes after the id: `AQEShuffleRead (6), skewed`, `(5), coalesced`.
struct word_suffix : seq<one<','>, sp, plus<sor<alnum, one<' ', '_', '-'>>>> {};
struct node_tail
    : seq<sp, one<'('>, outline_id, one<')'>, opt<sor<stats_suffix, columnar_suffix, word_suffix>>, eof> {};
struct node_label : star<not_at<node_tail>, any> {};
// Formatted mode: `<lead>[* ]<label> (<id>)[, Statistics(...)]`.
struct formatted_tree_line : seq<lead, opt<codegen_marker>, node_label, must<node_tail>> {};

// Default / logical trees: `<lead>[*(n) ]<text>[, Statistics(...)]` (cost mode appends stats).
struct logical_stats_tail : seq<one<','>, sp, statistics, eof> {};
struct plain_label : star<not_at<logical_stats_tail>, any> {};
struct plain_tree_line : seq<lead, opt<codegen_marker>, plain_label, opt<logical_stats_tail>, eof> {};

// `+- == Final Plan ==` with the AdaptiveSparkPlan's indentation (§4).
struct aqe_title : sor<TAO_PEGTL_STRING("Final Plan"), TAO_PEGTL_STRING("Current Plan"),
                       TAO_PEGTL_STRING("Initial Plan")> {};
struct aqe_header
    : seq<star<sor<sp, one<':'>>>, TAO_PEGTL_STRING("+- == "), aqe_title, TAO_PEGTL_STRING(" =="), eof> {};

// ---- section markers (§1.1) -----------------------------------------------------------------

// `== Physical Plan ==`, `== Photon Explanation ==`, `== Extended Information (x) ==`, ...
struct mode_title : plus<not_at<sp, TAO_PEGTL_STRING("=="), eof>, any> {};
struct mode_header : seq<TAO_PEGTL_STRING("== "), mode_title, sp, TAO_PEGTL_STRING("=="), eof> {};

struct subqueries_marker : seq<TAO_PEGTL_STRING("===== Subqueries ====="), eof> {};
struct optimized_out_marker
    : seq<TAO_PEGTL_STRING("===== Adaptively Optimized Out Exchanges ====="), eof> {};
struct subplan_number : digits {};
struct subplan_line : seq<TAO_PEGTL_STRING("Subplan:"), must<subplan_number>, must<eof>> {};

// `Subquery:1 Hosting operator id = 3 Hosting Expression = <expression>` (§5).
struct subquery_number : digits {};
struct hosting_id : op_ref {};
struct hosting_expression : rest {};
struct hosting_id_kw : TAO_PEGTL_STRING(" Hosting operator id = ") {};
struct hosting_expr_kw : TAO_PEGTL_STRING(" Hosting Expression = ") {};
struct subquery_line : seq<TAO_PEGTL_STRING("Subquery:"), must<subquery_number>, must<hosting_id_kw>,
                           must<hosting_id>, must<hosting_expr_kw>, hosting_expression> {};

// ---- detail blocks (§3) ---------------------------------------------------------------------

struct block_id : digits {};
struct block_codegen : digits {};
struct block_reuses : op_ref {};
struct codegen_part : seq<TAO_PEGTL_STRING(" [codegen id : "), block_codegen, one<']'>> {};
struct reuses_part : seq<TAO_PEGTL_STRING(" [Reuses operator id: "), block_reuses, one<']'>> {};
struct header_tail : seq<opt<codegen_part>, opt<reuses_part>, star<sp>, eof> {};
struct block_name : star<not_at<header_tail>, any> {};
// `(12) HashAggregate [codegen id : 3]`, `(7) ReusedExchange [Reuses operator id: 5]`.
struct block_header : seq<one<'('>, block_id, one<')'>, sp, block_name, header_tail> {};

// Field lines, tried in this order (§13 step 4).
struct field_key : seq<upper, star<sor<alnum, one<'_'>, seq<sp, at<alnum>>>>> {};
struct field_count : digits {};
struct field_value : rest {};
struct counted_field : seq<field_key, sp, one<'['>, field_count, one<']'>, one<':'>, opt<sp>, field_value> {};
struct condition_key : TAO_PEGTL_STRING("Condition") {};
struct condition_field : seq<condition_key, sp, one<':'>, opt<sp>, field_value> {};
struct plain_field : seq<field_key, one<':'>, sor<sp, eof>, field_value> {};
// Golden files hide locations: `Location [not included in comparison]/{warehouse_dir}/t]`.
struct masked_location : seq<field_key, at<sp, TAO_PEGTL_STRING("[not included in comparison]")>, sp, field_value> {};
struct field_line : sor<counted_field, condition_field, plain_field, masked_location> {};

// ---- error messages for must<> ----------------------------------------------------------------

template <typename Rule>
inline constexpr const char* error_message = nullptr;
template <> inline constexpr const char* error_message<node_tail> = "expected ' (<operator id>)' at the end of the tree line";
template <> inline constexpr const char* error_message<subplan_number> = "expected a number after 'Subplan:'";
template <> inline constexpr const char* error_message<subquery_number> = "expected a number after 'Subquery:'";
template <> inline constexpr const char* error_message<hosting_id_kw> = "expected ' Hosting operator id = '";
template <> inline constexpr const char* error_message<hosting_id> = "expected an operator id or 'unknown'";
template <> inline constexpr const char* error_message<hosting_expr_kw> = "expected ' Hosting Expression = '";
template <> inline constexpr const char* error_message<eof> = "expected end of line";

// Only explicit must<> raises (with the message); a rule that fails inside not_at<> / sor<> just fails.
struct errors {
  template <typename Rule>
  static constexpr const char* message = error_message<Rule>;
  template <typename Rule>
  static constexpr bool raise_on_failure = false;
};

template <typename Rule>
using control = pegtl::must_if<errors>::control<Rule>;

}  // namespace planlint::grammar::explain

namespace tao::pegtl {
template <typename Name>
struct analyze_traits<Name, planlint::grammar::explain::lead> : analyze_opt_traits<> {};
}  // namespace tao::pegtl
