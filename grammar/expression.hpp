// PEGTL grammar for the expressions Spark prints: Catalyst expressions (Filter conditions, join
// keys, DataFilters / PartitionFilters, sort orders, project lists), the v1 data-source Filter
// syntax of PushedFilters, and the SQL-like strings of Databricks Query Profiles (`FILTERS`).
//
// Grammar structs only: nothing here builds data. The actions live in parser/expression/expr_parser.cpp.
// Format notes: docs/formats/explain-text.md §3 and §9 (literals are printed raw, attribute
// names may contain spaces and parentheses, `... N more fields` abbreviations).
//
// The same structs serve the Catalyst and the SQL dialect. Two alternatives depend on the
// dialect and are guarded by `dialect_gate<Flag>`, which asks the first parse state for
// `bool allows(unsigned flag) const`:
//   - unquoted multi-word literals (`(c#1 = abc def)`, `IN (Bronx County, Orange County)`),
//     only in Catalyst text, where every binary operator is wrapped in parentheses;
//   - quoted SQL strings and typed literals (`'x'`, DATE '2024-01-01'), in SQL text.
// Nesting is bounded by the control class (see `nesting` below): every recursive path passes a
// rule derived from `nesting`, so the depth of PEGTL's recursion is bounded too.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze_traits.hpp>

namespace planlint::grammar::expr {

namespace pegtl = tao::pegtl;
using namespace tao::pegtl;  // NOLINT: grammar DSL

// Flags a state can allow (see dialect_gate).
inline constexpr unsigned kRawLiterals = 1u;    // Catalyst: unquoted literal text up to , ) ]
inline constexpr unsigned kSqlLiterals = 2u;    // SQL: 'quoted', DATE '...', TIMESTAMP '...'
inline constexpr unsigned kBareIsColumn = 4u;   // SQL / pushed filters: a bare word names a column

// Matches the empty string when the state allows `Flag`, fails otherwise.
template <unsigned Flag>
struct dialect_gate {
  using rule_t = dialect_gate;
  using subs_t = empty_list;
  template <apply_mode, rewind_mode, template <typename...> class, template <typename...> class,
            typename ParseInput, typename State, typename... States>
  static bool match(ParseInput&, State& st, States&&...) {
    return st.allows(Flag);
  }
};

// Unquoted literal text as Spark prints it (`Books   `, `>10000`, `Bronx County`, `2001Q1`):
// everything up to a `,` `)` or `]` that is not inside brackets opened in the text itself.
// Scans iteratively (no recursion, linear), so 100,000 nested parentheses cannot blow the stack.
// At least one character; never starts at a delimiter.
struct raw_text {
  using rule_t = raw_text;
  using subs_t = empty_list;
  template <typename ParseInput>
  static bool match(ParseInput& in) {
    std::size_t depth = 0;
    std::size_t n = 0;
    const std::size_t size = in.size(std::size_t(-1) / 2);
    const char* p = in.current();
    for (; n < size; ++n) {
      const char c = p[n];
      if (c == '(' || c == '[') {
        ++depth;
      } else if (c == ')' || c == ']' || c == ',') {
        if (depth == 0) break;
        if (c != ',') --depth;
      }
    }
    if (depth != 0) return false;  // unbalanced: let the structured rules report the error
    // Trailing blanks belong to the surrounding syntax, not to the value.
    std::size_t len = n;
    while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t')) --len;
    if (len == 0) return false;
    in.bump(len);
    return true;
  }
};

// A type name as printed after `cast(x as`: `date`, `decimal(10,2)`, `struct<a:int,b:string>`,
// up to the `)` that closes the cast. Iterative like raw_text.
struct type_text {
  using rule_t = type_text;
  using subs_t = empty_list;
  template <typename ParseInput>
  static bool match(ParseInput& in) {
    std::size_t depth = 0;
    std::size_t n = 0;
    const std::size_t size = in.size(std::size_t(-1) / 2);
    const char* p = in.current();
    for (; n < size; ++n) {
      const char c = p[n];
      if (c == '(' || c == '[' || c == '<') {
        ++depth;
      } else if (c == ')' || c == ']' || c == '>') {
        if (depth == 0) break;
        --depth;
      }
    }
    std::size_t len = n;
    while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t')) --len;
    if (depth != 0 || len == 0) return false;
    in.bump(len);
    return true;
  }
};

// Rules tagged `token` only match text: no action runs inside them, so the actions' control
// class does not need to track them (a large share of all rule invocations).
struct token {};

// A keyword from the list below, case-insensitive, as a whole word. One scan instead of one
// rule per keyword: `reserved` is checked before every bare word. Words are compared only with the
// keywords of their length.
struct reserved {
  using rule_t = reserved;
  using subs_t = empty_list;
  template <typename ParseInput>
  static bool match(ParseInput& in) {
    const std::size_t size = in.size(16);
    const char* p = in.current();
    std::size_t n = 0;
    while (n < size && n < 9 && word_char(p[n])) ++n;
    if (!is_keyword(p, n)) return false;
    in.bump(n);
    return true;
  }
  // [A-Za-z0-9_$]: the bytes of the word `reserved` reads.
  static bool word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
  }
  // Whether the n bytes at p are one of the keywords (any bytes: a word of word_char bytes, or the
  // words the fast reader (parser/expression/expr_fast.cpp) asks about: every `name#id`, bare word
  // and call name). The word is upper-cased into one 64-bit key (two overlapping 4-byte loads) and
  // compared with the keys of its length: an upper-cased copy and a memcmp call for each keyword of
  // the length cost ~1 M instructions more on the golden plans.
  static bool is_keyword(const char* p, std::size_t n) {
    if (n < 2 || n > 8) return false;
    std::uint64_t key = 0;
    if (std::endian::native == std::endian::little && n >= 4) {
      std::uint32_t lo, hi;
      std::memcpy(&lo, p, 4);
      std::memcpy(&hi, p + n - 4, 4);
      key = lo | static_cast<std::uint64_t>(hi) << (8 * (n - 4));  // the bytes both hold are the same
    } else {
      for (std::size_t i = 0; i < n; ++i) key |= std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
    }
    // Upper case: bit 5 off in every byte. Only a-z and A-Z land on A-Z so, and the keys hold
    // nothing but A-Z: bytes that are no letter never match.
    key &= 0xDFDFDFDFDFDFDFDFull >> (8 * (8 - n));
    for (const std::uint64_t k : kKeys.of[n])
      if (k == key) return true;
    return false;
  }

