#include "lint/history/history.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>

// GCC 12 at -O2 reports a maybe-uninitialized value inside <chrono> when date::parse is
// instantiated (a false positive of the library's parse state); only for this header's use.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <date/date.h>

#include <nlohmann/json.hpp>

#include "support/strings.hpp"

namespace planlint {

namespace {

using json = nlohmann::json;

RuleDoc make_doc() {
  return RuleDoc{
      .name = std::string(kQueryRegressed),
      .code = "PLH001",
      .family = RuleFamily::History,
      .severity = Severity::Warning,
      .summary = "A statement's recent p95 duration reached 1.5x its seven-day baseline (planlint history)",
      .what =
          "Reads an export of system.query.history, fingerprints each statement (its query tag when it has one, "
          "else a hash of the first 200 characters of the normalised SQL), and compares the p95 of "
          "total_duration_ms over the last `recent-hours` with the p95 over the `baseline-days` before. A "
          "fingerprint whose recent p95 is at least `factor` times the baseline (and `min-ms` more) is "
          "reported with the phase whose mean grew most: waiting for compute, queueing at capacity, "
          "compilation, execution or result fetch, and the spill and bytes read on both sides.",
      .why =
          "Regressions should be caught before users report them. The phase says where to look: a cold "
          "warehouse or a full one (compute settings), planning (metadata, too many files), or the query "
          "itself (then diff its plans: `planlint diff`).",
      .example =
          "tag:team=bi,dashboard=sales: p95 4.2 s over 7 days (140 runs) -> 12.9 s in the last 24 h (20 runs), 3.1x;\n"
          "execution grew most (mean 3.1 s -> 11.6 s)",
      .use_instead =
          "Execution grew: compare the query profiles or plans of a baseline and a recent run with `planlint diff`. "
          "Waiting or queueing grew: warehouse sizing and auto-stop. Compilation grew: table maintenance "
          "(OPTIMIZE, fewer small files).",
      .evidence = "CSV or JSON-lines exports of system.query.history (columns: docs/history.md).",
      .thresholds = {
          {"factor", 1.5, "ratio", "The troubleshooting method's alert level: recent p95 at 1.5x the baseline."},
          {"min-ms", 1000, "ms", "A p95 that grew by less than a second is noise."},
          {"min-baseline-runs", 5, "", "A p95 of fewer runs says little."},
          {"min-recent-runs", 3, "", "One slow run is not a trend."},
          {"recent-hours", 24, "", "The recent window: the last day of the export."},
          {"baseline-days", 7, "", "The baseline window before it: seven days, as in the method."},
      },
  };
}

std::optional<double> number(std::string_view s) {
  std::string t(trim(s));
  if (t.empty() || t == "null" || t == "NULL") return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

bool truthy(std::string_view s) {
  std::string t = to_lower(trim(s));
  return t == "true" || t == "1" || t == "yes";
}

// One row as column name -> text; nested JSON values are flattened as "a.b".
using Row = std::map<std::string, std::string>;

std::string tags_text(const json& v) {
  std::vector<std::string> parts;
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it)
      parts.push_back(it.key() + "=" + (it.value().is_string() ? it.value().get<std::string>() : it.value().dump()));
  } else if (v.is_array()) {
    for (const auto& e : v) {
      if (e.is_object() && e.contains("key"))
        parts.push_back(e["key"].get<std::string>() + "=" +
                        (e.contains("value") && e["value"].is_string() ? e["value"].get<std::string>() : ""));
      else if (e.is_string()) parts.push_back(e.get<std::string>());
    }
  } else if (v.is_string()) {
    return std::string(trim(v.get<std::string>()));
  }
  std::sort(parts.begin(), parts.end());
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : ",") + p;
  return s;
}

void flatten(const json& v, const std::string& prefix, Row& row) {
  if (prefix == "query_tags" || prefix == "query_tag") {
    row[prefix] = tags_text(v);
    return;
  }
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), row);
  } else if (v.is_string()) {
    row[prefix] = v.get<std::string>();
  } else if (v.is_null()) {
    row[prefix] = "";
  } else {
    row[prefix] = v.dump();
  }
}

// A CSV value of a map column ({"team":"bi"} as Spark writes it, or "k=v;k2=v2"): sorted k=v list.
std::string csv_tags(const std::string& s) {
  std::string t(trim(s));
  if (t.empty() || t == "null") return "";
  if (t.front() == '{' || t.front() == '[') {
    json j = json::parse(t, nullptr, false);
    if (!j.is_discarded()) return tags_text(j);
  }
  return t;
}

