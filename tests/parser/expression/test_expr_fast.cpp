// The hand-written fast reader (parser/expression/expr_fast.cpp) against the PEGTL grammar: on every
// text it accepts, the tree (kinds, names, ids, types, spans), the error and the truncation flag
// must be the grammar's. Texts: every expression the readers parse in the project's corpus and
// in ../shared/corpus (and every node's span of those), random expressions built from the shapes
// the fast reader knows with random spellings and blanks, and mutations of corpus expressions.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "grammar/expression.hpp"
#include "parser/expression/expr_fast.hpp"
#include "parser/expression/expression.hpp"
#include "parser/registry/parse.hpp"
#include "tests/support.hpp"

using namespace planlint;
namespace fs = std::filesystem;

namespace {

// Every field of the tree, the spans included.
void dump(const Expr& e, std::string& out) {
  out += '(';
  out += std::to_string(static_cast<int>(e.kind));
  out += " n=";
  out += e.name;
  out += " id=";
  out += e.expr_id;
  out += " t=";
  out += e.type;
  out += " @";
  out += std::to_string(e.begin) + "-" + std::to_string(e.end);
  for (const Expr& a : e.args) {
    out += ' ';
    dump(a, out);
  }
  out += ')';
}

std::string dump(const ParsedExpr& p) {
  std::string out = "text=" + p.text + " trunc=" + (p.truncated ? "1" : "0");
  if (!p.root) return out + " ERROR " + p.error + " @" + std::to_string(p.error_offset);
  out += ' ';
  dump(*p.root, out);
  return out;
}

struct Tally {
  std::size_t texts = 0;
  std::size_t fast = 0;  // accepted by the fast reader (and compared)
  std::size_t differ = 0;
};

// The fast reader and the grammar on one text in one dialect.
void compare(TextStore& store, const std::string& s, ExprDialect d, Tally& t) {
  ++t.texts;
  const Text text = store.keep(s);
  ParsedExpr fast;
  if (!expr_parse::fast_parse(store, text, d, fast)) return;
  ++t.fast;
  const ParsedExpr slow = expr_parse::parse_with_grammar(store, text, d);
  const std::string a = dump(fast), b = dump(slow);
  if (a != b) {
    ++t.differ;
    if (t.differ <= 20) {
      INFO("dialect " << static_cast<int>(d) << ", text [" << s << "]");
      CHECK(a == b);
    }
  }
}

void compare_all(TextStore& store, const std::string& s, Tally& t) {
  compare(store, s, ExprDialect::Catalyst, t);
  compare(store, s, ExprDialect::PushedFilter, t);
  compare(store, s, ExprDialect::Sql, t);
}

// The texts of every node of a tree (its spans), with the whole.
void spans(const Expr& e, std::string_view text, std::vector<std::string>& out) {
  if (e.begin <= e.end && e.end <= text.size()) out.emplace_back(text.substr(e.begin, e.end - e.begin));
  for (const Expr& a : e.args) spans(a, text, out);
}

// The expression texts of every plan of the files under `dir`.
void collect(const fs::path& dir, std::unordered_set<std::string>& texts) {
  if (!fs::is_directory(dir)) return;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.file_size() > 20'000'000) continue;
    const std::string name = entry.path().filename().string();
    if (!name.ends_with(".txt") && !name.ends_with(".json") && !name.ends_with(".explain")) continue;
    const ParseResult r = parse_input(test::read_file(entry.path()), entry.path().string());
    for (const Plan& p : r.plans)
      for (const Operator& op : p.ops)
        for (const Field& f : op.fields)
          for (const ParsedExpr& e : f.exprs) {
            texts.emplace(e.text);
            if (!e.root) continue;
            std::vector<std::string> parts;
            spans(*e.root, e.text, parts);
            for (auto& s : parts) texts.insert(std::move(s));
          }
  }
}