  // The keywords, by length 2 to 8: AND OR NOT IN IS LIKE ILIKE RLIKE REGEXP BETWEEN CASE WHEN THEN
  // ELSE END AS ASC DESC NULLS ESCAPE DIV DISTINCT INSET.
  static constexpr std::string_view kWords[] = {"AS",    "OR",    "IN",    "IS",     "AND",    "NOT",     "END",     "ASC",
                                                "DIV",   "LIKE",  "CASE",  "WHEN",   "THEN",   "ELSE",    "DESC",    "ILIKE",
                                                "RLIKE", "NULLS", "INSET", "REGEXP", "ESCAPE", "BETWEEN", "DISTINCT"};

 private:
  // The words as keys (byte i of the word in byte i of the key), by length, at most six of a
  // length (LIKE CASE WHEN THEN ELSE DESC). A slot left over holds all ones: an upper-cased key
  // has bit 5 off in every byte, so none equals it.
  struct Keys {
    std::uint64_t of[9][6];
  };
  static constexpr Keys kKeys = [] {
    Keys t{};
    for (auto& row : t.of)
      for (auto& k : row) k = ~std::uint64_t{0};
    std::size_t used[9] = {};
    for (std::string_view w : kWords) {
      std::uint64_t v = 0;
      for (std::size_t i = 0; i < w.size(); ++i) v |= std::uint64_t{static_cast<unsigned char>(w[i])} << (8 * i);
      t.of[w.size()][used[w.size()]++] = v;  // (a seventh word of a length would not compile)
    }
    return t;
  }();
};

// One or more characters of a plain name (see name_word below): letters, digits, `_ $ . - : / @`.
// A table scan instead of one rule match per character.
struct name_chars {
  using rule_t = name_chars;
  using subs_t = empty_list;
  static bool is_name(char c) { return kName[static_cast<unsigned char>(c)]; }
  template <typename ParseInput>
  static bool match(ParseInput& in) {
    const std::size_t size = in.size(std::size_t(-1) / 2);
    const char* p = in.current();
    std::size_t n = 0;
    while (n < size && is_name(p[n])) ++n;
    if (n == 0) return false;
    in.bump(n);
    return true;
  }

 private:
  static constexpr std::array<bool, 256> kName = [] {
    std::array<bool, 256> t{};
    for (int c = 'a'; c <= 'z'; ++c) t[static_cast<unsigned char>(c)] = true;
    for (int c = 'A'; c <= 'Z'; ++c) t[static_cast<unsigned char>(c)] = true;
    for (int c = '0'; c <= '9'; ++c) t[static_cast<unsigned char>(c)] = true;
    for (char c : {'_', '$', '.', '-', ':', '/', '@'}) t[static_cast<unsigned char>(c)] = true;
    return t;
  }();
};

// ---------------------------------------------------------------- lexical pieces
struct blank_char : one<' ', '\t', '\r', '\n'>, token {};
struct ws : star<blank_char>, token {};
struct ident_first : ranges<'a', 'z', 'A', 'Z', '_', '_'>, token {};
struct ident_other : ranges<'a', 'z', 'A', 'Z', '0', '9', '_', '_', '$', '$'>, token {};
struct word : seq<ident_first, star<ident_other>>, token {};

template <typename Str>
struct kw : seq<Str, not_at<ident_other>>, token {};

