// `sarif`: SARIF 2.1.0 for GitHub code scanning and other SARIF viewers. Rule metadata comes from
// the RuleDocs (the same text as `planlint rule NAME`); each result has a physical location at the
// operator's line and column, a logical location naming the operator, and partialFingerprints
// that survive re-capturing the plan (lint/core/fingerprint.hpp).
#include <nlohmann/json.hpp>
#include <ostream>

#include "lint/core/fingerprint.hpp"
#include "rules/catalog.hpp"
#include "lint/output/output.hpp"
#include "lint/core/sanitize.hpp"

namespace planlint {

namespace {
using ordered_json = nlohmann::ordered_json;

std::string_view sarif_level(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: break;
  }
  return "note";
}

// SARIF viewers expect messages to be sentences.
std::string sentence(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) s.pop_back();
  if (!s.empty() && s.back() != '.' && s.back() != '!' && s.back() != '?') s += '.';
  return s;
}

std::string pascal_case(std::string_view kebab) {
  std::string out;
  bool up = true;
  for (char c : kebab) {
    if (c == '-' || c == '_') {
      up = true;
      continue;
    }
    out += up && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    up = false;
  }
  return out;
}

// A relative or absolute path as a URI reference (RFC 3986).
std::string path_uri(std::string_view path) {
  return (!path.empty() && path[0] == '/' ? "file://" : "") + percent_encode_path(path);
}

std::string help_markdown(const RuleDoc& d) {
  std::string md = "## What it does\n\n" + d.what + "\n\n## Why is this bad?\n\n" + d.why + "\n";
  if (!d.example.empty()) md += "\n## Example\n\n```\n" + d.example + "\n```\n";
  if (!d.use_instead.empty()) md += "\n## Use instead\n\n" + d.use_instead + "\n";
  if (!d.evidence.empty()) md += "\n## Evidence\n\n" + d.evidence + "\n";
  if (!d.thresholds.empty()) {
    md += "\n## Options\n\n";
    for (const auto& t : d.thresholds) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g", t.default_value);
      md += "- `" + t.name + "` (default " + buf + (t.unit.empty() ? "" : " " + t.unit) + "): " + t.description + "\n";
    }
  }
  return md;
}

std::string help_text(const RuleDoc& d) {
  std::string t = d.what + "\n\nWhy: " + d.why;
  if (!d.use_instead.empty()) t += "\n\nUse instead: " + d.use_instead;
  return t;
}

// The rule's documentation page from the --sarif-help-uri template: `{name}` and `{code}` replaced,
// or `<name>.md` appended to a base without either. Empty without a template: planlint knows no
// public address of its docs, and SARIF wants an absolute URI here, not a path into the source tree.
std::string help_uri(const RuleDoc& d, std::string_view tmpl) {
  if (tmpl.empty()) return "";
  std::string out(tmpl);
  bool placed = false;
  for (auto [key, value] : {std::pair<std::string_view, std::string_view>{"{name}", d.name}, {"{code}", d.code}})
    for (std::size_t at = out.find(key); at != std::string::npos; at = out.find(key, at + value.size())) {
      out.replace(at, key.size(), value);
      placed = true;
    }
  return placed ? out : out + d.name + ".md";
}

ordered_json rule_descriptor(const RuleDoc& d, const std::string& id, std::string_view help_uri_template) {
  ordered_json r;
  r["id"] = id;
  r["name"] = pascal_case(id);
  std::string summary = d.summary;
  for (const auto& a : d.also_reports)
    if (a.name == id && !a.summary.empty()) summary = a.summary + " (reported by " + d.name + ")";
  r["shortDescription"] = {{"text", sentence(summary)}};
  r["fullDescription"] = {{"text", sentence(d.what.empty() ? d.summary : d.what)}};
  if (std::string uri = help_uri(d, help_uri_template); !uri.empty()) r["helpUri"] = uri;
  r["help"] = {{"text", help_text(d)}, {"markdown", help_markdown(d)}};
  r["defaultConfiguration"] = {{"level", std::string(sarif_level(d.severity))}};
  r["properties"] = {{"code", d.code_of(id)}, {"tags", ordered_json::array({"performance"})}};
  if (id == d.name && !d.aliases.empty()) r["deprecatedNames"] = d.aliases;  // a renamed rule's former names
  return r;
}

}  // namespace

bool valid_help_uri_template(std::string_view tmpl) {
  // An absolute URI: a scheme (RFC 3986: a letter, then letters, digits, + - .), a colon, and no
  // blank or control character anywhere.
  std::size_t colon = tmpl.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == tmpl.size()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (!alpha(tmpl[0])) return false;
  for (std::size_t i = 1; i < colon; ++i)
    if (!alpha(tmpl[i]) && !(tmpl[i] >= '0' && tmpl[i] <= '9') && tmpl[i] != '+' && tmpl[i] != '-' && tmpl[i] != '.')
      return false;
  for (char c : tmpl)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return false;
  return true;
}