// Random expressions from the shapes the fast reader knows, in right and wrong spellings.
class Gen {
 public:
  explicit Gen(unsigned seed) : rng_(seed) {}
  std::string expr(int depth) {
    switch (depth <= 0 ? pick(4) : pick(16)) {
      case 0:
        return attr();
      case 1:
        return number();
      case 2:
        return one_of({"true", "null", "Books", "abc def", "exists#3", "dynamicpruning#4", "AND#1", "NOT#2", "", "2024-01-01",
                       "x#1-T5ms", "...", "a#1.b", "a#1[0]", "-5", "'s'", "`q`#1", "a b#1", "#3", "sum(x)#4L", "TRUE", "False",
                       "GA", "M", "Advanced Degree     ", "Women   ", "1999-02-22", "1999-02-22 12:00:00", "2024-01-01T10",
                       "-5.00", "- 5", "-a#1", "-1.", "cast(a#1 as int)", "CAST(a#1 AS int)", "try_cast(a#1 as decimal(10,2))",
                       "cast(a#1 as  int )", "cast(a#1 AS map<int,string>)", "cast(a#1 as int", "cast(a#1)",
                       "Subquery scalar-subquery#5, [id=#6]", "ReusedSubquery Subquery scalar-subquery#42, [id=#9]",
                       "Subquery subquery#x", "Subquery scalar-subquery#5,  [id=#6]", "Subquery scalar-subquery#5,[plan_id=3]",
                       "Subquery  exists#1", "ReusedSubquery x", "Subquery", "input", "interval", "yyyy", "a degree", "a div b",
                       "x - y", "GA DESC", "p and q", "a windowspecdefinition(x)", "a.b", "a#1 AS b#2",
                       "4 yr Degree     ", "2 yr Degree", "4 x#1", "4 yr#3", "4 days", "4 div 2", "4 DIV x", "12.5 abc",
                       "4. yr", "2024-01-01 yr", "2024-01 yr", "4 AND", "4 asc", "4  yr  ", "4 yr(x)", "4 - yr", "007 b c",
                       "4e5 yr", "4L yr", "2001Q1", "4 yr, x",
                       // raw comparands, `word #7`, words joined by an operator without blanks
                       ">10000   ", "<5", "=x", ">", "> (1)", "scholaramalgamalg #7   ", "edu packscholar #9 ", "a #7#8", "a  #x",
                       "exists #7", "Subquery #3", "true #1", "N/A", "self-help", "a*b", "a+b-c", "M/d", "yyyy-MM", "s-x",
                       "a-", "a/-1", "a->b", "a-#1", "a%b", "AND-x", "x-AND", "a - b-c", "a-b c", "N/A#3",
                       // raw list items and digit words: keywords, a word before another word
                       "IN", "OH", "IN x", "AND", "and", "NOT", "NOT x", "CASE", "DISTINCT", "AS", "ASC", "NULLS", "IN(x)", "IN x#1",
                       "Williamson County", "Dona Ana County", "a IS", "a in", "a INx", "a DIV", "a divx", "a Like", "a nulls",
                       "a asc", "a windowspecdefinition", "a THEN", "a end", "a b(c)", "a b[c]", "a b#1", "a\tb", "a b.c",
                       "true x", "null y", "a  b  ", "a b+c#1", "2001Q1 x", "2001e", "2001e5", "2001B", "2001BD", "12Lx", "1_a",
                       "1$", "2001Q1#3", "2001Q1.x", "2001Q1-3", "007abc", "2024-01x"});
      case 3:
        return word() + "(" + list(depth - 1) + ")";
      case 4:
        return "(" + sp() + expr(depth - 1) + sp() + ")";
      case 5:
      case 6:
        return expr(depth - 1) + sp1() + cmp() + sp1() + expr(depth - 1);
      case 7:
        return expr(depth - 1) + sp1() + one_of({"AND", "OR", "and", "Or", "&&", "||", "ANDx", "AS", "DESC"}) + sp1() + expr(depth - 1);
      case 8:
        return one_of({"NOT", "not", "Not", "NOT", "NOTE"}) + sp() + expr(depth - 1);
      case 9:
        return expr(depth - 1) + one_of({" IS NULL", " IS NOT NULL", " is null", " IS  NULL", " IS NULLx", "IS NULL"});
      case 10:
        return expr(depth - 1) + one_of({" IN ", " IN", " in ", " NOT IN ", " IN  "}) + "(" + list(depth - 1) + ")";
      case 11:
        return expr(depth - 1) + one_of({" INSET ", " INSET", " inset "}) + list(depth - 1);
      case 12:  // arithmetic: the operators read, the others of mul_start / add_start, near misses
        return expr(depth - 1) +
               one_of({" + ", " - ", " * ", " / ", " + ", " * ", " % ", " div ", " DIV ", " & ", " ^ ", " | ", " || ", " -> ",
                       " - -", " -", " +", "+", "*", " ** ", " // ", " *\t", "\t/ ", " * -", " + -1 - "}) +
               expr(depth - 1);
      case 13: {  // CASE: the searched form in upper case is read; other spellings, an operand, cuts
        std::string s = one_of({"CASE WHEN ", "CASE  WHEN ", "case when ", "CASE WHEN", "CASE a#1 WHEN ", "CASE ", "CASE\tWHEN "}) +
                        expr(depth - 1) + one_of({" THEN ", " then ", "  THEN  ", " THEN", "THEN "}) + expr(depth - 1);
        if (pick(2) == 0) s += one_of({" WHEN ", " WHEN", " when "}) + expr(depth - 1) + " THEN " + expr(depth - 1);
        if (pick(2) == 0) s += one_of({" ELSE ", " else ", " ELSE"}) + expr(depth - 1);
        return s + one_of({" END", " END", " end", "END", " END ", " ENDx", ""});
      }
      case 14:  // a `#id` after a call, parentheses, a cast, a CASE, an attribute, a number (attr_suffix)
        return one_of({"(" + expr(depth - 1) + ")", word() + "(" + list(depth - 1) + ")", attr(), number(), "cast(a#1 as int)",
                       "CASE WHEN a#1 THEN 1 END", "Subquery scalar-subquery#5, [id=#6]", "(" + expr(depth - 1) + ")#2"}) +
               one_of({"#1", "#12L", "#x", "#xL", "#", "#1a", "#1-T5ms", "#3#4", " #5", "#6 ", "#7.a", "#8[0]"});
      default:
        return expr(depth - 1) + one_of({" IN ", " IN  ", " in ", " NOT IN "}) +
               one_of({"dynamicpruning#5", "subquery#2", "exists#1", "listquery#3", "ScalarSubquery#4", "scalar-subquery#5",
                       "dynamicpruning#5, [id=#6]", "other#7", "exists#1L", "subquery#x"});
    }
  }
  std::string pushed(int depth = 2) {
    std::string s = one_of({"IsNotNull", "EqualTo", "In", "And", "Not", "GreaterThan", "x", "*EqualTo", "Or", "GreaterThanOrEqual",
                            "Greater", "StringStartsWith"}) + one_of({"(", "(", "(", "( ", " ("});
    const int n = static_cast<int>(pick(4));
    for (int i = 0; i < n; ++i) {
      if (i) s += one_of({",", ",", ", ", ",,", " ,", ",  "});
      if (depth > 0 && pick(3) == 0) s += pushed(depth - 1);
      else s += one_of({"a", "d_year", "2000", "1.5", "x y", "s#1", "exists#2", "[1,2]", "IsNull(a)", "`b`", "'q'", "", "a=b", "{c}",
                        "1)", "Women     ", " Women", "extra large   ", "Subquery x", "a\tb", "*EqualTo(a,1)", "Foo(a)",
                        "[1999,2000]", "[ 1 , 2 ]", "[]", "[a b,c]", "[1,]", "[1,2", "[x#1]", "[(1)]", "[1)]", "[[1]]",
                        "x #6", "ScalarSubquery#5", "subquery#x", "exists#1 x", "scalar-subquery#2, [id=#3]", "dynamicpruning#4L",
                        "[exportiunivamalg #6   ,b #7]", "[exists#1]", "Subquery #2", "listquery#9-T1"});
    }
    return s + one_of({")", ")", "", "))", ") ", " )"});
  }
  // One random edit of `s`.
  std::string mutate(std::string s) {
    static const std::string bytes = " ()[],#.-+=<>!'`\"\tLxdAN0123a_$\n*/%";
    const std::size_t at = s.empty() ? 0 : pick(static_cast<unsigned>(s.size()));
    switch (pick(4)) {
      case 0:
        if (!s.empty()) s.erase(at, 1);
        break;
      case 1:
        s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), bytes[pick(static_cast<unsigned>(bytes.size()))]);
        break;
      case 2:
        if (!s.empty()) s[at] = bytes[pick(static_cast<unsigned>(bytes.size()))];
        break;
      default:
        if (!s.empty()) s[at] = static_cast<char>(std::islower(static_cast<unsigned char>(s[at])) ? std::toupper(s[at]) : std::tolower(s[at]));
        break;
    }
    return s;
  }

 private:
  unsigned pick(unsigned n) { return std::uniform_int_distribution<unsigned>(0, n - 1)(rng_); }
  std::string one_of(std::initializer_list<const char*> xs) { return *(xs.begin() + pick(static_cast<unsigned>(xs.size()))); }
  std::string one_of(std::initializer_list<std::string> xs) { return *(xs.begin() + pick(static_cast<unsigned>(xs.size()))); }
  std::string sp() { return one_of({"", "", "", " ", "  "}); }
  std::string sp1() { return one_of({" ", " ", " ", " ", "", "  ", "\t"}); }
  std::string attr() {
    return one_of({"a", "ss_item_sk", "key", "d_date_sk", "$x", "_c", "x1", "exists", "subquery", "IN", "Subquery", "case"}) +
           "#" + one_of({"1", "12", "12L", "x", "xL", "", "1a", "3L"});
  }
  std::string number() { return one_of({"0", "10", "2.5", "1.", "12L", "1e5", "007", "2024", "3.14BD", "1.5.2"}); }
  std::string word() {
    return one_of({"isnotnull", "coalesce", "f", "isnull", "cast", "case", "true", "in", "interval", "input", "exists",
                   "dynamicpruningexpression", "yyyy", "not", "count", "AND"});
  }
  std::string cmp() { return one_of({"=", "<", ">", "<=", ">=", "<=>", "<>", "!=", "==", "!", "=>", "<<"}); }
  std::string list(int depth) {
    const unsigned n = pick(4);
    std::string s;
    for (unsigned i = 0; i < n; ++i) {
      if (i) s += one_of({", ", ",", " , ", ", "});
      s += pick(6) == 0 ? std::string() : expr(depth);
    }
    if (pick(8) == 0) s = one_of({"DISTINCT a#1", "distinct a#1", " a#1", "a#1 "});
    return s;
  }
  std::mt19937 rng_;
};

}  // namespace

