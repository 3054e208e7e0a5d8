#include "lint/core/config_file.hpp"

#include "lint/core/toml.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <set>
#include <sys/stat.h>

#include "lint/core/glob.hpp"
#include "lint/core/input.hpp"
#include "parser/common/regular_file.hpp"
#include "lint/core/builtin_rules.hpp"
#include "rules/catalog.hpp"

namespace planlint {

namespace fs = std::filesystem;

std::string ConfigError::str() const {
  std::string s = file;
  if (line) s += ":" + std::to_string(line) + ":" + std::to_string(column ? column : 1);
  return s + ": error: " + message;
}

namespace {

// toml++ reads a dotted key or table header (`a.b.c = 1`, `[a.b.c]`) with one nested call per
// part: a key of ~50,000 parts overflows the stack (20,000 under ASan). Keys and headers sit
// on one line, so a line with more dots outside strings and comments than any config could
// need is refused before toml++ sees it. Returns the line and column of the first dot over
// the limit, or line 0.
constexpr std::size_t kMaxDotsPerLine = 1000;

std::pair<std::uint32_t, std::uint32_t> overdeep_line(std::string_view text) {
  enum class In { Plain, Basic, Literal, MultiBasic, MultiLiteral, Comment } in = In::Plain;
  std::uint32_t line = 1;
  std::size_t line_start = 0, dots = 0;
  auto at = [&](std::size_t i, std::string_view s) { return text.substr(i, s.size()) == s; };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
      dots = 0;
      if (in == In::Basic || in == In::Literal || in == In::Comment) in = In::Plain;
      continue;
    }
    switch (in) {
      case In::Plain:
        if (c == '#') in = In::Comment;
        else if (at(i, "\"\"\"")) in = In::MultiBasic, i += 2;
        else if (at(i, "'''")) in = In::MultiLiteral, i += 2;
        else if (c == '"') in = In::Basic;
        else if (c == '\'') in = In::Literal;
        else if (c == '.' && ++dots > kMaxDotsPerLine)
          return {line, static_cast<std::uint32_t>(i - line_start + 1)};
        break;
      case In::Basic:
      case In::MultiBasic:
        if (c == '\\' && i + 1 < text.size() && text[i + 1] != '\n') ++i;
        else if (in == In::Basic && c == '"') in = In::Plain;
        else if (in == In::MultiBasic && at(i, "\"\"\"")) in = In::Plain, i += 2;
        break;
      case In::Literal: if (c == '\'') in = In::Plain; break;
      case In::MultiLiteral: if (at(i, "'''")) in = In::Plain, i += 2; break;
      case In::Comment: break;
    }
  }
  return {0, 0};
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Option `name` of any rule (first match) and which rules have it.
const Threshold* find_threshold(const RuleDoc& doc, std::string_view name) {
  for (const auto& t : doc.thresholds)
    if (t.name == name) return &t;
  return nullptr;
}

std::string known_options(const RuleDoc& doc) {
  std::string s;
  for (const auto& t : doc.thresholds) s += (s.empty() ? "" : ", ") + t.name;
  return s.empty() ? "it has no options" : "its options: " + s;
}

}  // namespace

std::optional<double> parse_quantity(std::string_view text, std::string_view unit) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  std::string s(text);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || !std::isfinite(v)) return std::nullopt;
  std::string raw{std::string_view(end)};
  while (!raw.empty() && raw.front() == ' ') raw.erase(0, 1);
  std::string suffix = lower(raw);
  if (suffix.empty()) return v;
  if (unit == "bytes") {
    static const std::pair<const char*, double> units[] = {
        {"b", 1.0},           {"k", 1024.0},         {"kb", 1024.0},         {"kib", 1024.0},
        {"m", 1048576.0},     {"mb", 1048576.0},     {"mib", 1048576.0},     {"g", 1073741824.0},
        {"gb", 1073741824.0}, {"gib", 1073741824.0}, {"t", 1099511627776.0}, {"tb", 1099511627776.0},
        {"tib", 1099511627776.0}};
    for (const auto& [u, f] : units)
      if (suffix == u) return v * f;
  } else if (unit == "rows") {
    if (raw == "k" || raw == "K") return v * 1e3;
    if (raw == "M") return v * 1e6;
    if (raw == "G" || raw == "B") return v * 1e9;
  } else if (unit == "ms") {
    if (suffix == "ms") return v;
    if (suffix == "s") return v * 1000;
    if (suffix == "min") return v * 60'000;
    if (suffix == "h") return v * 3'600'000;
  } else if (unit == "percent") {
    if (suffix == "%") return v;
  }
  return std::nullopt;
}