struct kw_and : kw<TAO_PEGTL_ISTRING("AND")> {};
struct kw_or : kw<TAO_PEGTL_ISTRING("OR")> {};
struct kw_not : kw<TAO_PEGTL_ISTRING("NOT")> {};
struct kw_in : kw<TAO_PEGTL_ISTRING("IN")> {};
struct kw_is : kw<TAO_PEGTL_ISTRING("IS")> {};
struct kw_null : kw<TAO_PEGTL_ISTRING("NULL")> {};
struct kw_like : kw<TAO_PEGTL_ISTRING("LIKE")> {};
struct kw_ilike : kw<TAO_PEGTL_ISTRING("ILIKE")> {};
struct kw_rlike : kw<TAO_PEGTL_ISTRING("RLIKE")> {};
struct kw_regexp : kw<TAO_PEGTL_ISTRING("REGEXP")> {};
struct kw_escape : kw<TAO_PEGTL_ISTRING("ESCAPE")> {};
struct kw_between : kw<TAO_PEGTL_ISTRING("BETWEEN")> {};
struct kw_case : kw<TAO_PEGTL_ISTRING("CASE")> {};
struct kw_when : kw<TAO_PEGTL_ISTRING("WHEN")> {};
struct kw_then : kw<TAO_PEGTL_ISTRING("THEN")> {};
struct kw_else : kw<TAO_PEGTL_ISTRING("ELSE")> {};
struct kw_end : kw<TAO_PEGTL_ISTRING("END")> {};
struct kw_as : kw<TAO_PEGTL_ISTRING("AS")> {};
struct kw_asc : kw<TAO_PEGTL_ISTRING("ASC")> {};
struct kw_desc : kw<TAO_PEGTL_ISTRING("DESC")> {};
struct kw_nulls : kw<TAO_PEGTL_ISTRING("NULLS")> {};
struct kw_first : kw<TAO_PEGTL_ISTRING("FIRST")> {};
struct kw_last : kw<TAO_PEGTL_ISTRING("LAST")> {};
struct kw_true : kw<TAO_PEGTL_ISTRING("true")> {};
struct kw_false : kw<TAO_PEGTL_ISTRING("false")> {};
struct kw_div : kw<TAO_PEGTL_ISTRING("DIV")> {};
struct kw_distinct : kw<TAO_PEGTL_ISTRING("DISTINCT")> {};
struct kw_cast : kw<sor<TAO_PEGTL_ISTRING("try_cast"), TAO_PEGTL_ISTRING("cast")>> {};
struct kw_date : kw<TAO_PEGTL_ISTRING("DATE")> {};
struct kw_timestamp : kw<sor<TAO_PEGTL_ISTRING("TIMESTAMP_NTZ"), TAO_PEGTL_ISTRING("TIMESTAMP_LTZ"),
                             TAO_PEGTL_ISTRING("TIMESTAMP")>> {};
struct kw_interval : kw<TAO_PEGTL_ISTRING("INTERVAL")> {};
struct kw_subquery : kw<TAO_PEGTL_STRING("Subquery")> {};
struct kw_reused_subquery : kw<TAO_PEGTL_STRING("ReusedSubquery")> {};


// ---------------------------------------------------------------- nesting guard
// Rules deriving from `nesting` count one level each; the control class raises
// "expression nested too deeply" past the limit (see parser/expression/expr_parser.cpp).
struct nesting_tag {};
template <typename... Rules>
struct nesting : seq<Rules...>, nesting_tag {};

// ---------------------------------------------------------------- literals
struct digits : plus<digit>, token {};
struct exponent : seq<one<'e', 'E'>, opt<one<'+', '-'>>, must<digits>>, token {};
struct number_suffix : sor<TAO_PEGTL_STRING("BD"), one<'L', 'S', 'Y', 'D', 'F'>>, token {};
struct number : seq<sor<seq<digits, opt<one<'.'>, star<digit>>>, seq<one<'.'>, digits>>,
                    opt<exponent>, opt<number_suffix>, not_at<ident_other>> {};

// 2024-01-01, 2024-01-01 12:30:00.123, 2024-01-01T12:30:00Z (Catalyst prints dates unquoted)
struct two_digits : rep<2, digit>, token {};
struct date_part : seq<rep<4, digit>, one<'-'>, two_digits, one<'-'>, two_digits>, token {};
struct time_part : seq<two_digits, one<':'>, two_digits, one<':'>, two_digits,
                       opt<one<'.'>, digits>>, token {};
struct zone_part : sor<one<'Z'>, seq<one<'+', '-'>, two_digits, one<':'>, two_digits>>, token {};
struct date_literal : seq<date_part, opt<one<' ', 'T'>, time_part, opt<zone_part>>,
                          not_at<ident_other>> {};
// 2024-03: a string literal such as date_format(ts, yyyy-MM) compares with. Catalyst prints string
// literals unquoted and arithmetic with blanks around the operator (`(a#1 - 3)`), so four digits,
// '-', two digits and nothing name-like after them is a value, not a subtraction.
struct month_literal : seq<rep<4, digit>, one<'-'>, two_digits, not_at<sor<ident_other, one<'-', '.', ':'>>>> {};

