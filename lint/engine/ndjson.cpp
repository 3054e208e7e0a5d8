#include "lint/engine/ndjson.hpp"

#include <istream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "lint/engine/check.hpp"
#include "parser/eventlog/eventlog.hpp"

namespace planlint {

namespace {

using ordered_json = nlohmann::ordered_json;

std::string dump(const ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string error_record(std::size_t line, const ordered_json* id, const std::string& message, NdjsonTotals& t) {
  ordered_json e;
  e["type"] = "error";
  e["line"] = line;
  e["id"] = id ? *id : ordered_json(nullptr);
  e["error"] = message;
  ++t.errors;
  return dump(e);
}

}  // namespace

std::string ndjson_record(std::string_view line, std::size_t line_number, const NdjsonConfigFor& config_for,
                          NdjsonTotals& totals) {
  ++totals.records;
  ordered_json rec;
  try {
    rec = ordered_json::parse(line.begin(), line.end());
  } catch (const nlohmann::json::exception& e) {
    // parse_error, and out_of_range for a number no double holds (`1e400`, a 400-digit integer):
    // this record is an error record, and the stream goes on with the next line.
    std::string what = e.what();
    if (std::size_t p = what.find("syntax error"); p != std::string::npos) what = what.substr(p);
    else if (std::size_t q = what.find("] "); q != std::string::npos && what.compare(0, 16, "[json.exception.") == 0)
      what = what.substr(q + 2);
    if (e.id == 406) what = "number out of range (" + what + ")";
    return error_record(line_number, nullptr, "not a JSON record: " + what, totals);
  }
  if (!rec.is_object())
    return error_record(line_number, nullptr, "expected a JSON object {\"id\": …, \"text\"|\"path\": …}", totals);
  auto id_it = rec.find("id");
  if (id_it == rec.end() || id_it->is_object() || id_it->is_array())
    return error_record(line_number, nullptr, "record without an \"id\" (a string or a number)", totals);
  const ordered_json id = *id_it;
  auto text_it = rec.find("text");
  auto path_it = rec.find("path");
  bool has_text = text_it != rec.end() && !text_it->is_null();
  bool has_path = path_it != rec.end() && !path_it->is_null();
  if (has_text == has_path)
    return error_record(line_number, &id, "a record needs exactly one of \"text\" and \"path\"", totals);
  if ((has_text && !text_it->is_string()) || (has_path && !path_it->is_string()))
    return error_record(line_number, &id, std::string("\"") + (has_text ? "text" : "path") + "\" must be a string",
                        totals);
  std::string path = has_path ? path_it->get<std::string>() : std::string();
  std::string cerr;
  std::optional<Config> config = config_for(path, cerr);
  if (!config) return error_record(line_number, &id, cerr, totals);

  FileReport report;
  if (has_text) {
    report = check_text(text_it->get<std::string>(), "-", *config);
  } else if (path == "-") {
    return error_record(line_number, &id, "\"path\": \"-\" is the record stream itself", totals);
  } else {
    std::error_code ec;
    report = check_input(path, *config, path);
  }
  if (!report.error.empty()) return error_record(line_number, &id, report.error, totals);

  std::string out;
  for (const auto& d : report.diagnostics) {
    ordered_json f;
    f["type"] = "finding";
    f["id"] = id;
    f["path"] = has_path ? ordered_json(path) : ordered_json(nullptr);
    ordered_json fields = diagnostic_to_json(d);  // kept alive while its items are copied
    for (auto& [k, v] : fields.items()) f[k] = v;
    out += dump(f);
  }
  totals.findings += report.diagnostics.size();
  ordered_json done;
  done["type"] = "done";
  done["id"] = id;
  done["path"] = has_path ? ordered_json(path) : ordered_json(nullptr);
  done["format"] = std::string(to_string(report.format));
  done["findings"] = report.diagnostics.size();
  if (!report.messages.empty()) {
    done["messages"] = ordered_json::array();
    for (const auto& m : report.messages) done["messages"].push_back(message_to_json(m));
  }
  out += dump(done);
  return out;
}

NdjsonTotals run_ndjson(std::istream& in, std::ostream& out, const NdjsonConfigFor& config_for) {
  NdjsonTotals totals;
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    out << ndjson_record(line, n, config_for, totals);
    out.flush();
  }
  return totals;
}

}  // namespace planlint
