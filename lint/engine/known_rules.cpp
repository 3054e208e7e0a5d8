#include "lint/engine/known_rules.hpp"

#include "lint/diff/diff_rules.hpp"
#include "lint/history/history.hpp"

namespace planlint {

const RuleDoc& parse_error_doc() {
  static const RuleDoc doc = [] {
    RuleDoc d;
    d.name = std::string(kParseErrorRule);
    d.code = "PL900";
    d.severity = Severity::Error;
    d.summary = "The input could not be read as a plan, profile or event log";
    d.what =
        "Reports where the parser stopped understanding the input: a truncated plan, a line mangled by "
        "copy and paste, JSON that is not a Query Profile export.";
    d.why =
        "Rules only see what the parser understood. A plan that does not parse is checked partly or not "
        "at all, so a clean result would be misleading. In CI a parse error fails the check like any "
        "finding of severity error.";
    d.example = "(4) SortMergeJoin [codegen id : 5\nLeft keys [1]: [customer_id#12";
    d.use_instead =
        "Capture the plan again in full (df.explain(\"formatted\") or EXPLAIN FORMATTED, the Query Profile "
        "'Download' JSON) and save it unchanged. Ignore the finding with `ignore = [\"parse-error\"]` only "
        "for files that are not plans.";
    d.evidence = "The parser's own message and position.";
    return d;
  }();
  return doc;
}

const RuleDoc& unused_suppression_doc() {
  static const RuleDoc doc = [] {
    RuleDoc d;
    d.name = std::string(kUnusedSuppressionRule);
    d.code = "PL901";
    d.severity = Severity::Warning;
    d.summary = "A `planlint: disable=` directive that suppressed nothing";
    d.what =
        "Reports a suppression directive (`# planlint: disable=RULE`, optionally `operator=ID`) whose rule "
        "did not report anything in the file or on that operator, or that names no known rule; and a comment line "
        "starting `planlint:` that is not a directive planlint understands (`# planlint: disable=a trailing words`, "
        "`# planlint: enable=a`), which would otherwise suppress nothing without a word.";
    d.why =
        "A stale suppression hides the next real finding of that rule: once the plan was fixed, the "
        "directive should go. Like ruff's RUF100 (unused-noqa).";
    d.example = "# planlint: disable=shuffle-join-could-broadcast operator=12   (operator 12 is now a BroadcastHashJoin)";
    d.use_instead = "Delete the directive, or the rule name in it that no longer matches.";
    d.evidence = "The directive line of the plan file.";
    return d;
  }();
  return doc;
}

std::vector<const RuleDoc*> all_rule_docs() {
  std::vector<const RuleDoc*> out;
  for (const auto& r : all_rules()) out.push_back(&r->doc());
  out.push_back(&parse_error_doc());
  out.push_back(&unused_suppression_doc());
  for (const RuleDoc* d : diff_rule_docs()) out.push_back(d);
  out.push_back(&history_regression_doc());
  return out;
}

const RuleDoc* find_rule_doc(std::string_view name_or_code) {
  if (const Rule* r = find_rule(name_or_code)) return &r->doc();
  for (const RuleDoc* d : {&parse_error_doc(), &unused_suppression_doc()})
    if (d->name == name_or_code || d->code == name_or_code) return d;
  for (const RuleDoc* d : diff_rule_docs())
    if (d->name == name_or_code || d->code == name_or_code) return d;
  if (const RuleDoc& h = history_regression_doc(); h.name == name_or_code || h.code == name_or_code) return &h;
  return nullptr;
}

std::vector<std::string> names_for_selector(std::string_view name_or_code) {
  const RuleDoc* doc = find_rule_doc(name_or_code);
  if (!doc) return {};
  if (doc->code == name_or_code) {
    std::vector<std::string> v{doc->name};
    v.insert(v.end(), doc->also_reports.begin(), doc->also_reports.end());
    return v;
  }
  return {std::string(name_or_code)};
}

bool is_builtin_rule(std::string_view name) { return name == kParseErrorRule || name == kUnusedSuppressionRule; }

std::vector<Diagnostic> parse_error_diagnostics(const ParseResult& parsed) {
  std::vector<Diagnostic> out;
  const RuleDoc& doc = parse_error_doc();
  for (const auto& m : parsed.messages) {
    if (m.severity != MessageSeverity::Error) continue;
    Diagnostic d;
    d.rule = doc.name;
    d.code = doc.code;
    d.severity = doc.severity;
    d.message = m.message;
    d.range = m.loc;
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace planlint

namespace planlint {

bool is_reported(const Config& config, std::string_view name) {
  const RuleDoc* doc = find_rule_doc(name);
  if (!doc) return true;
  if (is_builtin_rule(doc->name)) {
    // Code prefixes reach them too (PL9); ALL does not: a plan that could not be read is always said.
    if (config.ignore.count(doc->name) || config.ignore.count(doc->code)) return false;
    for (const auto& s : config.ignore)
      if (is_code_prefix(s) && doc->code.compare(0, s.size(), s) == 0) return false;
    return true;
  }
  return config.enabled(*doc, name);
}

}  // namespace planlint