struct Column {
  std::vector<std::string_view> names;
};

const std::string* get(const Row& row, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names)
    if (auto it = row.find(std::string(n)); it != row.end()) return &it->second;
  return nullptr;
}

void to_record(const Row& row, std::uint32_t line, HistoryRead& out) {
  HistoryRecord r;
  r.line = line;
  auto text = [&](std::initializer_list<std::string_view> names) {
    const std::string* v = get(row, names);
    return v ? *v : std::string();
  };
  auto num = [&](std::initializer_list<std::string_view> names) -> std::optional<double> {
    const std::string* v = get(row, names);
    return v ? number(*v) : std::nullopt;
  };
  r.statement_id = text({"statement_id"});
  r.statement_text = text({"statement_text"});
  r.tags = text({"query_tags", "query_tag"});
  r.status = text({"execution_status"});
  r.compute_type = text({"compute.type", "compute_type"});
  r.from_result_cache = truthy(text({"from_result_cache"}));
  std::string start = text({"start_time"});
  auto start_ms = parse_timestamp_ms(start);
  auto total = num({"total_duration_ms"});
  if (!r.status.empty() && r.status != "FINISHED") {
    ++out.skipped;
    return;
  }
  if (r.from_result_cache || !total) {
    ++out.skipped;
    return;
  }
  if (!start_ms) {
    out.messages.push_back({MessageSeverity::Error, {line, 1, 0, 0},
                            "start_time `" + start + "` is not a timestamp (expected 2024-05-01T12:34:56Z or epoch ms)"});
    return;
  }
  r.start_ms = *start_ms;
  r.total_ms = *total;
  r.phase_ms = {num({"waiting_for_compute_duration_ms"}), num({"waiting_at_capacity_duration_ms"}),
                num({"compilation_duration_ms"}), num({"execution_duration_ms"}), num({"result_fetch_duration_ms"})};
  r.spill_bytes = num({"spilled_local_bytes"});
  r.read_bytes = num({"read_bytes"});
  out.records.push_back(std::move(r));
}

void check_columns(const std::vector<std::string>& have, HistoryRead& out) {
  auto has = [&](std::string_view n) { return std::find(have.begin(), have.end(), n) != have.end(); };
  std::string missing;
  if (!has("start_time")) missing += "start_time";
  if (!has("total_duration_ms")) missing += std::string(missing.empty() ? "" : ", ") + "total_duration_ms";
  if (!has("statement_text") && !has("query_tags") && !has("query_tag"))
    missing += std::string(missing.empty() ? "" : ", ") + "statement_text (or query_tags)";
  if (!missing.empty())
    out.error = "not a system.query.history export: no column " + missing + " (see docs/history.md)";
}

void read_csv(std::string_view text, HistoryRead& out) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::uint32_t> lines;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, in_quotes = false, any = false;
  std::uint32_t line = 1, row_line = 1;
  auto end_field = [&] {
    row.push_back(field);
    field.clear();
    quoted = false;
  };
  auto end_row = [&] {
    end_field();
    if (!(row.size() == 1 && row[0].empty())) {
      rows.push_back(std::move(row));
      lines.push_back(row_line);
    }
    row.clear();
    any = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          in_quotes = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (!any) row_line = line;
    any = true;
    if (c == '"' && field.empty() && !quoted) {
      in_quotes = quoted = true;
    } else if (c == ',') {
      end_field();
    } else if (c == '\n') {
      end_row();
      ++line;
    } else if (c != '\r') {
      field += c;
    }
  }
  if (in_quotes) out.messages.push_back({MessageSeverity::Error, {row_line, 1, 0, 0}, "a quoted field is not closed before the end of the file"});
  if (any || !field.empty() || !row.empty()) end_row();
  if (rows.empty()) {
    out.error = "empty file: no header row";
    return;
  }
  std::vector<std::string> header;
  for (const auto& h : rows[0]) header.push_back(to_lower(trim(h)));
  check_columns(header, out);
  if (!out.error.empty()) return;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    if (rows[r].size() != header.size()) {
      out.messages.push_back({MessageSeverity::Error, {lines[r], 1, 0, 0},
                              "expected " + std::to_string(header.size()) + " fields as in the header, found " +
                                  std::to_string(rows[r].size())});
      continue;
    }
    Row m;
    for (std::size_t c = 0; c < header.size(); ++c)
      m[header[c]] = header[c] == "query_tags" || header[c] == "query_tag" ? csv_tags(rows[r][c]) : rows[r][c];
    if (auto it = m.find("compute"); it != m.end() && !it->second.empty() && it->second.front() == '{') {
      json j = json::parse(it->second, nullptr, false);
      if (j.is_object() && j.contains("type") && j["type"].is_string()) m["compute.type"] = j["type"].get<std::string>();
    }
    to_record(m, lines[r], out);
  }
}

