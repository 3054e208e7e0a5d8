// non-sargable-predicate (PL006): a predicate that reaches a scan compares a function of a column.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "model/expr_util.hpp"
#include "model/plan_walk.hpp"
#include "rules/rule.hpp"

namespace planlint {

namespace {

RuleDoc make_doc() {
  RuleDoc d;
  d.name = "non-sargable-predicate";
  d.code = "PL006";
  d.family = RuleFamily::Plan;
  d.severity = Severity::Warning;
  d.summary = "A filter on a scan compares a function of a column, so statistics and data skipping cannot be used";
  d.what =
      "Finds a predicate that reaches a scan (a Filter directly above it, the scan's `DataFilters` / "
      "`RequiredDataFilters`, or a Query Profile scan's `FILTERS`) and compares a function of one data "
      "column of that scan with a literal: `cast(ts as date) = ...` (what `DATE(ts)` becomes), `try_cast`, "
      "`to_date`, `year` / `month` / `day`, `date_format`, `date_trunc`, `substr` / `substring`, `upper` / "
      "`lower` / `trim`, and implicit type casts the analyzer added because the literal's type differs "
      "from the column's. Join keys and values computed above the scan are not looked at; partition "
      "columns are skipped (partition pruning still works on them), and so are scans of sources that keep "
      "no min/max statistics (CSV, JSON, text: nothing is skipped whichever way the predicate is written, "
      "so a rewrite would remove no cost).";
  d.why =
      "Parquet / ORC min-max statistics, Delta data skipping, Z-order and liquid clustering all work on "
      "the stored column values. A predicate on `f(column)` cannot be checked against a file's or row "
      "group's min/max of `column`, so Spark cannot push it into the scan and every file is read and "
      "decoded to evaluate it row by row. Databricks' COVERAGE_STATS_DELTA insight calls such filters "
      "\"Unused\". Rewriting the predicate as a range on the bare column (or comparing with a literal of "
      "the column's own type) lets the scan skip everything outside the range.";
  d.example =
      "SELECT * FROM events WHERE DATE(event_ts) = '2024-03-01'\n"
      "\n"
      "Filter (3)\n"
      "Condition : (isnotnull(event_ts#2) AND (cast(event_ts#2 as date) = 2024-03-01))";
  d.use_instead =
      "SELECT * FROM events\n"
      "WHERE event_ts >= TIMESTAMP '2024-03-01 00:00:00' AND event_ts < TIMESTAMP '2024-03-02 00:00:00'\n"
      "\n"
      "-- year(d) = 2024        ->  d >= DATE '2024-01-01' AND d < DATE '2025-01-01'\n"
      "-- substr(s, 1, 3) = 'ab' -> s LIKE 'ab%'\n"
      "-- cast(s as int) = 5    ->  s = '5' (or store the column with the right type)";
  d.evidence =
      "The predicate text as printed (Filter `Condition`, scan `DataFilters` / `RequiredDataFilters`, "
      "profile `FILTERS`), the scan's `ReadSchema` / `PartitionFilters` to tell data columns from partition "
      "columns; `Size of files read` from a profile for the impact.";
  return d;
}

struct FnInfo {
  std::string_view name;
  const char* kind;  // how the rewrite is built
};
constexpr FnInfo kFunctions[] = {
    {"cast", "cast"},          {"try_cast", "cast"},          {"to_date", "to_date"},
    {"year", "year"},          {"month", "month"},            {"day", "generic_date"},
    {"dayofmonth", "generic_date"}, {"quarter", "generic_date"}, {"hour", "generic_date"},
    {"date_format", "generic_date"}, {"date_trunc", "generic_date"}, {"trunc", "generic_date"},
    {"to_timestamp", "generic_date"}, {"from_unixtime", "generic_date"}, {"unix_timestamp", "generic_date"},
    {"substr", "substr"},      {"substring", "substr"},       {"left", "substr"},
    {"upper", "case"},         {"lower", "case"},             {"ucase", "case"},   {"lcase", "case"},
    {"trim", "trim"},          {"ltrim", "trim"},             {"rtrim", "trim"},   {"btrim", "trim"},
    {"date", "to_date"},
};

const FnInfo* function_info(const Expr& e) {
  std::string n;
  if (e.kind == ExprKind::Cast) n = e.name.empty() ? "cast" : lower(e.name);
  else if (e.kind == ExprKind::Function) n = lower(e.name);
  else return nullptr;
  for (const auto& f : kFunctions)
    if (f.name == n) return &f;
  return nullptr;
}

// ---- a tiny civil calendar for the range rewrite ----
long days_from_civil(long y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long>(doe) - 719468;
}
void civil_from_days(long z, long& y, unsigned& m, unsigned& d) {
  z += 719468;
  const long era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<long>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp + (mp < 10 ? 3 : -9);
  y += m <= 2;
}

// "2024-03-01", "DATE '2024-03-01'" -> days since epoch.
std::optional<long> parse_date(std::string_view s) {
  auto q = s.find_first_of("0123456789");
  if (q == std::string_view::npos) return std::nullopt;
  s = s.substr(q);
  long y = 0;
  unsigned m = 0, d = 0;
  if (std::sscanf(std::string(s.substr(0, 10)).c_str(), "%4ld-%2u-%2u", &y, &m, &d) != 3) return std::nullopt;
  if (m < 1 || m > 12 || d < 1 || d > 31) return std::nullopt;
  return days_from_civil(y, m, d);
}
std::string format_date(long days) {
  long y;
  unsigned m, d;
  civil_from_days(days, y, m, d);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04ld-%02u-%02u", y, m, d);
  return buf;
}
std::optional<long> parse_int(std::string_view s) {
  long v = 0;
  if (std::sscanf(std::string(s).c_str(), "%ld", &v) != 1) return std::nullopt;
  return v;
}
std::string strip_quotes(std::string_view s) {
  if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front()) s = s.substr(1, s.size() - 2);
  return std::string(s);
}

struct Finding {
  std::string predicate;
  std::string column;
  std::string function;
  std::string wrapped;   // the whole expression around the column, as printed
  std::string rewrite;
};

constexpr FnInfo kGeneric{"", "generic"};
constexpr FnInfo kArithmetic{"", "arithmetic"};

bool is_arithmetic(const Expr& e) {
  if (e.kind == ExprKind::Unary && e.name == "-") return true;
  if (e.kind != ExprKind::Binary) return false;
  static constexpr std::string_view kArith[] = {"+", "-", "*", "/", "%", "||"};
  return std::find(std::begin(kArith), std::end(kArith), e.name) != std::end(kArith);
}

// Any function, cast or arithmetic around a column (nested too): what a data source cannot compare
// with its statistics.
const FnInfo* wrapping_info(const Expr& call) {
  if (const FnInfo* fn = function_info(call); fn && is_function_of_column(call)) return fn;
  if (call.kind == ExprKind::Function || call.kind == ExprKind::Cast) {
    std::string n = lower(call.name);
    if (n == "isnull" || n == "isnotnull") return nullptr;
    return &kGeneric;
  }
  if (is_arithmetic(call)) return &kArithmetic;
  return nullptr;
}

// The rewrite of `f(col) op literal` as a predicate on the bare column, when the function allows one.
// `col op [a, b)` for a range of dates: `=` keeps the range, the others keep one bound.
std::string range_rewrite(const std::string& col, std::string_view op, const std::string& a, const std::string& b) {
  if (op == "=") return col + " >= " + a + " AND " + col + " < " + b;
  if (op == ">=") return col + " >= " + a;
  if (op == ">") return col + " >= " + b;
  if (op == "<") return col + " < " + a;
  if (op == "<=") return col + " < " + b;
  return "";
}

// date_format(col, pattern) op literal, for the patterns that name a whole year, month or day.
std::string date_format_rewrite(const Expr& call, const std::string& col, std::string_view op, const Expr& lit) {
  if (call.args.size() < 2 || call.args[1].kind != ExprKind::Literal) return "";
  std::string pattern = strip_quotes(call.args[1].name);
  std::string value = strip_quotes(lit.name);
  long y = 0;
  unsigned m = 0;
  auto date = [](long year, unsigned month) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "DATE '%04ld-%02u-01'", year, month);
    return std::string(buf);
  };
  if (pattern == "yyyy-MM-dd") {
    auto day = parse_date(value);
    if (!day || value.size() != 10) return "";
    return range_rewrite(col, op, "DATE '" + format_date(*day) + "'", "DATE '" + format_date(*day + 1) + "'");
  }
  if (pattern == "yyyy-MM" && value.size() == 7 && std::sscanf(value.c_str(), "%4ld-%2u", &y, &m) == 2 && m >= 1 &&
      m <= 12)
    return range_rewrite(col, op, date(y, m), m == 12 ? date(y + 1, 1) : date(y, m + 1));
  if (pattern == "yyyy" && value.size() == 4 && std::sscanf(value.c_str(), "%4ld", &y) == 1)
    return range_rewrite(col, op, date(y, 1), date(y + 1, 1));
  return "";
}