struct sql_string_char : sor<seq<one<'\\'>, any>, two<'\''>, not_one<'\''>>, token {};
struct sql_string : seq<one<'\''>, star<sql_string_char>, must<one<'\''>>>, token {};
struct dq_string_char : sor<seq<one<'\\'>, any>, not_one<'"'>>, token {};
struct dq_string : seq<one<'"'>, star<dq_string_char>, must<one<'"'>>>, token {};
struct quoted_string : sor<sql_string, dq_string>, token {};
struct interval_unit : word {};
struct typed_literal : seq<sor<kw_date, kw_timestamp>, ws, sql_string> {};
// INTERVAL '30' DAY, INTERVAL '1-2' YEAR TO MONTH (Catalyst prints ANSI intervals this way too)
struct interval_literal : seq<kw_interval, ws, sor<sql_string, number>, ws, interval_unit,
                              opt<ws, kw<TAO_PEGTL_ISTRING("TO")>, ws, interval_unit>> {};
struct sql_literal : seq<dialect_gate<kSqlLiterals>, sor<typed_literal, quoted_string>> {};

struct bool_literal : sor<kw_true, kw_false> {};
struct null_literal : kw_null {};
// `...` and `... 12 more fields`: Spark's abbreviation of long lists.
struct more_fields : seq<digits, ws, TAO_PEGTL_STRING("more"), ws,
                         sor<TAO_PEGTL_STRING("fields"), TAO_PEGTL_STRING("entries")>>, token {};
struct ellipsis : seq<TAO_PEGTL_STRING("..."), opt<ws, more_fields>> {};

// ---------------------------------------------------------------- attributes and names
// Expression id after `#`: 12, 12L, x, xL, optionally a watermark delay `-T10000ms`.
struct watermark : seq<TAO_PEGTL_STRING("-T"), digits, TAO_PEGTL_STRING("ms")>, token {};
struct expr_id : seq<sor<digits, one<'x'>>, opt<one<'L'>>, not_at<ident_other>, opt<watermark>>, token {};
struct hash_id : seq<one<'#'>, expr_id>, token {};

// An attribute whose name is one or more words (`Temperature difference#2212`, `ss_item_sk#1`,
// `#12L`). Words in the name are plain (letters, digits, `_ $ . -`); names with parentheses
// (`sum(x)#40L`, `(avg(x) * 1.2)#31`) are read as an expression followed by `#id` (attr_suffix).
// `seq<not_at<reserved>, name_chars>` in one scan: the name characters, unless the word at their
// start (its [A-Za-z0-9_$] bytes) is a keyword.
struct name_word : token {
  using rule_t = name_word;
  using subs_t = empty_list;
  template <typename ParseInput>
  static bool match(ParseInput& in) {
    const std::size_t size = in.size(std::size_t(-1) / 2);
    const char* p = in.current();
    std::size_t n = 0;
    while (n < size && reserved::word_char(p[n])) ++n;
    const std::size_t word = n;
    while (n < size && name_chars::is_name(p[n])) ++n;
    if (n == 0 || reserved::is_keyword(p, word)) return false;
    in.bump(n);
    return true;
  }
};
struct attr_name : seq<name_word, star<one<' '>, name_word>>, token {};
struct attribute : seq<opt<attr_name>, hash_id> {};
struct attr_suffix : hash_id {};

struct backquoted : seq<one<'`'>, star<sor<two<'`'>, not_one<'`'>>>, must<one<'`'>>>, token {};
struct name_segment : sor<backquoted, word>, token {};
// A bare (possibly qualified) name: a column in SQL text, an unquoted literal in Catalyst text.
struct bare_name : seq<not_at<reserved>, name_segment, star<one<'.'>, name_segment>> {};
// Words that start with a digit (`2001Q1`): unquoted literals.
struct bare_word : seq<not_at<reserved>, plus<ident_other>> {};

// ---------------------------------------------------------------- subqueries
// Subquery scalar-subquery#51, [id=#52] / ReusedSubquery Subquery subquery#7, [id=#8] /
// scalar-subquery#51, [id=#52] / ScalarSubquery#7 / dynamicpruning#5 / exists#9 are recognised
// by their names; the `[id=#N]` / `[plan_id=N]` tag is kept in the span only.
struct subquery_name : sor<TAO_PEGTL_STRING("scalar-subquery"), TAO_PEGTL_STRING("subquery"),
                           TAO_PEGTL_STRING("ScalarSubquery"), TAO_PEGTL_STRING("dynamicpruning"),
                           TAO_PEGTL_STRING("listquery"), TAO_PEGTL_STRING("exists")>, token {};
struct plan_tag : seq<one<'['>, sor<TAO_PEGTL_STRING("id=#"), TAO_PEGTL_STRING("plan_id=")>,
                      sor<digits, one<'x'>>, one<']'>>, token {};