bool set_severity(Config& config, std::string_view rule, std::string_view level, std::string& error) {
  if (!check_rule_selector(rule, error)) return false;
  auto sev = severity_from_string(level);
  if (!sev) {
    error = "unknown severity `" + std::string(level) + "` for `" + std::string(rule) + "` (error, warning or info)";
    return false;
  }
  if (!find_rule_doc(rule)) {  // ALL or a code prefix: every rule it selects
    for (const RuleDoc* d : all_rule_docs())
      for (const auto& [name, code] : reported_names(*d))
        if (rule == "ALL" || prefix_selects(rule, code)) config.severity[name] = *sev;
    return true;
  }
  for (const auto& name : names_for_selector(rule)) config.severity[name] = *sev;
  return true;
}

bool set_threshold(Config& config, std::string_view key, std::string_view value, std::string& error) {
  std::size_t dot = key.rfind('.');
  if (dot != std::string_view::npos) {
    std::string_view rule = key.substr(0, dot), option = key.substr(dot + 1);
    if (!check_rule_selector(rule, error)) return false;
    const RuleDoc* doc = find_rule_doc(rule);
    if (!doc) {  // a prefix or ALL: options belong to one rule
      error = "`" + std::string(rule) + "` is not one rule; options are set per rule name or code";
      return false;
    }
    const Threshold* t = find_threshold(*doc, option);
    if (!t) {
      error = "unknown option `" + std::string(option) + "` for rule `" + doc->name + "` (" + known_options(*doc) + ")";
      return false;
    }
    auto v = parse_quantity(value, t->unit);
    if (!v) {
      error = "`" + std::string(key) + "`: `" + std::string(value) + "` is not a number" +
              (t->unit.empty() ? "" : " of " + t->unit);
      return false;
    }
    config.thresholds[doc->name][t->name] = *v;
    return true;
  }
  const Threshold* t = nullptr;
  for (const RuleDoc* doc : all_rule_docs())
    if (!t) t = find_threshold(*doc, key);
  if (!t) {
    std::string all;
    for (const RuleDoc* doc : all_rule_docs())
      for (const auto& th : doc->thresholds)
        if (all.find(th.name) == std::string::npos) all += (all.empty() ? "" : ", ") + th.name;
    error = "unknown option `" + std::string(key) + "` (no rule has it; options: " + (all.empty() ? "none" : all) + ")";
    return false;
  }
  auto v = parse_quantity(value, t->unit);
  if (!v) {
    error = "`" + std::string(key) + "`: `" + std::string(value) + "` is not a number" + (t->unit.empty() ? "" : " of " + t->unit);
    return false;
  }
  config.global_thresholds[t->name] = *v;
  return true;
}

namespace {

class Reader {
 public:
  Reader(const fs::path& file, ConfigError& error) : file_(file), error_(error) {}

  bool fail(const toml::source_region& at, std::string message) {
    error_.file = file_.string();
    error_.line = at.begin.line;
    error_.column = at.begin.column;
    error_.message = std::move(message);
    return false;
  }

  bool strings(const toml::node& node, std::string_view key, std::vector<std::string>& out) {
    const toml::array* arr = node.as_array();
    if (!arr) return fail(node.source(), "`" + std::string(key) + "` must be an array of strings");
    for (const auto& item : *arr) {
      auto s = item.value<std::string>();
      if (!item.is_string() || !s) return fail(item.source(), "`" + std::string(key) + "` must be an array of strings");
      out.push_back(*s);
    }
    return true;
  }

  bool rules(const toml::node& node, std::string_view key, std::set<std::string>& out) {
    std::vector<std::string> names;
    if (!strings(node, key, names)) return false;
    const toml::array& arr = *node.as_array();
    for (std::size_t i = 0; i < names.size(); ++i) {
      std::string err;
      if (!check_rule_selector(names[i], err)) return fail(arr[i].source(), err + " in `" + std::string(key) + "`");
      out.insert(names[i]);
    }
    return true;
  }

  // A threshold value: a number, or a string with a unit.
  static std::optional<std::string> number_text(const toml::node& v) {
    if (auto i = v.as_integer()) return std::to_string(i->get());
    if (auto f = v.as_floating_point()) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", f->get());
      return std::string(buf);
    }
    if (auto s = v.as_string()) return s->get();
    return std::nullopt;
  }

