#include "lint/core/builtin_rules.hpp"

namespace planlint {

const RuleDoc& parse_error_doc() {
  static const RuleDoc doc{
      .name = std::string(kParseErrorRule),
      .code = "PL900",
      .family = RuleFamily::Builtin,
      .severity = Severity::Error,
      .summary = "The input could not be read as a plan, profile or event log",
      .what =
          "Reports where the parser stopped understanding the input: a truncated plan, a line mangled by "
          "copy and paste, JSON that is not a Query Profile export.",
      .why =
          "Rules only see what the parser understood. A plan that does not parse is checked partly or not "
          "at all, so a clean result would be misleading. In CI a parse error fails the check like any "
          "finding of severity error.",
      .example = "(4) SortMergeJoin [codegen id : 5\nLeft keys [1]: [customer_id#12",
      .use_instead =
          "Capture the plan again in full (df.explain(\"formatted\") or EXPLAIN FORMATTED, the Query Profile "
          "'Download' JSON) and save it unchanged. Ignore the finding with `ignore = [\"parse-error\"]` only "
          "for files that are not plans.",
      .evidence = "The parser's own message and position.",
  };
  return doc;
}

const RuleDoc& unused_suppression_doc() {
  static const RuleDoc doc{
      .name = std::string(kUnusedSuppressionRule),
      .code = "PL901",
      .family = RuleFamily::Builtin,
      .severity = Severity::Warning,
      .summary = "A `planlint: disable=` directive that suppressed nothing",
      .what =
          "Reports a suppression directive (`# planlint: disable=RULE`, optionally `operator=ID`) whose rule "
          "did not report anything in the file or on that operator, or that names no known rule; and a comment line "
          "starting `planlint:` that is not a directive planlint understands (`# planlint: disable=a trailing words`, "
          "`# planlint: enable=a`), which would otherwise suppress nothing without a word.",
      .why =
          "A stale suppression hides the next real finding of that rule: once the plan was fixed, the "
          "directive should go. Like ruff's RUF100 (unused-noqa).",
      .example = "# planlint: disable=shuffle-join-could-broadcast operator=12   (operator 12 is now a BroadcastHashJoin)",
      .use_instead = "Delete the directive, or the rule name in it that no longer matches.",
      .evidence = "The directive line of the plan file.",
  };
  return doc;
}

void register_builtin_rules(RuleCatalog& catalog) {
  catalog.add(RuleGroup{"builtin", {&parse_error_doc(), &unused_suppression_doc()}});
}

}  // namespace planlint