TEST_CASE("fast expression reader: the grammar's trees on the corpus expressions, random and mutated ones") {
  std::unordered_set<std::string> texts;
  collect(test::corpus_dir(), texts);
  if (auto shared = test::shared_dir()) collect(*shared / "corpus", texts);
  else test::without_shared("the corpus expressions of ../shared/corpus are not compared");
  std::vector<std::string> sorted(texts.begin(), texts.end());
  std::sort(sorted.begin(), sorted.end());
  TextStore store;
  Tally corpus;
  for (const auto& s : sorted) compare_all(store, s, corpus);
  MESSAGE("corpus: " << corpus.texts << " texts x dialects, " << corpus.fast << " read by the fast reader");
  CHECK(corpus.differ == 0);
  // The project's corpus alone holds thousands of attribute references, calls and conditions.
  CHECK(corpus.fast > 1000);

  Gen gen(20261206);
  Tally random;
  for (int i = 0; i < 60000; ++i) {
    TextStore s;  // a store per text: the arena stays small
    compare_all(s, gen.expr(1 + i % 4), random);
    compare_all(s, gen.pushed(), random);
  }
  MESSAGE("random: " << random.texts << " texts x dialects, " << random.fast << " read by the fast reader");
  CHECK(random.differ == 0);
  CHECK(random.fast > 10000);

  Tally mutated;
  std::mt19937 pick(7);
  for (int i = 0; i < 60000 && !sorted.empty(); ++i) {
    TextStore s;
    std::string t = sorted[std::uniform_int_distribution<std::size_t>(0, sorted.size() - 1)(pick)];
    const int edits = 1 + i % 3;
    for (int k = 0; k < edits; ++k) t = gen.mutate(std::move(t));
    compare_all(s, t, mutated);
  }
  MESSAGE("mutated: " << mutated.texts << " texts x dialects, " << mutated.fast << " read by the fast reader");
  CHECK(mutated.differ == 0);
  CHECK(mutated.fast > 1000);
}