// The rewrite of `f(col) op literal` as a predicate on the bare column, when the function allows one.
std::string rewrite_for(const FnInfo& fn, const Expr& call, const std::string& col, std::string_view op,
                        const Expr& lit) {
  std::string kind = fn.kind;
  std::string type = lower(call.type);
  if (kind == "cast" && (type == "date")) kind = "to_date";
  if (kind == "to_date") {
    auto day = parse_date(lit.name);
    if (!day) return "";
    return range_rewrite(col, op, "TIMESTAMP '" + format_date(*day) + " 00:00:00'",
                         "TIMESTAMP '" + format_date(*day + 1) + " 00:00:00'");
  }
  if (kind == "year") {
    auto y = parse_int(lit.name);
    if (!y) return "";
    return range_rewrite(col, op, "DATE '" + std::to_string(*y) + "-01-01'", "DATE '" + std::to_string(*y + 1) + "-01-01'");
  }
  if (fn.name == "date_format") return date_format_rewrite(call, col, op, lit);
  if (kind == "substr" && op == "=") {
    // substr(col, 1, n) = 'abc' -> col LIKE 'abc%'
    bool from_start = lower(call.name) == "left" ||
                      (call.args.size() >= 2 && call.args[1].kind == ExprKind::Literal && call.args[1].name == "1");
    if (from_start) return col + " LIKE '" + strip_quotes(lit.name) + "%'";
    return "";
  }
  if (kind == "cast" && !type.empty()) return "compare " + col + " with a literal of its own type (not " + type + ")";
  if (kind == "case") return "store " + col + " normalised (or add a generated column) and compare it directly";
  if (kind == "trim") return "store " + col + " trimmed and compare it directly";
  return "";
}

