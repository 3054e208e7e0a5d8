// planlint._core: the C++ engine for the Python package (python/planlint). The same reading,
// configuration and rules as `planlint check` (lint/check.hpp, lint/config_file.hpp); the GIL is
// released while a plan is read and checked.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lint/catalog/all_rules.hpp"
#include "lint/engine/check.hpp"
#include "lint/core/config_file.hpp"
#include "lint/core/settings.hpp"
#include "lint/core/input.hpp"
#include "lint/core/plan_json.hpp"
#include "lint/output/output.hpp"
#include "parser/eventlog/eventlog.hpp"
#include "parser/registry/parse.hpp"

namespace py = pybind11;
using namespace planlint;

namespace {

// Settings from Python: the config file choice plus overrides, as the CLI's options.
struct PySettings {
  std::string config_file;            // "" : search (when use_files)
  bool use_files = true;
  std::vector<std::string> select, ignore;
  std::map<std::string, std::string> severity, set;
  std::optional<long long> execution;
};

Config resolve(const PySettings& s, const std::string& path) {
  ConfigError ce;
  Config base;
  if (!s.config_file.empty()) {
    auto pc = load_config_file(s.config_file, ce);
    if (!pc) throw py::value_error(ce.str());
    base = config_for_path(*pc, path == "-" ? std::filesystem::path("stdin") : std::filesystem::path(path));
  } else {
    auto c = config_for_input(path, s.use_files, ce);
    if (!c) throw py::value_error(ce.str());
    base = std::move(*c);
  }
  Settings over;
  std::string err;
  for (const auto& r : s.select)
    if (!settings_select(over, r, err)) throw py::value_error("select: " + err);
  for (const auto& r : s.ignore)
    if (!settings_ignore(over, r, err)) throw py::value_error("ignore: " + err);
  for (const auto& [k, v] : s.severity)
    if (!settings_severity(over, k, v, err)) throw py::value_error("severity: " + err);
  for (const auto& [k, v] : s.set)
    if (!settings_threshold(over, k, v, err)) throw py::value_error("set: " + err);
  Config c = apply_settings(std::move(base), over);
  if (s.execution) c.execution = s.execution;
  return c;
}

py::dict finding_dict(const Diagnostic& d, const std::string& path) {
  py::dict f;
  f["rule"] = d.rule;
  f["code"] = d.code;
  f["severity"] = std::string(to_string(d.severity));
  f["message"] = d.message;
  if (d.plan_label.empty()) {
    f["execution"] = py::none();
  } else {
    py::dict e;
    e["id"] = *d.plan_label.execution;
    e["description"] = d.plan_label.description;
    f["execution"] = e;
  }
  f["operator"] = d.operator_name;
  f["operator_id"] = d.operator_id;
  py::list ev;
  for (const auto& e : d.evidence) {
    py::dict j;
    j["name"] = e.name;
    j["value"] = evidence_value(e);
    j["number"] = e.number ? py::cast(*e.number) : py::none();
    j["unit"] = e.unit;
    ev.append(j);
  }
  f["evidence"] = ev;
  f["fix"] = d.fix;
  f["path"] = path;
  f["line"] = d.range.line;
  f["column"] = d.range.column;
  f["end_line"] = d.range.end_line;
  f["end_column"] = d.range.end_column;
  f["plan_index"] = d.plan_index;
  f["impact"] = d.impact ? py::cast(*d.impact) : py::none();
  f["impact_text"] = d.impact_text;
  return f;
}

py::dict report_dict(const FileReport& r) {
  py::dict out;
  out["path"] = r.path;
  out["format"] = std::string(to_string(r.format));
  out["error"] = r.error;
  out["suppressed"] = r.suppressed;
  py::list fs;
  for (const auto& d : r.diagnostics) fs.append(finding_dict(d, r.path));
  out["findings"] = fs;
  return out;
}

// check_text: a plan given as text. `display` names it (and places its config search).
py::dict check_text_py(const std::string& text, const std::string& display, const PySettings& s) {
  Config c = resolve(s, display);  // may raise: before the GIL is released
  FileReport r;
  {
    py::gil_scoped_release nogil;
    r = check_text(text, display, c);
  }
  return report_dict(r);
}

// A file, as `planlint check FILE` reads it (event logs streamed).
py::dict check_path_py(const std::string& path, const PySettings& s) {
  Config c = resolve(s, path);
  FileReport r;
  {
    py::gil_scoped_release nogil;
    r = check_input(path, c, path);
  }
  return report_dict(r);
}

// The model as `planlint parse --format json` prints it (a JSON string).
std::string parse_py(const std::optional<std::string>& text, const std::optional<std::string>& path,
                     const std::string& display) {
  std::string out;
  std::string error;
  {
    py::gil_scoped_release nogil;
    ParseResult pr;
    if (path) {
      if (is_event_log_path(*path)) {
        pr = read_event_log(*path, *path, {});
      } else {
        auto t = read_input(*path, error);
        if (t) pr = parse_input(std::make_shared<const std::string>(std::move(*t)), *path);  // plans view it
      }
    } else {
      pr = parse_input(*text, display);
    }
    if (error.empty()) out = dump_json(parse_result_json(pr));
  }
  if (!error.empty()) throw py::value_error(error);
  return out;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  planlint::register_all_rules();
  m.doc() = "planlint's C++ engine (use the `planlint` package, not this module)";
  py::class_<PySettings>(m, "Settings")
      .def(py::init<>())
      .def_readwrite("config_file", &PySettings::config_file)
      .def_readwrite("use_files", &PySettings::use_files)
      .def_readwrite("select", &PySettings::select)
      .def_readwrite("ignore", &PySettings::ignore)
      .def_readwrite("severity", &PySettings::severity)
      .def_readwrite("set", &PySettings::set)
      .def_readwrite("execution", &PySettings::execution);
  m.def("check_text", &check_text_py, py::arg("text"), py::arg("display"), py::arg("settings"));
  m.def("check_path", &check_path_py, py::arg("path"), py::arg("settings"));
  m.def("parse", &parse_py, py::arg("text"), py::arg("path"), py::arg("display"));
  m.attr("__version__") = PLANLINT_VERSION;
}
