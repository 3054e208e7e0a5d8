// PEGTL grammars for the lines of Spark's explain text (every mode). Each rule matches ONE
// normalised line (no '\n'); the explain reader's line handlers (parser/explain/explain_state.hpp)
// decide which rule to try. Nothing here builds data: actions live in parser/explain/explain_lines.cpp.
// Layout reference: docs/formats/explain-text.md (§1.1 layout grammar, §2 outline, §3 blocks).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

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

// `star<not_at<Tail>, any>` as one scan: the text up to the first position where `Tail` matches
// (or to the end of the line). The generic form tries `Tail` at every byte; this one only where
// `Candidate` says a match can start, and tries it without actions, as not_at<> does. Always
// matches, like the star<> it replaces.
template <typename Tail, typename Candidate>
struct up_to_first {
  using rule_t = up_to_first;
  using subs_t = pegtl::empty_list;
  template <typename ParseInput>
  static bool match(ParseInput& in) {
    const char* const begin = in.current();
    const char* const end = in.end();
    const char* p = begin;
    while (true) {
      p = Candidate::next(begin, p, end);
      if (p == end) break;
      pegtl::memory_input<pegtl::tracking_mode::lazy, pegtl::eol::lf_crlf, const char*> rest(p, end, "");
      if (pegtl::parse<Tail>(rest)) break;
      ++p;
    }
    in.bump(static_cast<std::size_t>(p - begin));
    return true;
  }
};

// Candidates: the first position >= p where the tail may start (or `end`).
// A tail that starts with ` (`: positions of a blank followed by `(`.
struct blank_paren_start {
  static const char* next(const char*, const char* p, const char* end) {
    while (p + 1 < end) {
      const void* hit = std::memchr(p + 1, '(', static_cast<std::size_t>(end - p - 1));
      if (hit == nullptr) return end;
      const char* q = static_cast<const char*>(hit);
      if (q[-1] == ' ') return q - 1;
      p = q;
    }
    return end;
  }
};
// A tail that starts with a blank or is empty at the end of the line.
struct blank_or_end {
  static const char* next(const char*, const char* p, const char* end) {
    const void* hit = std::memchr(p, ' ', static_cast<std::size_t>(end - p));
    return hit == nullptr ? end : static_cast<const char*>(hit);
  }
};
// A tail that starts with `,`.
struct comma_start {
  static const char* next(const char*, const char* p, const char* end) {
    const void* hit = std::memchr(p, ',', static_cast<std::size_t>(end - p));
    return hit == nullptr ? end : static_cast<const char*>(hit);
  }
};

// An operator reference: a number or `unknown` (docs/formats/explain-text.md §9, case 6).
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
      if (c == ' ') {
        i = skip_blanks(p, i + 1, n);  // most of the lead is blanks
        continue;
      }
      if ((c == '+' || c == ':') && i + 2 < n && p[i + 1] == '-' && p[i + 2] == ' ') {
        i += 3;  // connector
      } else if (c == ':' && i + 1 < n && p[i + 1] == ' ') {
        ++i;  // guide
      } else {
        break;
      }
    }
    in.bump(i);
    return true;
  }
  // The first index >= i in [i, n) whose byte is not a blank (n if none), 8 bytes at a time
  // (portable: the grammar layer uses the standard library only).
  static std::size_t skip_blanks(const char* p, std::size_t i, std::size_t n) {
    constexpr std::uint64_t kBlanks = 0x2020202020202020ull;
    while (i + 8 <= n) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      if (w != kBlanks) break;
      i += 8;
    }
    while (i < n && p[i] == ' ') ++i;
    return i;
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
// node_tail starts with ` (`; it cannot match at the end of the line.
struct node_label : up_to_first<node_tail, blank_paren_start> {};
// Formatted mode: `<lead>[* ]<label> (<id>)[, Statistics(...)]`.
struct formatted_tree_line : seq<lead, opt<codegen_marker>, node_label, must<node_tail>> {};

// Default / logical trees: `<lead>[*(n) ]<text>[, Statistics(...)]` (cost mode appends stats).
struct logical_stats_tail : seq<one<','>, sp, statistics, eof> {};
struct plain_label : up_to_first<logical_stats_tail, comma_start> {};
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
// header_tail starts with a blank or is empty at the end of the line.
struct block_name : up_to_first<header_tail, blank_or_end> {};
// `(12) HashAggregate [codegen id : 3]`, `(7) ReusedExchange [Reuses operator id: 5]`.
struct block_header : seq<one<'('>, block_id, one<')'>, sp, block_name, header_tail> {};

// Field lines, tried in this order (§3).
// `seq<upper, star<sor<alnum, one<'_'>, seq<sp, at<alnum>>>>>` as one loop (a rule call per byte
// otherwise): an upper-case letter, then letters, digits, `_`, and single blanks before a letter
// or digit.
// Per byte of a field key: 1 a letter or digit, 2 '_', 0 anything else (one load per byte of the
// key instead of three range tests).
struct KeyBytes {
  unsigned char of[256] = {};
  constexpr KeyBytes() {
    for (int c = 0; c < 256; ++c)
      of[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? 1 : c == '_' ? 2 : 0;
  }
};
struct field_key {
  using rule_t = field_key;
  using subs_t = pegtl::empty_list;
  static constexpr KeyBytes kClasses{};
  static bool alnum_char(char c) { return kClasses.of[static_cast<unsigned char>(c)] == 1; }
  template <typename ParseInput>
  static bool match(ParseInput& in) {
    const std::size_t n = in.size(std::size_t(-1) / 2);
    const char* p = in.current();
    if (n == 0 || p[0] < 'A' || p[0] > 'Z') return false;
    std::size_t i = 1;
    while (i < n) {
      const char c = p[i];
      if (kClasses.of[static_cast<unsigned char>(c)] != 0) {
        ++i;
      } else if (c == ' ' && i + 1 < n && alnum_char(p[i + 1])) {
        i += 2;
      } else {
        break;
      }
    }
    in.bump(i);
    return true;
  }
};
struct field_count : digits {};
struct field_value : rest {};
// After the key: `Output [2]: ...`, `Location: ...`, and (golden files hide locations)
// `Location [not included in comparison]/{warehouse_dir}/t]`.
struct counted_rest : seq<sp, one<'['>, field_count, one<']'>, one<':'>, opt<sp>, field_value> {};
struct plain_rest : seq<one<':'>, sor<sp, eof>, field_value> {};
struct masked_rest : seq<at<sp, TAO_PEGTL_STRING("[not included in comparison]")>, sp, field_value> {};
struct keyed_field : seq<field_key, sor<counted_rest, plain_rest, masked_rest>> {};
struct condition_key : TAO_PEGTL_STRING("Condition") {};
struct condition_field : seq<condition_key, sp, one<':'>, opt<sp>, field_value> {};
// The key is read once. `Condition : ...` (blank before the colon) matches none of the keyed
// forms, and no keyed form matches a condition line, so the order of the two does not matter.
struct field_line : sor<keyed_field, condition_field> {};

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
template <typename Name, typename Tail, typename Candidate>
struct analyze_traits<Name, planlint::grammar::explain::up_to_first<Tail, Candidate>> : analyze_opt_traits<> {};
template <typename Name>
struct analyze_traits<Name, planlint::grammar::explain::field_key> : analyze_any_traits<> {};
}  // namespace tao::pegtl