class NonSargablePredicate final : public DocumentedRule<make_doc> {
 public:
  // `(f(col) op literal)` / `f(col) IN (...)` on one data column of `scan`.
  static std::optional<Finding> inspect(const ParsedExpr& pe, const Expr& c, const Operator& scan,
                                        const ColumnSet* data, const ColumnSet& parts,
                                        const ColumnSet& outputs) {
    // NOT (f(col) = x): the same wrapped column under a negation (a runtime filter under it is
    // found by the call on the negated conjunct).
    if (c.kind == ExprKind::Unary && iequals(c.name, "NOT") && c.args.size() == 1) {
      auto f = inspect(pe, c.args[0], scan, data, parts, outputs);
      if (f) f->predicate = expr_text(pe, c);
      return f;
    }
    const Expr* call = nullptr;
    const Expr* lit = nullptr;
    std::string op;
    static constexpr std::string_view kOps[] = {"=", "==", "<=>", "<", "<=", ">", ">="};
    static constexpr std::string_view kFlip[] = {"=", "==", "<=>", ">", ">=", "<", "<="};
    if (c.kind == ExprKind::Binary && c.args.size() == 2) {
      for (std::size_t i = 0; i < std::size(kOps); ++i) {
        if (c.name != kOps[i]) continue;
        if (is_constant(c.args[1]) && !is_constant(c.args[0])) {
          call = &c.args[0];
          lit = &c.args[1];
          op = std::string(kOps[i]);
        } else if (is_constant(c.args[0]) && !is_constant(c.args[1])) {
          call = &c.args[1];
          lit = &c.args[0];
          op = std::string(kFlip[i]);
        }
      }
    } else if (c.kind == ExprKind::In && c.args.size() >= 2) {
      bool consts = true;
      for (std::size_t i = 1; i < c.args.size(); ++i) consts = consts && is_constant(c.args[i]);
      if (consts) {
        call = &c.args[0];
        lit = &c.args[1];
        op = "IN";
      }
    }
    if (!call || is_attribute(*call)) return std::nullopt;
    const FnInfo* fn = wrapping_info(*call);
    if (!fn) return std::nullopt;
    auto attrs = attributes_in(*call);
    if (attrs.empty()) return std::nullopt;
    for (const Expr* a : attrs)
      if (a->name != attrs[0]->name || a->expr_id != attrs[0]->expr_id) return std::nullopt;  // one column only
    // A runtime filter (dynamic pruning, a bloom filter's might_contain) is no user's predicate.
    // Asked only of a conjunct of the shape above: the walk of the whole conjunct is not made for
    // the many (isnotnull(a), a = 5) that the shape rules out.
    if (is_runtime_filter(c)) return std::nullopt;
    std::string col = column_key(attrs[0]->name);
    if (data && !data->count(col)) return std::nullopt;  // partition / metadata column
    if (parts.count(col)) return std::nullopt;
    if (!outputs.empty() && !outputs.count(col)) return std::nullopt;
    (void)scan;
    Finding f;
    f.predicate = expr_text(pe, c);
    f.column = attrs[0]->name;
    f.function = call->kind == ExprKind::Cast ? (call->name.empty() ? std::string("cast") : call->name.str())
                 : fn == &kArithmetic            ? std::string("arithmetic")
                                                 : call->name.str();
    f.wrapped = expr_text(pe, *call);
    // The rewrite names the column as the user wrote it (no #id).
    std::string bare(attrs[0]->name);
    if (fn == &kArithmetic && op != "IN") {
      // col + k = v -> col = v - k (integers only; anything else is left to the user).
      const Expr& l = call->args.size() == 2 ? call->args[0] : *call;
      const Expr& r = call->args.size() == 2 ? call->args[1] : *call;
      long k = 0, v = 0;
      if (call->kind == ExprKind::Binary && is_attribute(l) && r.kind == ExprKind::Literal && lit->kind == ExprKind::Literal &&
          std::sscanf(r.name.str().c_str(), "%ld", &k) == 1 && std::sscanf(lit->name.str().c_str(), "%ld", &v) == 1 &&
          std::to_string(k) == r.name && std::to_string(v) == lit->name && (call->name == "+" || call->name == "-"))
        f.rewrite = bare + " " + op + " " + std::to_string(call->name == "+" ? v - k : v + k);
    } else if (op != "IN") f.rewrite = rewrite_for(*fn, *call, bare, op, *lit);
    else if (std::string(fn->kind) == "cast" && !call->type.empty())
      f.rewrite = "compare " + bare + " with literals of its own type (not " + lower(call->type) + ")";
    else if (std::string(fn->kind) == "substr" && call->args.size() >= 2 && call->args[1].name == "1")
      f.rewrite = "one `" + bare + " LIKE 'prefix%'` per value, joined with OR";
    return f;
  }