struct subquery_ref : seq<subquery_name, hash_id, opt<one<','>, ws, plan_tag>> {};
struct reused_mark : seq<kw_reused_subquery, plus<blank_char>>, token {};
struct subquery_expr : sor<seq<opt<reused_mark>, kw_subquery, plus<blank_char>, subquery_ref>,
                           subquery_ref> {};

// ---------------------------------------------------------------- operators
// Spark 2.x printed And and Or as `&&` and `||` (`(a#1 > 1) && (b#2 < 3)`); in plan text `||` is
// never a concatenation (Catalyst prints `concat(...)`), in SQL it is one (see op_additive).
struct op_or : sor<kw_or, seq<dialect_gate<kRawLiterals>, TAO_PEGTL_STRING("||")>> {};
struct op_and : sor<kw_and, TAO_PEGTL_STRING("&&")> {};
struct op_not : kw_not {};
struct op_compare : sor<TAO_PEGTL_STRING("<=>"), TAO_PEGTL_STRING("<="), TAO_PEGTL_STRING("<>"),
                        TAO_PEGTL_STRING(">="), TAO_PEGTL_STRING("!="), TAO_PEGTL_STRING("=="),
                        one<'=', '<', '>'>> {};
struct op_additive : sor<seq<not_at<dialect_gate<kRawLiterals>>, TAO_PEGTL_STRING("||")>, one<'+'>,
                         seq<one<'-'>, not_at<one<'>'>>>> {};
struct op_multiplicative : sor<one<'*', '/', '%', '&', '^'>, seq<one<'|'>, not_at<one<'|'>>>, kw_div> {};
struct op_unary : sor<one<'-'>, one<'~'>, one<'+'>> {};
struct op_is_null : seq<kw_is, ws, opt<kw_not, ws>, kw_null> {};
struct op_in : seq<opt<kw_not, ws>, kw_in> {};
struct op_like : seq<opt<kw_not, ws>, sor<kw_like, kw_ilike, kw_rlike, kw_regexp>> {};
struct op_between : seq<opt<kw_not, ws>, kw_between> {};
struct op_sort_direction : sor<kw_asc, kw_desc> {};
struct op_nulls_order : seq<kw_nulls, ws, sor<kw_first, kw_last>> {};

// ---------------------------------------------------------------- expressions
struct expression;

// Where an operand may end: `)` `,` `]`, the end of text, or a keyword of the enclosing syntax.
struct operand_end : seq<ws, sor<one<')', ',', ']'>, eof, kw_and, kw_or, TAO_PEGTL_STRING("&&"),
                                 seq<dialect_gate<kRawLiterals>, TAO_PEGTL_STRING("||")>, kw_then, kw_else,
                                 kw_when, kw_end, kw_as, kw_asc, kw_desc>>, token {};
struct raw_value : raw_text {};
struct raw_literal : seq<dialect_gate<kRawLiterals>, raw_value> {};

// One element of an argument list or IN list: an expression, or (Catalyst) raw literal text.
struct list_item : sor<seq<expression, at<ws, one<',', ')', ']'>>>, raw_literal> {};
struct list_sep : seq<ws, one<','>, ws>, token {};
// Catalyst prints the empty string as nothing: `coalesce(c_last_name#8, )`.
struct empty_literal : seq<dialect_gate<kRawLiterals>, at<one<',', ')', ']'>>> {};
struct first_item : sor<list_item, seq<empty_literal, at<one<','>>>> {};
struct next_item : sor<list_item, empty_literal> {};
struct item_list : seq<first_item, star<list_sep, next_item>> {};

struct paren_close : one<')'> {};
struct bracket_close : one<']'> {};
struct call_close : one<')'> {};
struct in_close : one<')'> {};
struct cast_close : one<')'> {};

struct paren_expr : nesting<one<'('>, ws, expression, ws, must<paren_close>> {};

struct or_expr;
struct cast_operand : seq<or_expr> {};
struct cast_as : kw_as {};
struct cast_type : type_text {};
struct cast_expr : nesting<kw_cast, one<'('>, ws, must<cast_operand>, ws, must<cast_as>, ws,
                           must<cast_type>, ws, must<cast_close>> {};

struct case_operand : seq<or_expr> {};
struct case_condition : seq<or_expr> {};
struct case_value : seq<or_expr> {};
struct case_then : kw_then {};
struct case_end : kw_end {};
struct case_when : seq<kw_when, ws, must<case_condition>, ws, must<case_then>, ws, must<case_value>, ws> {};
struct case_else : seq<kw_else, ws, must<case_value>, ws> {};
struct case_expr : nesting<kw_case, ws, opt<not_at<kw_when>, case_operand, ws>, plus<case_when>,
                           opt<case_else>, must<case_end>> {};

struct function_name : seq<name_segment, star<one<'.'>, name_segment>>, token {};
struct call_args : opt<item_list> {};
// count(DISTINCT x#1)
struct distinct_mark : seq<kw_distinct, plus<blank_char>>, token {};
struct function_call : nesting<function_name, one<'('>, ws, opt<distinct_mark>, call_args, ws,
                               must<call_close>> {};