void read_jsonl(std::string_view text, HistoryRead& out) {
  std::uint32_t line = 0;
  std::size_t pos = 0;
  bool columns_checked = false;
  while (pos <= text.size()) {
    std::size_t nl = text.find('\n', pos);
    std::string_view l = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    ++line;
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    if (trim(l).empty()) continue;
    json j = json::parse(l, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      out.messages.push_back({MessageSeverity::Error, {line, 1, 0, 0}, "expected one JSON object per line"});
      continue;
    }
    Row row;
    flatten(j, "", row);
    if (!columns_checked) {
      std::vector<std::string> names;
      for (const auto& [k, v] : row) names.push_back(k);
      check_columns(names, out);
      if (!out.error.empty()) return;
      columns_checked = true;
    }
    to_record(row, line, out);
  }
  if (!columns_checked && out.error.empty()) out.error = "no JSON object found";
}

std::string fnv_hex(std::string_view s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

double mean(const std::vector<double>& v) {
  if (v.empty()) return 0;
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

// 7 -> "7", 1.5 -> "1.5".
std::string whole(double v) {
  return v == std::floor(v) ? std::to_string(static_cast<long long>(v)) : format_decimal(v);
}

std::string first_line(std::string_view sql, std::size_t n) {
  std::string s;
  bool space = false;
  for (char c : sql) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !s.empty();
      continue;
    }
    if (space) s += ' ';
    space = false;
    s += c;
    if (s.size() >= n) {
      s += "...";
      break;
    }
  }
  return s;
}

}  // namespace

const RuleDoc& history_regression_doc() {
  static const RuleDoc d = make_doc();
  return d;
}

void register_history_rules(RuleCatalog& catalog) {
  catalog.add(RuleGroup{"history", {&history_regression_doc()}});
}

// Timestamps through Howard Hinnant's date library (Debian's libhowardhinnant-date-dev, the
// basis of C++20's <chrono> calendar; header-only here): it checks the calendar (no 30 February),
// reads fractional seconds to the microsecond and both offset spellings (+05:30 and +0530), which
// the sscanf parser it replaced got wrong (+0530 was read as five hours).
std::optional<double> parse_timestamp_ms(std::string_view s) {
  std::string t(trim(s));
  if (t.empty()) return std::nullopt;
  if (auto n = number(t)) return *n;
  using Micros = date::sys_time<std::chrono::microseconds>;
  auto whole = [&](const char* format, Micros& tp, std::chrono::minutes* offset) {
    std::istringstream in(t);
    if (offset) in >> date::parse(format, tp, *offset);
    else in >> date::parse(format, tp);
    return !in.fail() && in.peek() == std::char_traits<char>::eof();
  };
  static constexpr const char* kFormats[] = {"%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S"};
  static constexpr const char* kZones[] = {"%Ez", "%z", "Z", " UTC", "UTC", " Z", ""};
  for (const char* base : kFormats)
    for (const char* zone : kZones) {
      Micros tp;
      std::chrono::minutes offset{0};
      std::string format = std::string(base) + zone;
      // With an offset the library already returns UTC: `tp` is the instant.
      if (whole(format.c_str(), tp, zone[0] == '%' ? &offset : nullptr))
        return static_cast<double>(tp.time_since_epoch().count()) / 1000.0;
    }
  Micros day;
  if (whole("%Y-%m-%d", day, nullptr)) return static_cast<double>(day.time_since_epoch().count()) / 1000.0;
  return std::nullopt;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

std::string normalise_statement(std::string_view sql) {
  std::string out;
  std::size_t i = 0;
  bool space = false;
  auto put = [&](char c) {
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  };
  while (i < sql.size()) {
    char c = sql[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      ++i;
    } else if (c == '\'' || c == '"') {  // a string literal
      std::size_t j = i + 1;
      while (j < sql.size() && sql[j] != c) j += sql[j] == '\\' ? 2 : 1;
      put('?');
      i = std::min(sql.size(), j + 1);
    } else if (std::isdigit(static_cast<unsigned char>(c)) &&
               (out.empty() || !(std::isalnum(static_cast<unsigned char>(out.back())) || out.back() == '_') || space)) {
      while (i < sql.size() && (std::isalnum(static_cast<unsigned char>(sql[i])) || sql[i] == '.')) ++i;
      put('?');
    } else {
      put(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
      ++i;
    }
  }
  return out;
}

std::string statement_fingerprint(const HistoryRecord& r) {
  if (!r.tags.empty()) return "tag:" + r.tags;
  std::string n = normalise_statement(r.statement_text);
  return "sql:" + fnv_hex(std::string_view(n).substr(0, std::min<std::size_t>(200, n.size())));
}

double p95(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  auto rank = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(values.size())));
  return values[std::max<std::size_t>(rank, 1) - 1];
}