void write_sarif(std::ostream& out, const std::vector<FileReport>& files, std::string_view help_uri_template) {
  ordered_json rules = ordered_json::array();
  std::map<std::string, std::size_t> rule_index;
  auto add_rule = [&](const RuleDoc& d, const std::string& id) {
    if (rule_index.count(id)) return;
    rule_index[id] = rules.size();
    rules.push_back(rule_descriptor(d, id, help_uri_template));
  };
  for (const RuleDoc* d : all_rule_docs()) {
    add_rule(*d, d->name);
    for (const auto& extra : d->also_reports) add_rule(*d, extra.name);
  }

  ordered_json results = ordered_json::array();
  ordered_json notifications = ordered_json::array();
  bool failed = false;
  for (const auto& f : files) {
    std::string uri = path_uri(f.path);
    // The readers' warnings and notes: tool execution notifications (not results; they do not
    // make the run unsuccessful).
    for (const auto& m : f.messages) {
      ordered_json n;
      n["level"] = m.severity == MessageSeverity::Warning ? "warning" : "note";
      n["message"] = {{"text", sentence(m.message)}};
      ordered_json phys;
      phys["artifactLocation"] = {{"uri", uri}};
      if (m.loc.known())
        phys["region"] = {{"startLine", m.loc.line}, {"startColumn", std::max<std::uint32_t>(1, m.loc.column)}};
      n["locations"] = ordered_json::array({{{"physicalLocation", std::move(phys)}}});
      notifications.push_back(std::move(n));
    }
    if (!f.error.empty()) {
      failed = true;
      ordered_json n;
      n["level"] = "error";
      n["message"] = {{"text", sentence(f.error)}};
      n["locations"] = ordered_json::array({{{"physicalLocation", {{"artifactLocation", {{"uri", uri}}}}}}});
      notifications.push_back(std::move(n));
      continue;
    }
    std::vector<std::string> prints = fingerprints_with_occurrence(f.diagnostics);
    for (std::size_t i = 0; i < f.diagnostics.size(); ++i) {
      const Diagnostic& d = f.diagnostics[i];
      if (!rule_index.count(d.rule)) {  // a name no RuleDoc declares: still describe it
        RuleDoc bare;
        bare.name = d.rule;
        bare.code = d.code;
        bare.severity = d.severity;
        bare.summary = d.rule;
        add_rule(bare, d.rule);
      }
      ordered_json r;
      r["ruleId"] = d.rule;
      r["ruleIndex"] = rule_index[d.rule];
      r["level"] = std::string(sarif_level(d.severity));
      std::string text = sentence(labelled_message(d));
      if (!d.fix.empty()) text += " Fix: " + sentence(d.fix);
      r["message"] = {{"text", text}};
      ordered_json phys;
      phys["artifactLocation"] = {{"uri", uri}};
      if (d.range.known()) {
        ordered_json region;
        region["startLine"] = d.range.line;
        region["startColumn"] = std::max<std::uint32_t>(1, d.range.column);
        if (d.range.end_line >= d.range.line && d.range.end_line != 0) {
          bool same = d.range.end_line == d.range.line;
          if (!same || d.range.end_column > d.range.column) {
            region["endLine"] = d.range.end_line;
            if (d.range.end_column > 0) region["endColumn"] = d.range.end_column;
          }
        }
        phys["region"] = std::move(region);
      }
      ordered_json loc;
      loc["physicalLocation"] = std::move(phys);
      if (!d.operator_name.empty()) {
        std::string fq = d.operator_name + (d.operator_id.empty() ? "" : " (" + d.operator_id + ")");
        loc["logicalLocations"] =
            ordered_json::array({{{"name", d.operator_name}, {"fullyQualifiedName", fq}, {"kind", "object"}}});
      }
      r["locations"] = ordered_json::array({std::move(loc)});
      r["partialFingerprints"] = {{"planlintFingerprint/v1", prints[i]}};
      ordered_json props;
      props["code"] = d.code;
      if (!d.operator_id.empty()) props["operatorId"] = d.operator_id;
      if (!d.evidence.empty()) {
        ordered_json ev = ordered_json::object();
        for (const auto& e : d.evidence) ev[e.name] = evidence_value(e);
        props["evidence"] = std::move(ev);
      }
      if (!d.fix.empty()) props["fix"] = d.fix;
      r["properties"] = std::move(props);
      results.push_back(std::move(r));
    }
  }

  ordered_json driver;
  driver["name"] = "planlint";
  driver["version"] = PLANLINT_VERSION;
  driver["semanticVersion"] = PLANLINT_VERSION;
  driver["rules"] = std::move(rules);
  ordered_json run;
  run["tool"] = {{"driver", std::move(driver)}};
  ordered_json inv;
  inv["executionSuccessful"] = !failed;
  if (!notifications.empty()) inv["toolExecutionNotifications"] = std::move(notifications);
  run["invocations"] = ordered_json::array({std::move(inv)});
  run["columnKind"] = "unicodeCodePoints";
  run["results"] = std::move(results);
  ordered_json root;
  root["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  root["version"] = "2.1.0";
  root["runs"] = ordered_json::array({std::move(run)});
  out << root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace planlint