TEST_CASE("fast expression reader: what it reads, and what it leaves to the grammar") {
  TextStore store;
  auto fast = [&](std::string_view s, ExprDialect d = ExprDialect::Catalyst) {
    ParsedExpr out;
    return expr_parse::fast_parse(store, store.keep(s), d, out);
  };
  CHECK(fast("ss_item_sk#12"));
  CHECK(fast("isnotnull(a#1)"));
  CHECK(fast("(isnotnull(a#1) AND (a#1 >= 10))"));
  CHECK(fast("coalesce(a#1, )"));
  CHECK(fast("dynamicpruningexpression(a#1 IN dynamicpruning#2)"));
  CHECK(fast("NOT (a#1 = b#2)"));
  CHECK(fast("(a#1 IN (1,2,3) OR b#2 IS NOT NULL)"));
  CHECK(fast("EqualTo(d_year,2000)", ExprDialect::PushedFilter));
  CHECK(fast("IsNotNull(d_date_sk)", ExprDialect::PushedFilter));
  CHECK(fast("(c#1 = abc def)"));
  CHECK(fast("(a#1 > -1)"));
  CHECK(fast("cast(a#1 as int)"));
  CHECK(fast("(d#1 = Subquery scalar-subquery#2, [id=#3])"));
  CHECK(fast("(substr(z#1, 1, 5) INSET 10144, 10336)"));
  CHECK(fast("Or(EqualTo(i_color,powder   ),EqualTo(i_size,extra large  ))", ExprDialect::PushedFilter));
  CHECK(fast("In(d_year, [1999,2000,2001])", ExprDialect::PushedFilter));
  // Arithmetic with + - * / (the golden plans' CheckOverflow and ratio filters).
  CHECK(fast("(a#1 + 1)"));
  CHECK(fast("(rn#36 - 1)"));
  CHECK(fast("(cast(sale#35 as decimal(21,2)) > (2 * refund#36))"));
  CHECK(fast("((stdev#26 / mean#27) > 1.0)"));
  CHECK(fast("CheckOverflow((0.90 * promote_precision(ws_item_rev#45)), DecimalType(19,3), true)"));
  CHECK(fast("(a#1 - -5 * b#2 / c#3 + d#4)"));
  // The searched CASE.
  CHECK(fast("CASE WHEN (mean#47 = 0.0) THEN false ELSE ((stdev#46 / mean#47) > 1.0) END"));
  CHECK(fast("(CASE WHEN (a#1 > 0) THEN (b#2 / a#1) END > CASE WHEN (c#3 > 0.00) THEN 1 WHEN d#4 THEN 2 ELSE null END)"));
  // A `#id` after a call, parentheses or an attribute (an Attribute named by the text before it).
  CHECK(fast("isnotnull(max(val)#x)"));
  CHECK(fast("(cast(ctr_total_return#16 as decimal(24,7)) > (avg(ctr_total_return) * 1.2)#34)"));
  CHECK(fast("(d_month_seq + 3)#51"));
  CHECK(fast("ctr_store_sk#12#30"));
  CHECK_FALSE(fast("5#3"));
  // Raw list items (list_item's raw_literal) and words that start with digits (bare_word).
  CHECK(fast("(s_county#9 IN (Williamson County,Franklin Parish,Bronx County) AND isnotnull(s_store_sk#8))"));
  CHECK(fast("(ca_state#28 IN (IN,OH,NJ) OR ca_state#28 IN (WI,CT,KY))"));
  CHECK(fast("d_quarter_name#93 IN (2001Q1,2001Q2,2001Q3)"));
  CHECK_FALSE(fast("a#1 IN (x IS NULL y)"));
  CHECK_FALSE(fast("a#1 IN (NOT)"));
  CHECK_FALSE(fast("max(val)#x-T5ms"));
  CHECK_FALSE(fast("CASE a#1 WHEN 1 THEN 2 END"));
  CHECK_FALSE(fast("CASE WHEN a#1 THEN 1 end"));
  CHECK_FALSE(fast("CASE WHEN a#1 THEN 1"));
  CHECK_FALSE(fast("(a#1 THEN b#2)"));
  // Left to the grammar: other spellings, suffixes, the other arithmetic operators, the SQL dialect.
  CHECK_FALSE(fast("(a#1 and b#2)"));
  CHECK_FALSE(fast("a#1.field"));
  CHECK_FALSE(fast("(a#1 % 2)"));
  CHECK_FALSE(fast("(a#1 div 2)"));
  CHECK_FALSE(fast("(a#1 | 2)"));
  CHECK_FALSE(fast("(a#1 -> 2)"));
  CHECK_FALSE(fast("(a#1 + -b#2)"));
  CHECK_FALSE(fast("(a#1 + )"));
  CHECK_FALSE(fast("a#1", ExprDialect::Sql));
  CHECK_FALSE(fast("EqualTo(s,a,b)", ExprDialect::PushedFilter));
  // Cut right after an opening bracket or a separator: declined without reading past the end
  // (the fuzz target's crash `otNOTNT(`; the sanitizer suite runs this).
  for (std::string_view cut : {"otNOTNT(", "EqualTo(", "EqualTo( ", "And(EqualTo(a,1),", "And(EqualTo(a,1), ", "In(d, [1,"})
    CHECK_FALSE(fast(cut, ExprDialect::PushedFilter));
}

