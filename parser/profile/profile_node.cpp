// Query Profile reader, the per-entry part: tags, metrics, metadata fields, Photon explanations.
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "parser/common/classify.hpp"
#include "parser/expression/expression.hpp"
#include "parser/profile/profile_internal.hpp"
#include "support/strings.hpp"

namespace planlint::profile {

namespace {

bool has_lower(std::string_view s) {
  for (char c : s)
    if (std::islower(static_cast<unsigned char>(c))) return true;
  return false;
}
bool has_upper(std::string_view s) {
  for (char c : s)
    if (std::isupper(static_cast<unsigned char>(c))) return true;
  return false;
}

std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> words;
  std::string cur;
  for (char c : s) {
    if (c == '_' || c == ' ' || c == '-' || c == '.') {
      if (!cur.empty()) words.push_back(to_lower(cur)), cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) words.push_back(to_lower(cur));
  return words;
}

// "photon" + base words -> printed name, using the shared vocabulary's spelling when it knows the
// operator ("topk" -> "TopK") and plain CamelCase otherwise.
std::string camel_name(bool photon, const std::vector<std::string>& words) {
  std::string joined;
  for (const auto& w : words) joined += w;
  std::string name = photon ? "Photon" : "";
  if (std::string_view canon = canonical_operator_name(joined); !canon.empty()) return name + std::string(canon);
  for (const auto& w : words) {
    if (w.empty()) continue;
    name += static_cast<char>(std::toupper(static_cast<unsigned char>(w[0])));
    name += w.substr(1);
  }
  return name;
}

bool is_expression_key(std::string_view key) {
  return key == "FILTERS" || key == "PARTITION_FILTERS" || key == "CONDITION" || key == "LEFT_KEYS" ||
         key == "RIGHT_KEYS";
}

// Profiles of some exports spell keys in snake_case (`node_id` for `nodeId`).
std::string snake_case(std::string_view camel_key) {
  std::string snake;
  for (char c : camel_key) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      snake += '_';
      snake += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      snake += c;
    }
  }
  return snake;
}

}  // namespace