// input[0, int, false] (BoundReference)
struct bound_reference : nesting<TAO_PEGTL_STRING("input"), one<'['>, ws, call_args, ws,
                                 must<bracket_close>> {};
struct list_expr : nesting<one<'['>, ws, call_args, ws, must<bracket_close>> {};

// yyyy-MM, yyyy-MM-dd HH:mm:ss: a datetime pattern (date_format, to_date, unix_timestamp), which
// Catalyst prints unquoted. Runs of one pattern letter joined by '-', '/' or ':' (at least two runs)
// cannot be Catalyst arithmetic (blanks around the operator) nor an attribute (no #id).
struct pattern_run : sor<plus<one<'y'>>, plus<one<'M'>>, plus<one<'d'>>, plus<one<'H'>>, plus<one<'m'>>,
                         plus<one<'s'>>, plus<one<'S'>>> {};
struct pattern_group : seq<pattern_run, plus<one<'-', '/', ':'>, pattern_run>> {};
struct datetime_pattern : seq<pattern_group, opt<one<' '>, pattern_group>, not_at<ident_other>,
                              not_at<one<'#', '(', '.'>>> {};
struct literal : sor<date_literal, month_literal, number, bool_literal, null_literal, datetime_pattern> {};

// Order matters: subqueries before attributes (`Subquery scalar-subquery#1` is not an attribute
// named "Subquery scalar-subquery"); attributes, the most common leaf, early.
// The first two bytes of every subquery_expr (`Subquery`, `ReusedSubquery`, `subquery`,
// `scalar-subquery`, `ScalarSubquery`, `dynamicpruning`, `listquery`, `exists`): most names that
// start with one of these letters are ruled out without trying the six names.
struct subquery_start {
  using rule_t = subquery_start;
  using subs_t = empty_list;
  template <typename ParseInput>
  static bool match(ParseInput& in) {
    if (in.size(2) < 2) return false;
    const char* p = in.current();
    bool ok = false;
    switch (p[0]) {
      case 'S':
      case 's': ok = p[1] == 'u' || p[1] == 'c'; break;
      case 'R': ok = p[1] == 'e'; break;
      case 'd': ok = p[1] == 'y'; break;
      case 'l': ok = p[1] == 'i'; break;
      case 'e': ok = p[1] == 'x'; break;
      default: break;
    }
    if (ok) in.bump(2);  // used under at<>, which rewinds
    return ok;
  }
};
// What `attribute` can start with: name characters and blanks up to a `#` (a necessary condition,
// checked in one loop; a function name stops at its `(`).
struct attr_start {
  using rule_t = attr_start;
  using subs_t = empty_list;
  template <typename ParseInput>
  static bool match(ParseInput& in) {
    const std::size_t size = in.size(std::size_t(-1) / 2);
    const char* p = in.current();
    std::size_t n = 0;
    while (n < size && (name_chars::is_name(p[n]) || p[n] == ' ')) ++n;
    if (n == size || p[n] != '#') return false;
    in.bump(n + 1);  // used under at<>, which rewinds
    return true;
  }
};
struct paren_start : one<'('> {};
// Every alternative after the first byte it can start with (a failed alternative costs its
// bookkeeping; most leaves are attributes and function calls).
struct primary : sor<seq<at<paren_start>, paren_expr>, seq<at<subquery_start>, subquery_expr>,
                     seq<at<attr_start>, attribute>, seq<at<one<'C', 'c'>>, case_expr>,
                     seq<at<one<'c', 'C', 't', 'T'>>, cast_expr>, sql_literal,
                     seq<at<one<'I', 'i'>>, interval_literal>, seq<at<one<'i'>>, bound_reference>,
                     seq<at<one<'.'>>, ellipsis>, literal, function_call,
                     seq<at<one<'['>>, list_expr>, bare_name, bare_word> {};

// Postfix forms: `(expr)#31` (an attribute named by an expression), `a#1[0]` (element access),
// `a#1.field` (struct field).
struct index_suffix : nesting<one<'['>, ws, must<expression>, ws, must<bracket_close>> {};
// `.count(1)` after `Subquery scalar-subquery#2, [id=#1]`: struct field names are printed raw.
struct field_args : seq<one<'('>, opt<type_text>, one<')'>> {};
struct field_suffix : seq<one<'.'>, name_segment, opt<field_args>> {};
// rank(x#1) windowspecdefinition(...): a window function followed by its window spec.
struct window_spec : function_call {};
struct window_suffix : seq<plus<blank_char>, at<TAO_PEGTL_STRING("windowspecdefinition(")>, window_spec> {};
// Each suffix after the bytes it starts with: an operand followed by a blank (`a#1 AND ...`, the
// common case) tries only the window form, and that only before `windowspecdefinition(`.
struct window_start : seq<plus<blank_char>, TAO_PEGTL_STRING("windowspecdefinition(")>, token {};
struct postfix : seq<primary, star<sor<seq<at<one<'#'>>, attr_suffix>, seq<at<one<'['>>, index_suffix>,
                                       seq<at<one<'.'>>, field_suffix>, seq<at<window_start>, window_suffix>>>> {};