  void check(RuleContext& ctx) const override {
    const Plan& plan = ctx.plan();
    std::set<std::pair<std::size_t, std::string>> seen;  // (scan, predicate) already reported
    auto report = [&](const Operator& at, const Operator& scan, const Finding& f) {
      if (!seen.emplace(scan.index, f.predicate).second) return;
      const ScanFacts* sf = scan.scan.get();
      const bool jdbc = sf && sf->source == ScanSource::Jdbc;
      // A source without min/max statistics (CSV, JSON, text) skips nothing whichever way the
      // predicate is written: the rewrite would remove no cost, so there is nothing to report
      // (Spark's own `length(trim(value)) > 0` of CSV header inference is one such predicate).
      if (sf && !jdbc && sf->source != ScanSource::Unknown && !sf->has_min_max_stats()) return;
      std::string msg = op_ref(at) + " evaluates `" + abbreviate(f.predicate) + "`" +
                        (&at == &scan ? std::string() : " on " + op_ref(scan)) + ": `" + abbreviate(f.wrapped, 80) +
                        "` wraps " + f.column;
      if (jdbc)
        msg += ", so the JDBC source cannot evaluate the predicate: every row is fetched and filtered in Spark";
      else
        msg += " and hides the column from min/max statistics, so the predicate cannot skip files or row groups";
      Diagnostic d = ctx.make(at, msg);
      d.evidence.push_back({"wrapped expression", f.wrapped});
      d.evidence.push_back({"predicate", f.predicate});
      d.evidence.push_back({"column", f.column});
      d.evidence.push_back({"function", f.function});
      d.evidence.push_back({"scan", op_ref(scan)});
      std::string which;
      if (auto b = first_metric(scan, {Metric::FilesReadBytes}, &which)) {
        d.evidence.push_back({which, *b, Unit::BytesExact});
        set_impact(d, *b, "bytes", " read without data skipping");
      }
      if (!f.rewrite.empty()) {
        d.evidence.push_back({"rewrite", f.rewrite});
        if (f.rewrite.rfind("compare ", 0) == 0 || f.rewrite.rfind("store ", 0) == 0)
          d.fix = "Apply no function to the column in the predicate: " + f.rewrite + ".";
        else
          d.fix = "Rewrite the predicate on the bare column: " + f.rewrite + ".";
      } else {
        d.fix = "Rewrite the predicate so that the bare column is compared with a literal of its own type (a range "
                "on the column instead of a function of it), or materialise f(column) as its own column.";
      }
      ctx.report(std::move(d));
    };

    // Filters first, so a predicate both in a Filter and in the scan's DataFilters is reported on the Filter.
    std::vector<const Operator*> order;
    const auto& ops = ctx.active_ops();
    for (const Operator* op : ops)
      if (op->kind == OpKind::Filter) order.push_back(op);
    for (const Operator* op : ops)
      if (op->kind == OpKind::Scan) order.push_back(op);
    for (const Operator* op : order) {
      const Operator* scan = op->kind == OpKind::Filter ? scan_below(plan, *op) : op;
      if (!scan) continue;
      const ColumnSet* data = data_columns(*scan);
      const ColumnSet& parts = partition_filter_columns(*scan);
      const ColumnSet& outputs = output_columns(*scan);
      const bool is_scan = op->kind == OpKind::Scan;
      for (const Field& field : op->fields) {
        const FieldRole r = field.role;
        if (is_scan ? r != FieldRole::DataFilters && r != FieldRole::RequiredDataFilters && r != FieldRole::ScanFilters
                    : r != FieldRole::Condition)
          continue;
        for (const ParsedExpr& pe : field.exprs) {
          if (!pe.root) continue;
          for_each_conjunct(*pe.root, [&](const Expr& c) {
            if (auto f = inspect(pe, c, *scan, data, parts, outputs)) report(*op, *scan, *f);
          });
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_non_sargable_predicate() { return std::make_unique<NonSargablePredicate>(); }

}  // namespace planlint