  bool read(const toml::table& t, ProjectConfig& pc) {
    for (auto&& [k, v] : t) {
      std::string key(k.str());
      if (key == "select") {
        if (!rules(v, key, pc.config.select)) return false;
      } else if (key == "ignore") {
        if (!rules(v, key, pc.config.ignore)) return false;
      } else if (key == "extend-select") {
        // ruff's key: rules added to this file's `select`. With no `select` every rule is on
        // already, so it changes nothing (as --extend-select).
        if (!rules(v, key, extend_select_)) return false;
      } else if (key == "include") {
        if (!strings(v, key, pc.include)) return false;
      } else if (key == "exclude") {
        if (!strings(v, key, pc.exclude)) return false;
      } else if (key == "severity") {
        const toml::table* sev = v.as_table();
        if (!sev) return fail(v.source(), "`severity` must be a table of rule = \"error\" | \"warning\" | \"info\"");
        for (auto&& [rk, rv] : *sev) {
          std::string err;
          auto level = rv.value<std::string>();
          if (!rv.is_string()) return fail(rv.source(), "`severity." + std::string(rk.str()) + "` must be a string");
          if (!set_severity(pc.config, rk.str(), *level, err)) return fail(rk.source(), err + " in `severity`");
        }
      } else if (key == "thresholds") {
        const toml::table* th = v.as_table();
        if (!th) return fail(v.source(), "`thresholds` must be a table of option = value");
        for (auto&& [ok, ov] : *th) {
          auto text = number_text(ov);
          std::string err;
          if (!text) return fail(ov.source(), "`thresholds." + std::string(ok.str()) + "` must be a number");
          if (!set_threshold(pc.config, ok.str(), *text, err)) return fail(ok.source(), err);
        }
      } else if (key == "rules") {
        const toml::table* rs = v.as_table();
        if (!rs) return fail(v.source(), "`rules` must be a table of [rules.<name>] tables");
        for (auto&& [rk, rv] : *rs) {
          std::string err;
          std::string rule(rk.str());
          if (!check_rule_selector(rule, err)) return fail(rk.source(), err + " in `rules`");
          const toml::table* opts = rv.as_table();
          if (!opts) return fail(rv.source(), "`rules." + rule + "` must be a table of option = value");
          for (auto&& [ok, ov] : *opts) {
            auto text = number_text(ov);
            std::string full = rule + "." + std::string(ok.str());
            if (!text) return fail(ov.source(), "`rules." + full + "` must be a number");
            if (!set_threshold(pc.config, full, *text, err)) return fail(ok.source(), err);
          }
        }
      } else if (key == "max-input-size") {
        auto text = number_text(v);
        auto bytes = text ? parse_quantity(*text, "bytes") : std::nullopt;
        if (!bytes || *bytes < 1)
          return fail(v.source(), "`max-input-size` must be a size such as \"2GiB\" or \"500MB\"");
        pc.config.max_input_bytes = *bytes;
      } else if (key == "per-file-ignores") {
        const toml::table* pf = v.as_table();
        if (!pf) return fail(v.source(), "`per-file-ignores` must be a table of \"glob\" = [rules]");
        for (auto&& [gk, gv] : *pf) {
          PerFileIgnore p;
          p.glob = std::string(gk.str());
          std::set<std::string> names;
          if (!rules(gv, "per-file-ignores." + p.glob, names)) return false;
          p.rules.assign(names.begin(), names.end());
          pc.per_file_ignores.push_back(std::move(p));
        }
      } else {
        return fail(k.source(), "unknown key `" + key +
                                    "` (known: select, extend-select, ignore, include, exclude, severity, "
                                    "thresholds, rules, per-file-ignores, max-input-size)");
      }
    }
    if (!pc.config.select.empty()) pc.config.select.insert(extend_select_.begin(), extend_select_.end());
    return true;
  }

 private:
  std::set<std::string> extend_select_;
  fs::path file_;
  ConfigError& error_;
};

// Once per file and process: an auto-discovered config file that is not read.
void notice_skipped(const fs::path& file, const std::string& why) {
  static std::mutex m;
  static std::set<std::string> said;
  std::lock_guard<std::mutex> lock(m);
  if (!said.insert(file.string()).second) return;
  std::cerr << "planlint: note: " << file.string() << ": " << why
            << "; skipped (the config file of a parent folder, or the defaults, apply)\n";
}

// Whether `pyproject` has a [tool.planlint] table. Read whole like a config file (regular files
// only, at most 16 MiB): one endless line must not be read into memory to look for a header.
bool has_planlint_table(const fs::path& pyproject) {
  std::string why;
  auto text = read_regular_file(pyproject.string(), why);
  if (!text) {
    notice_skipped(pyproject, why);
    return false;
  }
  std::string_view rest(*text);
  while (!rest.empty()) {
    std::size_t eol = rest.find('\n');
    std::string_view line = rest.substr(0, eol);
    rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
    std::size_t i = line.find_first_not_of(" \t");
    if (i == std::string_view::npos) continue;
    line.remove_prefix(i);
    if (line.substr(0, 15) == "[tool.planlint]" || line.substr(0, 15) == "[tool.planlint.") return true;
  }
  return false;
}

