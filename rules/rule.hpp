// The rule interface. One rule per file in rules/, each registered once in rules/registry.cpp.
// A rule sees only the plan model (model/plan.hpp), never raw text, and every Diagnostic it
// reports names the operator, the evidence and the fix.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/format.hpp"
#include "model/plan.hpp"

namespace planlint {

enum class Severity : std::uint8_t { Info = 0, Warning = 1, Error = 2 };
std::string_view to_string(Severity s);
std::optional<Severity> severity_from_string(std::string_view s);

// What an evidence number measures. Its display text and its unit name come from here alone
// (Evidence's constructors, rules/rule.cpp): a rule passes the number and the Unit.
enum class Unit : std::uint8_t {
  Bytes,       // "1.5 GiB"                                unit "bytes"
  BytesExact,  // "1.5 GiB (1,610,612,736 bytes)"          unit "bytes"
  Rows,        // "1,234,567"                              unit "rows"
  Files,       // "1,234"                                  unit "files"
  Columns,     // "12"                                     unit "columns"
  Count,       // "1,182" (spills, partitions, tasks)      no unit
  Ms,          // "1.2 s", "3 min 20 s"                    unit "ms"
  Ratio,       // "25.0×"                                  unit "ratio"
  Decimal,     // "2.5", a ratio with one decimal          unit "ratio"
  Share,       // a share 0..1 as a percent, "42%"         unit "ratio", number the share
  Percent,     // a share 0..1 as a percent, "42%"         unit "percent", number 42
};
// The unit's name in JSON and SARIF ("bytes", "ms", ...; "" for Count).
std::string_view unit_name(Unit u);

// A named number or text that supports a finding ("build side size" = 2.1 GiB). Rules build it
// from a number and its Unit, or from a text; never from a hand-written value and unit.
struct Evidence {
  // `number` in `unit`, shown as the unit formats it; `digits` applies to Share and Percent.
  Evidence(std::string name, double number, Unit unit, PercentDigits digits = PercentDigits::Whole);
  // `number` in `unit`, shown as `shown` (the list of the columns counted, ...).
  Evidence(std::string name, double number, Unit unit, std::string shown);
  // A text ("join type" = "LeftOuter").
  Evidence(std::string name, std::string text);
  std::string name;
  std::string value;                 // human-readable ("2.1 GiB", "LeftOuter")
  std::optional<double> number;      // machine-readable value in `unit`
  std::string unit;                  // "bytes", "rows", "ms", "ratio", ""
};

// The plan a finding is about, when that plan is one SQL execution of an event log or a History
// Server answer (InputTraits::executions). Set by the lint engine, never by a rule; emitters render
// it: the text outputs as a prefix of the message ("execution 3 (save at etl.py:41): ..."), JSON
// as a field ("execution": {"id": 3, "description": "save at etl.py:41"}).
struct PlanLabel {
  std::optional<long long> execution;  // the SQL execution id; unset: no label
  std::string description;             // the execution's description on one line, cut at 80 bytes ("..."), may be ""
  [[nodiscard]] bool empty() const { return !execution.has_value(); }
};

struct Diagnostic {
  std::string rule;                  // kebab-case name, a public interface
  std::string code;                  // short code ("PL001")
  Severity severity = Severity::Warning;
  std::string message;               // names the operator and the key numbers
  std::string fix;                   // what to do instead
  std::size_t plan_index = 0;        // index into ParseResult::plans
  PlanLabel plan_label;              // which execution plan_index is (set by the engine)
  std::optional<std::size_t> op;     // index into Plan::ops
  std::string operator_id;
  std::string operator_name;
  SourceRange range;
  std::vector<Evidence> evidence;
  std::optional<double> impact;      // estimated cost used for ordering (see impact_unit)
  std::string impact_unit;           // "ms", "bytes", "rows"
  std::string impact_text;           // "≈ 12 min of task time"
};

// The name of one of a rule's thresholds, declared once next to the rule's doc and used both to
// list the threshold in RuleDoc::thresholds and to read it (RuleContext::threshold):
//   inline constexpr ThresholdKey kMinSpillBytes{"min-spill-bytes"};
//   r.thresholds = {{kMinSpillBytes, 1073741824, "bytes", "why this default"}};
//   double min = ctx.threshold(kMinSpillBytes);
struct ThresholdKey {
  constexpr explicit ThresholdKey(std::string_view n) : name(n) {}
  std::string_view name;
  operator std::string() const { return std::string(name); }  // NOLINT: Threshold{kKey, ...}
};

struct Threshold {
  std::string name;                  // kebab-case option name ("broadcast-threshold")
  double default_value = 0;
  std::string unit;                  // "bytes", "ratio", "rows", "ms", "percent"
  std::string description;           // why this default
};

// Which kind of evidence a rule reads and how it is tested, as data (not by code prefix).
//   Plan     PL0xx, the plan's shape and statistics; corpus cases run the rule alone, and the
//            precision test runs it over Spark's golden plans
//   Runtime  PL1xx, the troubleshooting-method rules over runtime metrics, read together: corpus
//            cases run every rule
//   Diff, History, Builtin  reported by lint/ (planlint diff, planlint history, the engine)
enum class RuleFamily : std::uint8_t { Plan, Runtime, Diff, History, Builtin };
std::string_view to_string(RuleFamily f);

// Self-description, used by `planlint rules`, `planlint rule NAME`, LSP hover and SARIF help.
struct RuleDoc {
  // Written as one designated initializer (`RuleDoc{.name = ..., .code = ...}`, members in this
  // order); each member has a default member initializer, so a doc names only the fields it sets
  // (GCC's -Wmissing-field-initializers warns about an omitted member that has none).
  std::string name{};
  std::string code{};
  RuleFamily family = RuleFamily::Plan;
  Severity severity = Severity::Warning;
  std::string summary{};               // one line
  std::string what{};                  // What it does
  std::string why{};                   // Why is this bad?
  std::string example{};               // a bad plan fragment / query
  std::string use_instead{};           // the better form
  std::string evidence{};              // what evidence the rule needs, per input format
  std::vector<Threshold> thresholds{};
  // Findings the rule reports under a name and code of their own (one name per code, as ruff):
  // oversized-broadcast (PL010) comes from stale-broadcast-hint's checks. Selected, ignored,
  // suppressed and given a severity by that name or code, not by the rule's.
  struct SecondaryName {
    std::string name;
    std::string code;
    std::string summary;  // one line, as RuleDoc::summary
  };
  std::vector<SecondaryName> also_reports{};
  // The code of a name this rule reports (its own, or one of also_reports).
  [[nodiscard]] const std::string& code_of(std::string_view reported_name) const {
    for (const auto& a : also_reports)
      if (a.name == reported_name) return a.code;
    return code;
  }
  // Former names (a rule renamed, as ruff keeps redirects): still accepted wherever a rule is named
  // (select, ignore, severity, thresholds, per-file ignores, suppressions, `planlint rule`,
  // `--why`), never reported. Fingerprints (baseline, SARIF) keep the first one, the name the
  // findings were fingerprinted under before the rename, so a rename does not make them new.
  std::vector<std::string> aliases{};
};

// What most rules ask of a plan first: whether an AQE final plan exists and which operators are
// active (model/plan_walk.hpp). Worked out once per plan; the engine shares one across the
// contexts of every rule it runs on that plan.
class LogicalJoins;
struct PlanScope {
  explicit PlanScope(const Plan& plan);
  ~PlanScope();
  PlanScope(const PlanScope&) = delete;
  PlanScope& operator=(const PlanScope&) = delete;
  bool final_plan_exists = false;
  std::vector<const Operator*> active;  // active_ops(plan), in index order
  // The plan's logical joins (plan_walk.hpp), built on first use: three rules ask for them.
  [[nodiscard]] const LogicalJoins& logical_joins() const;
  // The active operators of one kind, in index order, listed on first use: three rules ask for
  // the scans.
  [[nodiscard]] const std::vector<const Operator*>& active_of(OpKind kind) const;

