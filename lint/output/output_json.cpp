// `json`: {"files":[{"path","format","diagnostics":[{"rule","code","severity","message",
// "execution"?,"line","column","operator_id","operator","evidence","fix"}]}]}. "execution":
// {"id","description"} names the SQL execution (event logs, History Server answers) that the text
// outputs write before the message. Parse errors are diagnostics of the rule `parse-error`; an
// unreadable file carries "error" instead of diagnostics. The readers'
// warnings and notes, when a file has any, follow as "messages":[{"severity","message","line",
// "column"}] (they are not findings).
// With --statistics: {"statistics":[{"rule","code","count"}],"files":N,"findings":N}, most
// frequent rule first.
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

#include "lint/output/output.hpp"

namespace planlint {

using ordered_json = nlohmann::ordered_json;

void write_json(std::ostream& out, const std::vector<FileReport>& files) {
  ordered_json root;
  root["files"] = ordered_json::array();
  for (const auto& f : files) {
    ordered_json jf;
    jf["path"] = f.path;
    jf["format"] = std::string(to_string(f.format));
    if (!f.error.empty()) jf["error"] = f.error;
    jf["diagnostics"] = ordered_json::array();
    for (const auto& d : f.diagnostics) jf["diagnostics"].push_back(diagnostic_to_json(d));
    if (!f.messages.empty()) {
      jf["messages"] = ordered_json::array();
      for (const auto& m : f.messages) jf["messages"].push_back(message_to_json(m));
    }
    root["files"].push_back(std::move(jf));
  }
  out << root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void write_json_statistics(std::ostream& out, const std::vector<FileReport>& files) {
  std::map<std::string, std::pair<std::size_t, std::string>> by_rule;
  std::size_t findings = 0;
  for (const auto& f : files)
    for (const auto& d : f.diagnostics) {
      auto& e = by_rule[d.rule];
      ++e.first;
      e.second = d.code;
      ++findings;
    }
  std::vector<std::pair<std::string, std::pair<std::size_t, std::string>>> rows(by_rule.begin(), by_rule.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
  ordered_json root;
  root["statistics"] = ordered_json::array();
  for (const auto& [rule, e] : rows)
    root["statistics"].push_back(ordered_json{{"rule", rule}, {"code", e.second}, {"count", e.first}});
  root["files"] = files.size();
  root["findings"] = findings;
  out << root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace planlint