HistoryRead read_query_history(std::string_view text) {
  HistoryRead out;
  std::size_t i = 0;
  if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF) i = 3;  // UTF-8 BOM
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i >= text.size()) {
    out.error = "empty file";
    return out;
  }
  if (text[i] == '{') read_jsonl(text, out);
  else read_csv(text.substr(text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF ? 3 : 0), out);
  if (out.error.empty() && out.records.empty() && out.skipped == 0)
    out.error = "no query history record could be read";
  return out;
}

namespace {

// A threshold of PLH001: the rule's own setting, else the global one, else the doc's default.
double history_threshold(const Config& config, const RuleDoc& doc, std::string_view name) {
  if (auto it = config.thresholds.find(doc.name); it != config.thresholds.end())
    if (auto j = it->second.find(std::string(name)); j != it->second.end()) return j->second;
  if (auto g = config.global_thresholds.find(std::string(name)); g != config.global_thresholds.end()) return g->second;
  for (const auto& t : doc.thresholds)
    if (t.name == name) return t.default_value;
  return 0.0;
}

// The runs of one statement fingerprint, in the baseline window and in the recent one.
struct RunGroup {
  std::vector<const HistoryRecord*> base, recent;
};

// The phase whose mean grew most from the baseline runs to the recent ones (none when no phase
// grew), and each phase's two means.
struct PhaseGrowth {
  std::optional<std::size_t> grew;
  double best = 0;
  std::array<double, 5> mb{}, mr{};
};

PhaseGrowth phase_growth(const RunGroup& g) {
  PhaseGrowth pg;
  for (std::size_t p = 0; p < kHistoryPhases.size(); ++p) {
    std::vector<double> a, b;
    for (auto* r : g.base)
      if (r->phase_ms[p]) a.push_back(*r->phase_ms[p]);
    for (auto* r : g.recent)
      if (r->phase_ms[p]) b.push_back(*r->phase_ms[p]);
    if (a.empty() || b.empty()) continue;
    pg.mb[p] = mean(a);
    pg.mr[p] = mean(b);
    if (pg.mr[p] - pg.mb[p] > pg.best) {
      pg.best = pg.mr[p] - pg.mb[p];
      pg.grew = p;
    }
  }
  return pg;
}

std::optional<double> mean_of(const std::vector<const HistoryRecord*>& rs, std::optional<double> HistoryRecord::*m) {
  std::vector<double> v;
  for (auto* r : rs)
    if (r->*m) v.push_back(*(r->*m));
  if (v.empty()) return std::nullopt;
  return mean(v);
}

// The PLH001 finding of one fingerprint whose p95 went from `before` to `after`, on its slowest
// recent run.
Diagnostic regression_finding(const Config& config, const RuleDoc& doc, const std::string& print, const RunGroup& g,
                              double before, double after) {
  const PhaseGrowth pg = phase_growth(g);
  const HistoryRecord* worst = *std::max_element(g.recent.begin(), g.recent.end(),
                                                 [](auto* a, auto* b) { return a->total_ms < b->total_ms; });
  std::string who = print.rfind("tag:", 0) == 0 ? print : print + " (" + first_line(worst->statement_text, 60) + ")";
  std::string msg = who + ": p95 " + format_millis(before) + " over " +
                    whole(history_threshold(config, doc, "baseline-days")) + " days (" + std::to_string(g.base.size()) +
                    " runs) -> " + format_millis(after) + " in the last " +
                    whole(history_threshold(config, doc, "recent-hours")) + " h (" + std::to_string(g.recent.size()) +
                    " runs), " + format_decimal(before > 0 ? after / before : 0) + "x";
  if (pg.grew)
    msg += "; " + std::string(kHistoryPhases[*pg.grew]) + " grew most (mean " + format_millis(pg.mb[*pg.grew]) + " -> " +
           format_millis(pg.mr[*pg.grew]) + ")";
  Diagnostic d;
  d.rule = doc.name;
  d.code = doc.code;
  d.severity = doc.severity;
  if (auto s = config.severity.find(doc.name); s != config.severity.end()) d.severity = s->second;
  d.message = msg;
  d.fix = doc.use_instead;
  d.range = {worst->line, 1, 0, 0};
  d.operator_name = print;
  d.evidence.push_back({"baseline p95", before, Unit::Ms});
  d.evidence.push_back({"recent p95", after, Unit::Ms});
  if (pg.grew) d.evidence.push_back({"phase that grew", pg.best, Unit::Ms, std::string(kHistoryPhases[*pg.grew])});
  for (std::size_t p = 0; p < kHistoryPhases.size(); ++p)
    if (pg.mb[p] > 0 || pg.mr[p] > 0)
      d.evidence.push_back({std::string(kHistoryPhases[p]) + " (mean)", pg.mr[p], Unit::Ms,
                            format_millis(pg.mb[p]) + " -> " + format_millis(pg.mr[p])});
  auto sa = mean_of(g.base, &HistoryRecord::spill_bytes), sb = mean_of(g.recent, &HistoryRecord::spill_bytes);
  if (sa && sb && (*sa > 0 || *sb > 0))
    d.evidence.push_back({"spill (mean)", *sb, Unit::Bytes, format_bytes(*sa) + " -> " + format_bytes(*sb)});
  auto ra = mean_of(g.base, &HistoryRecord::read_bytes), rb = mean_of(g.recent, &HistoryRecord::read_bytes);
  if (ra && rb) d.evidence.push_back({"bytes read (mean)", *rb, Unit::Bytes, format_bytes(*ra) + " -> " + format_bytes(*rb)});
  if (!worst->compute_type.empty()) d.evidence.push_back({"compute", worst->compute_type});
  d.impact = (after - before) * static_cast<double>(g.recent.size());
  d.impact_unit = "ms";
  return d;
}

}  // namespace