const json* member(const json& object, std::string_view camel_key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(camel_key);
  if (it == object.end()) {
    const std::string snake = snake_case(camel_key);
    if (snake != camel_key) it = object.find(snake);
  }
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

std::optional<double> number(const json* v) {
  if (!v) return std::nullopt;
  if (v->is_number()) return v->get<double>();
  if (v->is_string()) {
    const std::string& s = v->get_ref<const std::string&>();
    if (s.empty() || s.size() > 64) return std::nullopt;
    char* end = nullptr;
    double d = std::strtod(s.c_str(), &end);
    if (end == s.c_str() + s.size()) return d;
  }
  return std::nullopt;
}

std::string text(const json* v) {
  if (!v) return {};
  if (v->is_string()) return v->get<std::string>();
  if (v->is_boolean()) return v->get<bool>() ? "true" : "false";
  if (v->is_number_unsigned()) return std::to_string(v->get<std::uint64_t>());
  if (v->is_number_integer()) return std::to_string(v->get<std::int64_t>());
  if (v->is_number_float()) return v->dump();  // a scalar: no recursion
  return {};
}

std::optional<LiteRef> member(const LiteRef& object, std::string_view camel_key) {
  if (!object.is_object()) return std::nullopt;
  std::optional<LiteRef> it = object.find(camel_key);
  if (!it) {
    std::string snake = snake_case(camel_key);
    if (snake != camel_key) it = object.find(snake);
  }
  if (!it || it->is_null()) return std::nullopt;
  return it;
}

std::optional<double> number(const LiteRef* v) {
  if (!v) return std::nullopt;
  if (v->is_number()) {
    switch (v->num()) {
      case NumKind::Unsigned: return static_cast<double>(unsigned_value(v->str()));
      case NumKind::Integer: return static_cast<double>(integer_value(v->str()));
      case NumKind::Float: return float_value(v->str());
    }
  }
  if (v->is_string()) {
    // As number(const json*): strtod over the whole text (a NUL in it ends strtod early).
    std::string_view s = v->str();
    if (s.empty() || s.size() > 64) return std::nullopt;
    char buf[65];
    std::memcpy(buf, s.data(), s.size());
    buf[s.size()] = '\0';
    char* end = nullptr;
    double d = std::strtod(buf, &end);
    if (end == buf + s.size()) return d;
  }
  return std::nullopt;
}

std::string text(const LiteRef* v) {
  if (!v) return {};
  if (v->is_string()) return std::string(v->str());
  if (v->is_boolean()) return v->boolean() ? "true" : "false";
  if (v->is_number()) {
    switch (v->num()) {
      case NumKind::Unsigned: return std::to_string(unsigned_value(v->str()));
      case NumKind::Integer: return std::to_string(integer_value(v->str()));
      case NumKind::Float: return json(float_value(v->str())).dump();  // nlohmann's spelling
    }
  }
  return {};
}

TagName tag_and_name(std::string_view raw_tag, std::string_view display_name) {
  TagName out;
  std::string_view tag = trim(raw_tag);
  if (tag.empty()) {
    for (char c : display_name)
      if (c != ' ') out.name += c;
    return out;
  }
  std::string_view family;
  std::string_view cls = tag;
  if (auto dot = tag.rfind('.'); dot != std::string_view::npos) {
    family = tag.substr(0, dot);
    cls = tag.substr(dot + 1);
    out.tag = to_upper(family) + "." + std::string(cls);
  } else {
    out.tag = to_upper(tag);
  }

  if (cls.find('_') == std::string_view::npos && has_lower(cls) && has_upper(cls)) {
    // A Spark class name already: PhotonShuffleExchangeSink, ShuffleQueryStage, PhotonTopk.
    std::string_view base = cls;
    bool photon = base.starts_with("Photon");
    if (photon) base.remove_prefix(6);
    if (base.ends_with("Exec")) base.remove_suffix(4);
    std::string_view canon = canonical_operator_name(base);
    out.name = (photon ? "Photon" : "") + std::string(canon.empty() ? base : canon);
    return out;
  }
  // UPPER_SNAKE (or lower_snake): PHOTON_TOPK_EXEC, UNKNOWN_DATA_SOURCE_SCAN_EXEC.
  std::vector<std::string> words = split_words(cls);
  if (family.empty())
    while (words.size() > 1 && words.front() == "unknown") words.erase(words.begin());
  if (words.size() > 1 && words.back() == "exec") words.pop_back();
  bool photon = words.size() > 1 && words.front() == "photon";
  if (photon) words.erase(words.begin());
  out.name = camel_name(photon, words);
  return out;
}

namespace {

// names(text(v)) without the std::string when the value is a string (the usual case).
// text(v) as a view: of the value itself when it is a string, else of `owned`.
std::string_view string_of(const json* v, std::string& owned) {
  if (v && v->is_string()) return v->get_ref<const std::string&>();
  owned = text(v);
  return owned;
}
std::string_view string_of(const std::optional<LiteRef>& v, std::string& owned) {
  if (v && v->is_string()) return v->str();
  owned = text(v);
  return owned;
}

Text name_of(MetricNames& names, const json* v) {
  if (v && v->is_string()) return names(v->get_ref<const std::string&>());
  return names(text(v));
}
Text name_of(MetricNames& names, const std::optional<LiteRef>& v) {
  if (v && v->is_string()) return names(v->str());
  return names(text(v));
}

}  // namespace

template <class J>
Metric read_metric(MetricNames& names, const J& m) {
  Metric out;
  out.label = name_of(names, member(m, "label"));
  if (out.label.empty()) out.label = name_of(names, member(m, "name"));
  out.key = name_of(names, member(m, "key"));
  if (out.key == "UNKNOWN_KEY") out.key = Text();
  out.value = number(member(m, "value"));
  // The type compared in upper case, as to_upper(text(...)) would, without copying a string value.
  auto type_v = member(m, "metricType");
  std::string type_owned;
  std::string_view type = string_of(type_v, type_owned);
  auto starts = [&type](std::string_view p) {
    if (type.size() < p.size()) return false;
    for (std::size_t i = 0; i < p.size(); ++i)
      if (ascii_upper(type[i]) != p[i]) return false;
    return true;
  };
  auto ends = [&type](std::string_view p) {
    if (type.size() < p.size()) return false;
    for (std::size_t i = 0; i < p.size(); ++i)
      if (ascii_upper(type[type.size() - p.size() + i]) != p[i]) return false;
    return true;
  };
  if (starts("TIMING")) {
    out.unit = MetricUnit::Millis;
    if (ends("_NS") && out.value) out.value = *out.value / 1e6;
  } else if (starts("SIZE")) {
    out.unit = MetricUnit::Bytes;
  }
  auto hidden = member(m, "hidden");
  out.hidden = hidden && hidden->is_boolean() && as_bool(*hidden);
  return out;
}

template <class J>
Field read_field(TextStore& st, MetricNames& names, const J& entry) {
  Field f;
  f.key = names(text(member(entry, "key")));
  if (f.key.empty()) f.key = names(text(member(entry, "label")));
  auto value = member(entry, "value");
  auto values = member(entry, "values");
  bool list = values && values->is_array() && (!values->empty() || !value);
  if (list) {
    f.is_list = true;
    std::vector<std::string> items;
    items.reserve(values->size());
    for (const auto& item : *values) items.push_back(text(&item));
    f.count = items.size();
    f.set_items(st, items);
  } else {
    // A string value as it lies in the input (kept as a view of it when the store views the input).
    std::string owned;
    f.value = st.keep(string_of(value, owned));
  }
  if (is_expression_key(f.key)) {
    if (f.is_list) {
      f.exprs.reserve(f.item_spans.size());
      for (std::string_view item : f.items()) f.exprs.push_back(parse_expression(st, Text::stable(item), ExprDialect::Sql));
    } else if (!f.value.empty()) {
      f.exprs.push_back(parse_expression(st, f.value, ExprDialect::Sql));
    }
  }
  return f;
}

template Metric read_metric<json>(MetricNames&, const json&);
template Metric read_metric<LiteRef>(MetricNames&, const LiteRef&);
template Field read_field<json>(TextStore&, MetricNames&, const json&);
template Field read_field<LiteRef>(TextStore&, MetricNames&, const LiteRef&);

}  // namespace planlint::profile