struct unary_rec;
struct unary_start : one<'-', '~', '+'> {};
struct unary : sor<seq<at<unary_start>, unary_rec>, postfix> {};
struct unary_rec : nesting<op_unary, ws, unary> {};

// No must<> after an arithmetic operator: in Catalyst text `a%` may be an unquoted literal.
struct mul_tail : seq<ws, op_multiplicative, ws, unary> {};
struct mul_start : seq<ws, one<'*', '/', '%', '&', '^', '|', 'd', 'D'>>, token {};
struct multiplicative : seq<unary, star<at<mul_start>, mul_tail>> {};
struct add_tail : seq<ws, op_additive, ws, multiplicative> {};
struct add_start : seq<ws, one<'+', '-', '|'>>, token {};
struct additive : seq<multiplicative, star<at<add_start>, add_tail>> {};

// Right side of a comparison or LIKE: an expression, or (Catalyst) unquoted literal text such as
// `Books   ` or `>10000`.
struct comparand : sor<seq<dialect_gate<kRawLiterals>, sor<seq<additive, at<operand_end>>, raw_value>>,
                       seq<not_at<dialect_gate<kRawLiterals>>, additive>> {};
struct compare_tail : seq<ws, op_compare, ws, must<comparand>> {};
struct is_null_tail : seq<ws, op_is_null> {};
struct in_list : nesting<one<'('>, ws, call_args, ws, must<in_close>> {};
struct in_list_tail : seq<ws, op_in, ws, in_list> {};
// Spark 3.x InSet (more than 10 literals): `x INSET 1200, 1201, 1202` without parentheses.
struct kw_inset : kw<TAO_PEGTL_ISTRING("INSET")> {};
struct inset_item : sor<seq<additive, at<operand_end>>, raw_literal> {};
struct inset_tail : seq<ws, kw_inset, ws, inset_item, star<list_sep, inset_item>> {};
struct in_subquery_tail : seq<ws, op_in, plus<blank_char>, sor<subquery_expr, attribute>> {};
struct escape_clause : seq<ws, kw_escape, ws, sor<sql_string, raw_text>>, token {};
struct like_tail : seq<ws, op_like, ws, must<comparand>, opt<escape_clause>> {};
struct between_tail : seq<ws, op_between, ws, must<additive>, ws, must<kw_and>, ws, must<additive>> {};
struct predicate_tail : sor<compare_tail, is_null_tail, in_list_tail, inset_tail, in_subquery_tail,
                            like_tail, between_tail> {};
struct predicate_start
    : seq<ws, one<'=', '<', '>', '!', 'I', 'i', 'N', 'n', 'L', 'l', 'R', 'r', 'B', 'b'>>, token {};
struct predicate : seq<additive, star<at<predicate_start>, predicate_tail>> {};

struct not_rec;
struct not_expr : sor<seq<at<kw_not>, not_rec>, predicate> {};
struct not_rec : nesting<op_not, ws, not_expr> {};

struct and_tail : seq<ws, op_and, ws, must<not_expr>> {};
struct and_expr : seq<not_expr, star<at<ws, op_and>, and_tail>> {};
struct or_tail : seq<ws, op_or, ws, must<and_expr>> {};
struct or_expr : seq<and_expr, star<at<ws, op_or>, or_tail>> {};

// `expr AS name#12` (aliases in project lists) and `a#1 ASC NULLS FIRST` (sort orders).
// `AS 30 days #31`: an alias whose name is not an expression (spaces before `#`).
// `AS count(key) FILTER (WHERE (val > 1))#12`: name text with balanced parentheses up to `#`.
struct alias_chars {
  using rule_t = alias_chars;
  using subs_t = empty_list;
  template <typename ParseInput>
  static bool match(ParseInput& in) {
    std::size_t depth = 0;
    const std::size_t size = in.size(std::size_t(-1) / 2);
    const char* p = in.current();
    for (std::size_t n = 0; n < size; ++n) {
      const char c = p[n];
      if (c == '(' || c == '[') {
        ++depth;
      } else if (c == ')' || c == ']') {
        if (depth == 0) return false;
        --depth;
      } else if (depth == 0 && c == ',') {
        return false;
      } else if (depth == 0 && c == '#') {
        if (n == 0) return false;
        in.bump(n);
        return true;
      }
    }
    return false;
  }
};
struct alias_text : seq<alias_chars, hash_id> {};
struct alias_name : sor<seq<postfix, at<operand_end>>, alias_text> {};
struct alias_tail : seq<ws, kw_as, ws, must<alias_name>> {};
struct sort_tail : sor<seq<ws, op_sort_direction, opt<ws, op_nulls_order>>, seq<ws, op_nulls_order>> {};
struct alias_start : seq<ws, one<'A', 'a'>>, token {};
struct sort_start : seq<ws, one<'A', 'a', 'D', 'd', 'N', 'n'>>, token {};
struct expression : seq<or_expr, opt<at<alias_start>, alias_tail>, opt<at<sort_start>, sort_tail>> {};