// The shapes of the golden plans the fast reader left to the grammar until the tenth round of
// issue 37 (TPC-DS's padded values): each read by the fast reader, with the grammar's tree.
TEST_CASE("fast expression reader: raw comparands, `word #7` items and values, bare words joined without blanks") {
  TextStore store;
  auto same_as_grammar = [&](std::string_view s, ExprDialect d) {
    const Text text = store.keep(s);
    ParsedExpr fast;
    const bool read = expr_parse::fast_parse(store, text, d, fast);
    const ParsedExpr slow = expr_parse::parse_with_grammar(store, text, d);
    const std::string fast_tree = read ? dump(fast) : std::string("declined");
    const std::string grammar_tree = dump(slow);
    INFO("text [" << s << "]");
    CHECK(read);
    CHECK(fast_tree == grammar_tree);
  };
  const ExprDialect cat = ExprDialect::Catalyst, pf = ExprDialect::PushedFilter;
  same_as_grammar("((hd_buy_potential#15 = >10000         ) OR (hd_buy_potential#15 = unknown        ))", cat);
  same_as_grammar("(a#1 <= <5 )", cat);
  same_as_grammar("(a#1 = =x)", cat);
  same_as_grammar("i_brand#2 IN (scholaramalgamalg #7      ,edu packscholar #9    ,exportiunivamalg #6 )", cat);
  same_as_grammar("In(i_brand, [exportiunivamalg #6     ,scholaramalgamalg #7   ])", pf);
  same_as_grammar("EqualTo(d_week_seq,ScalarSubquery#100)", pf);
  same_as_grammar("And(EqualTo(key,ScalarSubquery#x),EqualTo(b,x #1))", pf);
  same_as_grammar("LessThan(a,subquery#3 )", pf);
  same_as_grammar("(i_size#6 = N/A                 )", cat);
  same_as_grammar("i_class#3 IN (portable  ,self-help   ,a*b, a+b-c, a-b/c)", cat);
  same_as_grammar("((i_size#6 = N/A) AND (i_color#7 = light-blue))", cat);

  // The nodes themselves: a literal `>10000`, a literal `scholaramalgamalg #7`, `N / A`.
  ParsedExpr raw = parse_expression(store, store.keep("(a#1 = >10000   )"), cat);
  REQUIRE(raw.root);
  REQUIRE(raw.root->args.size() == 2);
  CHECK(raw.root->args[1].kind == ExprKind::Literal);
  CHECK(std::string(raw.root->args[1].name) == ">10000");
  ParsedExpr item = parse_expression(store, store.keep("b#2 IN (scholaramalgamalg #7   ,x)"), cat);
  REQUIRE(item.root);
  REQUIRE(item.root->args.size() == 3);
  CHECK(std::string(item.root->args[1].name) == "scholaramalgamalg #7");
  ParsedExpr slash = parse_expression(store, store.keep("(c#3 = N/A  )"), cat);
  REQUIRE(slash.root);
  REQUIRE(slash.root->args.size() == 2);
  CHECK(slash.root->args[1].kind == ExprKind::Binary);
  CHECK(std::string(slash.root->args[1].name) == "/");

  // Still the grammar's: datetime patterns (a literal before bare_name), a comparand that reads
  // on past its additive, a subquery reference that something follows, a `#` in the column.
  auto fast = [&](std::string_view s, ExprDialect d) {
    ParsedExpr out;
    return expr_parse::fast_parse(store, store.keep(s), d, out);
  };
  CHECK_FALSE(fast("(a#1 = M/d )", cat));
  CHECK_FALSE(fast("(a#1 = yyyy-MM )", cat));
  CHECK_FALSE(fast("(d_date#34 > d_date#28 + 5 days)", cat));
  CHECK_FALSE(fast("(a#1 = x->y)", cat));
  CHECK_FALSE(fast("a#1 IN (exists #7)", cat));
  CHECK_FALSE(fast("EqualTo(a,exists#1 x)", pf));
  CHECK_FALSE(fast("EqualTo(a #1,5)", pf));
  CHECK_FALSE(fast("EqualTo(a,ScalarSubquery#5, [id=#6])", pf));
}