 private:
  const Plan& plan_;
  mutable std::unique_ptr<LogicalJoins> logical_joins_;
  // A list: one handed out stays where it is when another kind is added.
  mutable std::list<std::pair<OpKind, std::vector<const Operator*>>> by_kind_;
};

class RuleContext {
 public:
  RuleContext(const Plan& plan, std::size_t plan_index, const RuleDoc& doc,
              const std::map<std::string, double>* overrides, std::vector<Diagnostic>& out)
      : plan_(plan), plan_index_(plan_index), doc_(doc), overrides_(overrides), out_(out) {}

  [[nodiscard]] const Plan& plan() const { return plan_; }
  // The plan's active operators and whether it has a final plan: from the engine's shared
  // PlanScope (share_scope), or worked out on first use by a context on its own.
  [[nodiscard]] const PlanScope& scope() const;
  [[nodiscard]] const std::vector<const Operator*>& active_ops() const { return scope().active; }
  [[nodiscard]] const std::vector<const Operator*>& active_ops(OpKind kind) const { return scope().active_of(kind); }
  [[nodiscard]] bool final_plan_exists() const { return scope().final_plan_exists; }
  [[nodiscard]] const LogicalJoins& logical_joins() const { return scope().logical_joins(); }
  void share_scope(const PlanScope* scope) { scope_ = scope; }
  // The configured value of one of the rule's thresholds (its default when not configured).
  // Throws std::logic_error naming the key when the rule's doc does not declare it: a
  // misspelled or undeclared key fails the first test that runs the rule, never reads 0.
  [[nodiscard]] double threshold(ThresholdKey key) const;
  // Start a diagnostic for `op` with the rule's name, code, severity and the operator's location.
  [[nodiscard]] Diagnostic make(const Operator& op, std::string message) const;
  // As make(), under another name the rule also reports (RuleDoc::also_reports).
  [[nodiscard]] Diagnostic make_as(std::string_view name, const Operator& op, std::string message) const;
  // A diagnostic about the plan as a whole (no operator), e.g. a `== Photon Explanation ==` reason.
  [[nodiscard]] Diagnostic make_plan(std::string message, SourceRange range) const;
  void report(Diagnostic d) { out_.push_back(std::move(d)); }