struct trailing_garbage : any {};
// A whole Catalyst / SQL text: one expression, or a top-level list `[a, b]` (PartitionFilters).
struct catalyst_text : seq<ws, expression, ws, must<eof>> {};

// ---------------------------------------------------------------- v1 pushed filters
// [IsNotNull(a), GreaterThan(a,5), In(c, [1,2,3]), *EqualTo(b,x), ScalarSubquery#7 ...]
// Values are raw text (`EqualTo(s,a,b)` reads as three arguments; the actions rejoin them).
struct pf_filter;
struct pf_value : sor<seq<at<subquery_start>, subquery_expr>, raw_value> {};
struct pf_value_list : nesting<one<'['>, ws, opt<pf_value, star<list_sep, pf_value>>, ws,
                               must<bracket_close>> {};
struct pf_known_name
    : sor<kw<TAO_PEGTL_STRING("And")>, kw<TAO_PEGTL_STRING("Or")>, kw<TAO_PEGTL_STRING("Not")>,
          kw<TAO_PEGTL_STRING("EqualTo")>, kw<TAO_PEGTL_STRING("EqualNullSafe")>,
          kw<TAO_PEGTL_STRING("GreaterThan")>, kw<TAO_PEGTL_STRING("GreaterThanOrEqual")>,
          kw<TAO_PEGTL_STRING("LessThan")>, kw<TAO_PEGTL_STRING("LessThanOrEqual")>,
          kw<TAO_PEGTL_STRING("In")>, kw<TAO_PEGTL_STRING("IsNull")>,
          kw<TAO_PEGTL_STRING("IsNotNull")>, kw<TAO_PEGTL_STRING("StringStartsWith")>,
          kw<TAO_PEGTL_STRING("StringEndsWith")>, kw<TAO_PEGTL_STRING("StringContains")>,
          kw<TAO_PEGTL_STRING("AlwaysTrue")>, kw<TAO_PEGTL_STRING("AlwaysFalse")>>, token {};
// Only the v1 Filter names nest (And(Or(..), ..)); any other `x(...)` argument is a value.
// (The known names start with one of A E G I L N O S: other arguments skip the name list.)
struct pf_nested : seq<at<one<'A', 'E', 'G', 'I', 'L', 'N', 'O', 'S'>>, at<pf_known_name, one<'('>>, pf_filter> {};
struct pf_arg : sor<seq<pf_nested, at<ws, one<',', ')'>>>, pf_value_list, pf_value> {};
struct pf_name : word {};
struct pf_close : one<')'> {};
struct pf_filter : nesting<pf_name, one<'('>, ws, opt<pf_arg, star<list_sep, pf_arg>>, ws,
                           must<pf_close>> {};
struct pf_handled : one<'*'> {};
// An element that is not v1 syntax (DSv2 predicates print as SQL, `a > 5`) falls back to the
// expression grammar.
struct pf_item : sor<seq<opt<pf_handled>, pf_filter, at<ws, one<',', ']'>>>,
                     seq<opt<pf_handled>, subquery_expr, at<ws, one<',', ']'>>>,
                     expression> {};
struct pf_list : seq<one<'['>, ws, opt<pf_item, star<list_sep, pf_item>>, ws, must<bracket_close>> {};
struct pushed_filter_text : seq<ws, sor<pf_list, seq<opt<pf_handled>, pf_filter>, expression>, ws,
                                must<eof>> {};

}  // namespace planlint::grammar::expr

namespace tao::pegtl {
template <typename Name, unsigned Flag>
struct analyze_traits<Name, planlint::grammar::expr::dialect_gate<Flag>> : analyze_opt_traits<> {};
template <typename Name>
struct analyze_traits<Name, planlint::grammar::expr::raw_text> : analyze_any_traits<> {};
template <typename Name>
struct analyze_traits<Name, planlint::grammar::expr::type_text> : analyze_any_traits<> {};
template <typename Name>
struct analyze_traits<Name, planlint::grammar::expr::reserved> : analyze_any_traits<> {};
template <typename Name>
struct analyze_traits<Name, planlint::grammar::expr::alias_chars> : analyze_any_traits<> {};
template <typename Name>
struct analyze_traits<Name, planlint::grammar::expr::name_chars> : analyze_any_traits<> {};
template <typename Name>
struct analyze_traits<Name, planlint::grammar::expr::subquery_start> : analyze_any_traits<> {};
template <typename Name>
struct analyze_traits<Name, planlint::grammar::expr::attr_start> : analyze_any_traits<> {};
template <typename Name>
struct analyze_traits<Name, planlint::grammar::expr::name_word> : analyze_any_traits<> {};
}  // namespace tao::pegtl