TEST_CASE("fast expression reader: a pushed filter's argument list is one block of its size") {
  // Two arguments (every filter but IsNull, IsNotNull and Not): one block of two, not a block of
  // one moved to a block of three when the second is read; one argument: a block of one. The
  // trees are the grammar's either way (the cases above).
  TextStore store;
  auto read_pf = [&](std::string_view s) {
    ParsedExpr out;
    REQUIRE(expr_parse::fast_parse(store, store.keep(s), ExprDialect::PushedFilter, out));
    REQUIRE(out.root);
    return out;
  };
  const ParsedExpr eq = read_pf("EqualTo(a,5)");
  CHECK(eq.root->args.size() == 2);
  CHECK(eq.root->args.capacity() == 2);
  const ParsedExpr in = read_pf("In(d_year, [1999,2000,2001])");
  CHECK(in.root->args.capacity() == 2);
  CHECK(in.root->args[1].args.size() == 3);
  const ParsedExpr both = read_pf("And(GreaterThan(a,1),Or(IsNull(b),Not(EqualTo(c,x))))");
  CHECK(both.root->args.capacity() == 2);
  CHECK(both.root->args[0].args.capacity() == 2);
  CHECK(both.root->args[1].args.capacity() == 2);
  CHECK(both.root->args[1].args[0].args.capacity() == 1);  // IsNull(b)
  CHECK(both.root->args[1].args[1].args.capacity() == 1);  // Not(...)
  CHECK(both.root->args[1].args[1].args[0].args.capacity() == 2);
  const ParsedExpr one = read_pf("IsNotNull(ss_sold_date_sk)");
  CHECK(one.root->args.size() == 1);
  CHECK(one.root->args.capacity() == 1);
}

TEST_CASE("fast expression reader: the cut mark `...` is found wherever it lies") {
  // A text the fast reader takes (a pushed filter over one long raw value), with `...` at every
  // place from the first byte of the value to its end, and texts with dots that make no cut mark.
  TextStore store;
  // Whether the fast reader (which must read `s`) marks it cut, checked against the grammar's mark.
  auto truncated_in = [&](const std::string& s, ExprDialect d) {
    ParsedExpr out;
    const bool read = expr_parse::fast_parse(store, store.keep(s), d, out);
    CAPTURE(s);
    REQUIRE(read);
    const ParsedExpr grammar = expr_parse::parse_with_grammar(store, store.keep(s), d);
    CHECK(out.truncated == grammar.truncated);
    return out.truncated;
  };
  auto truncated = [&](const std::string& s) { return truncated_in(s, ExprDialect::PushedFilter); };
  for (std::size_t at = 0; at <= 40; ++at) {
    std::string arg(40, 'a');
    arg.replace(at, 3, "...");
    arg.resize(40);
    const bool whole = arg.find("...") != std::string::npos;
    CHECK(truncated("EqualTo(c," + arg + ")") == whole);
  }
  CHECK_FALSE(truncated("EqualTo(c,a.b.c.d.e.f.g.h.i.j.k.l.m.n)"));
  CHECK_FALSE(truncated("EqualTo(c,aaaaaaaaaaaaaa..b)"));
  CHECK(truncated("EqualTo(c,aaaaaaaaaaaaa...b)"));
  CHECK(truncated("EqualTo(c,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...)"));
  CHECK(truncated("EqualTo(c,...)"));

  // Texts of every length from 8 to 40 bytes (`a = >` and a raw comparand), `...` at every place
  // of the value, and the same lengths with dots that make no mark: texts under 16 bytes are
  // looked at through two word loads that overlap, longer ones through a last 16-byte look that
  // ends at the text's end.
  auto truncated_cat = [&](const std::string& s) { return truncated_in(s, ExprDialect::Catalyst); };
  for (std::size_t size = 3; size <= 35; ++size) {
    for (std::size_t at = 0; at + 3 <= size; ++at) {
      std::string value(size, 'b');
      value.replace(at, 3, "...");
      CHECK(truncated_cat("a = >" + value));
      value[at + (at % 3)] = 'c';  // two dots at most
      CHECK_FALSE(truncated_cat("a = >" + value));
      std::string dotted(size, 'b');  // dots apart, and a pair
      for (std::size_t i = at % 2; i < size; i += 2) dotted[i] = '.';
      if (at + 1 < size) dotted[at] = dotted[at + 1] = '.';
      CHECK(truncated_cat("a = >" + dotted) == (dotted.find("...") != std::string::npos));
    }
  }
}

TEST_CASE("fast expression reader: a word before `#id` is a subquery only when it is a subquery name") {
  TextStore store;
  auto kind_of_rhs = [&](std::string_view name) {
    const std::string s = "(a#1 = " + std::string(name) + "#7)";
    ParsedExpr out;
    REQUIRE(expr_parse::fast_parse(store, store.keep(s), ExprDialect::Catalyst, out));
    REQUIRE(out.root);
    REQUIRE(out.root->args.size() == 2);
    return out.root->args[1].kind;
  };
  for (std::string_view sub : {"exists", "subquery", "listquery", "ScalarSubquery", "dynamicpruning"}) {
    CAPTURE(sub);
    CHECK(kind_of_rhs(sub) == ExprKind::Subquery);
  }
  // One byte off, one byte more or less, another case: attributes.
  for (std::string_view attr : {"existz", "exist", "existss", "Subquery_", "subquerx", "listquerx", "ScalarSubquerY",
                                "dynamicpruninG", "dynamicpruning_", "scalarsubquery", "x"}) {
    CAPTURE(attr);
    CHECK(kind_of_rhs(attr) == ExprKind::Attribute);
  }
}