FileReport check_history(std::string text, const std::string& path, const Config& config, std::optional<double> now_ms) {
  FileReport report;
  report.path = path;
  HistoryRead read = read_query_history(text);
  if (!read.error.empty()) {
    report.error = path + ": " + read.error;
    return report;
  }
  const RuleDoc& doc = history_regression_doc();
  auto threshold = [&](std::string_view name) { return history_threshold(config, doc, name); };
  for (const auto& m : read.messages) {
    Diagnostic d;
    d.rule = "parse-error";
    d.code = "PL900";
    d.severity = Severity::Error;
    d.message = m.message;
    d.range = m.loc;
    if (!config.ignore.count("parse-error") && !config.ignore.count("PL900")) report.diagnostics.push_back(std::move(d));
  }
  report.input = std::make_shared<const std::string>(std::move(text));
  if (!config.enabled(doc, doc.name) || read.records.empty()) return report;

  double now = 0;
  for (const auto& r : read.records) now = std::max(now, r.start_ms);
  if (now_ms) now = *now_ms;
  const double recent_start = now - threshold("recent-hours") * 3'600'000.0;
  const double baseline_start = recent_start - threshold("baseline-days") * 86'400'000.0;
  std::map<std::string, RunGroup> groups;
  for (const auto& r : read.records) {
    if (r.start_ms > now || r.start_ms <= baseline_start) continue;
    auto& g = groups[statement_fingerprint(r)];
    (r.start_ms > recent_start ? g.recent : g.base).push_back(&r);
  }
  const double factor = threshold("factor");
  for (const auto& [print, g] : groups) {
    if (g.base.size() < threshold("min-baseline-runs") || g.recent.size() < threshold("min-recent-runs")) continue;
    std::vector<double> bt, rt;
    for (auto* r : g.base) bt.push_back(r->total_ms);
    for (auto* r : g.recent) rt.push_back(r->total_ms);
    double before = p95(bt), after = p95(rt);
    if (!(after >= before * factor && after - before >= threshold("min-ms"))) continue;
    report.diagnostics.push_back(regression_finding(config, doc, print, g, before, after));
  }
  std::stable_sort(report.diagnostics.begin(), report.diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) { return a.range.line < b.range.line; });
  return report;
}

}  // namespace planlint