// Whether `file` is there to be used as a config file: a regular file (links followed). Anything
// else by that name (a FIFO, a device, a directory, a socket) is skipped with a notice.
bool config_candidate(const fs::path& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return false;  // none (or a dangling link)
  if (S_ISREG(st.st_mode)) return true;
  notice_skipped(file, "is " + file_type_name(st.st_mode) + ", not a regular file");
  return false;
}

}  // namespace

std::optional<ProjectConfig> parse_config_text(std::string_view text, const fs::path& file, bool pyproject,
                                               ConfigError& error) {
  ProjectConfig pc;
  pc.file = file;
  pc.root = file.parent_path();
  toml::table doc;
  if (auto [line, column] = overdeep_line(text); line) {
    error.file = file.string();
    error.line = line;
    error.column = column;
    error.message = "invalid TOML: more than " + std::to_string(kMaxDotsPerLine) +
                    " dots on one line (a key nested that deep is not a planlint setting)";
    return std::nullopt;
  }
  try {
    doc = toml::parse(text, file.string());
  } catch (const toml::parse_error& e) {
    error.file = file.string();
    error.line = e.source().begin.line;
    error.column = e.source().begin.column;
    std::string what(e.description());
    if (what.rfind("Error while ", 0) == 0) what.erase(0, 12);
    error.message = "invalid TOML: " + what;
    return std::nullopt;
  }
  const toml::table* t = &doc;
  if (pyproject) {
    t = doc["tool"]["planlint"].as_table();
    if (!t) {
      error.file = file.string();
      error.message = "no [tool.planlint] table";
      return std::nullopt;
    }
  }
  Reader reader(file, error);
  if (!reader.read(*t, pc)) return std::nullopt;
  return pc;
}

std::optional<ProjectConfig> load_config_file(const fs::path& file, ConfigError& error) {
  // Regular files only, at most 16 MiB (lint/core/input.hpp): never /dev/zero, never a FIFO.
  std::string why;
  auto text = read_regular_file(file.string(), why);
  if (!text) {
    error.file = file.string();
    error.message = "cannot read the config file (" + why + ")";
    return std::nullopt;
  }
  return parse_config_text(*text, file, file.filename() == "pyproject.toml", error);
}

std::optional<fs::path> config_file_in(const fs::path& dir) {
  fs::path own = dir / ".planlint.toml";
  if (config_candidate(own)) return own;
  fs::path py = dir / "pyproject.toml";
  if (config_candidate(py) && has_planlint_table(py)) return py;
  return std::nullopt;
}

fs::path search_start(const fs::path& dir) {
  std::error_code ec;
  fs::path d = fs::absolute(dir.empty() ? fs::path(".") : dir, ec).lexically_normal();
  if (ec) return {};
  if (!d.has_filename() && d.has_relative_path()) d = d.parent_path();  // "/a/b/" -> "/a/b"
  return d;
}

std::optional<fs::path> find_config_file(const fs::path& dir) {
  fs::path d = search_start(dir);
  if (d.empty()) return std::nullopt;
  while (true) {
    if (auto file = config_file_in(d)) return file;
    if (!d.has_relative_path() || d.parent_path() == d) return std::nullopt;
    d = d.parent_path();
  }
}

std::string relative_generic(const fs::path& file, const fs::path& base) {
  std::error_code ec;
  fs::path a = fs::absolute(file, ec).lexically_normal();
  fs::path b = fs::absolute(base, ec).lexically_normal();
  fs::path rel = a.lexically_relative(b);
  if (rel.empty() || *rel.begin() == "..") return file.generic_string();
  return rel.generic_string();
}

Config config_for_path(const ProjectConfig& project, const fs::path& file) {
  Config c = project.config;
  if (project.per_file_ignores.empty()) return c;
  std::string rel = relative_generic(file, project.root.empty() ? fs::current_path() : project.root);
  for (const auto& p : project.per_file_ignores)
    if (glob_match(p.glob, rel))
      for (const auto& r : p.rules) c.ignore.insert(r);
  return c;
}

std::optional<Config> config_for_input(const std::string& path, bool use_files, ConfigError& error) {
  if (!use_files || path == "-") return Config{};
  auto abs = std::filesystem::absolute(path);
  auto file = find_config_file(abs.parent_path());
  if (!file) return Config{};
  auto project = load_config_file(*file, error);
  if (!project) return std::nullopt;
  return config_for_path(*project, abs);
}

}  // namespace planlint