TEST_CASE("grammar: reserved::is_keyword answers as a plain upper-cased comparison with its words") {
  // is_keyword compares one 64-bit key (two overlapping loads, bit 5 cleared) with the keys of the
  // word's length; the reference upper-cases a-z only and compares the bytes with each keyword.
  // Every reserved word in every spelling of its case, each with one byte changed to its
  // neighbours and to the bytes that bit 5 maps near the letters (@ [ ` { and bytes above 0x7F),
  // one byte more and one less; every word of up to three bytes over letters, digits and `_ $`;
  // words of NUL and 0xFF bytes (the key table's unused slots hold all ones).
  auto reference = [](std::string_view w) {
    std::string up(w);
    for (char& c : up)
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    for (std::string_view k : grammar::expr::reserved::kWords)
      if (up == k) return true;
    return false;
  };
  auto same = [&](const std::string& w) {
    const bool fast = grammar::expr::reserved::is_keyword(w.data(), w.size());
    const bool plain = reference(w);
    if (fast != plain) {
      INFO("word [" << w << "]");
      CHECK(fast == plain);
    }
    return fast;
  };
  for (std::size_t n = 0; n <= 9; ++n) {
    same(std::string(n, '\0'));
    same(std::string(n, '\xFF'));
    same(std::string(n, '\xDF'));
  }
  std::size_t keywords = 0;
  for (std::string_view k : {"AS", "OR", "IN", "IS", "AND", "NOT", "END", "ASC", "DIV", "LIKE", "CASE", "WHEN", "THEN", "ELSE",
                             "DESC", "ILIKE", "RLIKE", "NULLS", "INSET", "REGEXP", "ESCAPE", "BETWEEN", "DISTINCT"}) {
    for (unsigned mask = 0; mask < (1u << k.size()); ++mask) {
      std::string w(k);
      for (std::size_t i = 0; i < w.size(); ++i)
        if (mask & (1u << i)) w[i] = static_cast<char>(w[i] - 'A' + 'a');
      keywords += same(w);
      for (std::size_t i = 0; i < w.size(); ++i) {
        for (char c : {static_cast<char>(w[i] + 1), static_cast<char>(w[i] - 1), '@', '[', '`', '{', '_', '$', '0',
                       static_cast<char>(w[i] | 0x80), static_cast<char>(w[i] ^ 0x20 ^ 0x80)}) {
          std::string v = w;
          v[i] = c;
          same(v);
        }
      }
      same(w + "S");
      same(w + "_");
      same(w.substr(1));
      same(w.substr(0, w.size() - 1));
    }
  }
  CHECK(keywords == 4 * 4 + 5 * 8 + 6 * 16 + 4 * 32 + 2 * 64 + 128 + 256);  // each spelling of each word
  const std::string bytes = "ABCDEILNORSTWabdeinorstw09_$@[`{";
  std::vector<std::string> level = {""};
  for (int size = 1; size <= 3; ++size) {
    std::vector<std::string> next;
    for (const std::string& w : level)
      for (char c : bytes) next.push_back(w + c);
    for (const std::string& w : next) same(w);
    level = std::move(next);
  }
}

TEST_CASE("fast expression reader: the v1 filter names and the word lists, against the grammar") {
  // Each v1 filter name nested in And(...) (pf_known_name: the fast reader reads it), and one
  // byte off, one more, one less and another case (no name: the fast reader declines at the '(',
  // or reads what the grammar reads). Then the words of each list in other spellings, as a bare
  // word, a comparand's next word and a raw list item's next word.
  TextStore store;
  auto check = [&](const std::string& s, ExprDialect d, bool must_read) {
    const Text text = store.keep(s);
    ParsedExpr fast;
    const bool read = expr_parse::fast_parse(store, text, d, fast);
    INFO("text [" << s << "]");
    if (must_read) CHECK(read);
    if (read) CHECK(dump(fast) == dump(expr_parse::parse_with_grammar(store, text, d)));
  };
  for (std::string name : {"And", "Or", "Not", "EqualTo", "EqualNullSafe", "GreaterThan", "GreaterThanOrEqual", "LessThan",
                           "LessThanOrEqual", "In", "IsNull", "IsNotNull", "StringStartsWith", "StringEndsWith",
                           "StringContains", "AlwaysTrue", "AlwaysFalse"}) {
    check("And(" + name + "(a,1),IsNotNull(b))", ExprDialect::PushedFilter, true);
    std::string off = name;
    off.back() = static_cast<char>(off.back() + 1);
    std::string lower = name;
    lower[0] = static_cast<char>(lower[0] - 'A' + 'a');
    for (const std::string& near : {off, name + "s", name.substr(0, name.size() - 1), lower}) {
      const std::string s = "And(" + near + "(a,1),IsNotNull(b))";
      ParsedExpr out;
      CHECK_FALSE(expr_parse::fast_parse(store, store.keep(s), ExprDialect::PushedFilter, out));
      check(s, ExprDialect::PushedFilter, false);
    }
  }
  for (std::string w : {"true", "false", "null", "case", "cast", "try_cast", "interval", "input", "div", "and", "or", "then",
                        "else", "when", "end", "as", "asc", "desc", "windowspecdefinition", "is", "in", "inset", "not", "like",
                        "ilike", "rlike", "regexp", "between", "nulls", "truex", "nul", "Input", "INTERVAL", "Desc", "x"}) {
    std::string upper = w;
    for (char& c : upper) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    for (const std::string& v : {w, upper}) {
      check("(a#1 = " + v + ")", ExprDialect::Catalyst, false);
      check("(a#1 = Books " + v + "  )", ExprDialect::Catalyst, false);
      check("a#1 IN (Bronx " + v + ",b)", ExprDialect::Catalyst, false);
      check("a#1 IN (" + v + " #7,b)", ExprDialect::Catalyst, false);
    }
  }
  // Words that are read: a bare word after `=`, a raw comparand, a raw item.
  check("(a#1 = truex)", ExprDialect::Catalyst, true);
  check("(a#1 = Books x  )", ExprDialect::Catalyst, true);
  check("a#1 IN (Bronx County,b)", ExprDialect::Catalyst, true);
}