  // `planlint check --why RULE`: a rule that explains itself (Rule::explains()) says, for each
  // candidate operator it let go, what evidence it looked for and what was missing. Copies
  // nothing unless a front end asked (set_why); rules call it where they `continue`, and build a
  // text for it (a concatenation) only `if (ctx.explaining())`.
  struct WhyNote {
    std::size_t op = 0;
    std::string looked_for;          // "a side of known size at most 10.0 MiB"
    std::string missing;             // "no size: the plan has no Statistics or metrics for either side"
  };
  [[nodiscard]] bool explaining() const { return why_ != nullptr; }
  void why(const Operator& op, std::string_view looked_for, std::string_view missing) const {
    if (why_) why_->push_back({op.index, std::string(looked_for), std::string(missing)});
  }
  void set_why(std::vector<WhyNote>* sink) { why_ = sink; }

 private:
  const Plan& plan_;
  std::size_t plan_index_;
  const RuleDoc& doc_;
  const std::map<std::string, double>* overrides_;
  std::vector<Diagnostic>& out_;
  std::vector<WhyNote>* why_ = nullptr;
  mutable const PlanScope* scope_ = nullptr;
  mutable std::unique_ptr<PlanScope> own_scope_;
};

class Rule {
 public:
  virtual ~Rule() = default;
  [[nodiscard]] virtual const RuleDoc& doc() const = 0;
  virtual void check(RuleContext& ctx) const = 0;
  // Optional: true when check() reports its rejected candidates through RuleContext::why().
  [[nodiscard]] virtual bool explains() const { return false; }
};

// A rule whose documentation is built once, on first use, by `MakeDoc`.
template <RuleDoc (*MakeDoc)()>
class DocumentedRule : public Rule {
 public:
  [[nodiscard]] const RuleDoc& doc() const final {
    static const RuleDoc d = MakeDoc();
    return d;
  }
};

// Every rule, in registration order (rules/registry.cpp).
const std::vector<std::unique_ptr<Rule>>& all_rules();
// By name, secondary name or code; nullptr when unknown.
const Rule* find_rule(std::string_view name_or_code);

// Impact ordering: findings with an impact estimate first (time, then bytes, then rows; larger
// first), then the rest in their current order. Stable.
void order_by_impact(std::vector<Diagnostic>& diagnostics);

// Formatting helpers for messages: format_bytes, format_count, format_millis, format_percent,
// format_decimal, format_ratio (model/format.hpp); evidence formats itself from its Unit.

// Sets the finding's impact estimate: `amount` in `unit` ("ms", "bytes", "rows", "files") and its
// text, `prefix` + the amount formatted for its unit (format_millis / format_bytes / format_count)
// + `what`, e.g. set_impact(d, 12e3, "ms", " of task time in Python evaluation").
void set_impact(Diagnostic& d, double amount, std::string_view unit, std::string_view what,
                std::string_view prefix = {});

}  // namespace planlint