TEST_CASE("fast expression reader: a pushed filter's raw value with each stop byte at every place") {
  // Values of 1 to 40 bytes (the 16-byte looks, then byte by byte), in a filter and in a value
  // list, as first and second argument, with each byte the value scan stops at (and a few it does
  // not) at every place: the fast reader reads what the grammar reads, or declines.
  TextStore store;
  std::size_t read = 0, compared = 0;
  for (std::size_t size = 1; size <= 40; ++size) {
    for (std::size_t at = 0; at < size; ++at) {
      for (char c : {',', '(', ')', '[', ']', '{', '}', '#', '`', '\t', '\r', '\n', ' ', '.', '-', '\'', '"'}) {
        std::string value(size, 'v');
        value[at] = c;
        for (const std::string& s : {"EqualTo(c," + value + ")", "EqualTo(" + value + ",1)", "In(c, [" + value + ",x])",
                                     "And(EqualTo(c," + value + "),IsNotNull(d))"}) {
          const Text text = store.keep(s);
          ParsedExpr fast;
          ++compared;
          if (!expr_parse::fast_parse(store, text, ExprDialect::PushedFilter, fast)) continue;
          ++read;
          const std::string a = dump(fast), b = dump(expr_parse::parse_with_grammar(store, text, ExprDialect::PushedFilter));
          if (a != b) {
            INFO("text [" << s << "]");
            CHECK(a == b);
          }
        }
      }
    }
  }
  MESSAGE("raw values: " << read << " of " << compared << " read by the fast reader");
  CHECK(read > compared / 4);
}

TEST_CASE("fast expression reader: list items and right operands read where they stay") {
  // Items are read into their list's block and right operands into their node's: long lists
  // (the block grows while items are read), items and comparands that fall back to raw text
  // after a part was read, nested calls and operators in both, against the grammar.
  TextStore store;
  auto same_as_grammar = [&](const std::string& s) {
    const Text text = store.keep(s);
    ParsedExpr fast;
    INFO("text [" << s << "]");
    REQUIRE(expr_parse::fast_parse(store, text, ExprDialect::Catalyst, fast));
    CHECK(dump(fast) == dump(expr_parse::parse_with_grammar(store, text, ExprDialect::Catalyst)));
  };
  std::string list = "a#1 IN (";
  for (int i = 0; i < 40; ++i) {
    if (i) list += i % 3 ? "," : ", ";
    list += i % 5 == 0 ? "f(x#" + std::to_string(i) + ", (y#2 + 1))" : i % 5 == 1 ? "Bronx County" : std::to_string(i);
    same_as_grammar(list + ")");
  }
  same_as_grammar("coalesce((a#1 * 2), b#2, (c#3 = Books x  ), d#4)");
  same_as_grammar("((a#1 = Advanced Degree   ) AND ((b#2 + c#3) > (d#4 * 2)) OR NOT (e#5 = 4 yr Degree  ))");
  same_as_grammar("(((a#1 = 1) AND (b#2 = 2)) AND ((c#3 = 3) OR (d#4 = N/A)) OR (e#5 IN (IN,OH) AND f#6 IS NULL))");
  same_as_grammar("f(a#1 - -5 * b#2 / c#3 + d#4, g(h(i#1), ), (j#2 = >100  ))");
}

TEST_CASE("parse_expression: the fast reader's result where it reads the text, else the grammar's") {
  // One object returned on both paths: a text the fast reader takes, one it declines that the
  // grammar reads, and one that does not parse (the grammar's error), each as the reader that
  // reads it gives it.
  TextStore store;
  for (std::string_view s : {"(isnotnull(a#1) AND (a#1 >= 10))", "(a#1 and b#2)", "(a#1 = ", "a#1.field", ""}) {
    for (ExprDialect d : {ExprDialect::Catalyst, ExprDialect::PushedFilter, ExprDialect::Sql}) {
      const Text text = store.keep(s);
      ParsedExpr fast;
      const bool read = expr_parse::fast_parse(store, text, d, fast);
      const std::string want = read ? dump(fast) : dump(expr_parse::parse_with_grammar(store, text, d));
      INFO("text [" << s << "], dialect " << static_cast<int>(d));
      CHECK(dump(parse_expression(store, text, d)) == want);
    }
  }
}
