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
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "lint/output/output.hpp"

namespace planlint {

using ordered_json = nlohmann::ordered_json;

// Not in an unnamed namespace: JsonReportStream::State (declared in the header) holds one.
namespace json_out {

// The report written as it is read, file by file, byte for byte what dumping one DOM of it with
// nlohmann (indent 2, UTF-8 kept, invalid UTF-8 replaced) wrote: no tree of every finding is built
// first (that cost more than reading the plans of 10,000 small files). Strings of printable ASCII
// without `"` or `\` are written as they are; any other string, and every floating-point number,
// goes through nlohmann's own serializer, so escapes, UTF-8 checks and number formats stay its.
class JsonWriter {
  // Bytes written as they are inside a JSON string: printable ASCII but `"` and `\\`.
  static constexpr std::array<bool, 256> kPlain = [] {
    std::array<bool, 256> t{};
    for (int c = 0x20; c < 0x7f; ++c) t[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
    return t;
  }();

 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  void string(std::string_view s) {
    if (!plain(s)) {
      out_ += ordered_json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      return;
    }
    out_ += '"';
    out_ += s;
    out_ += '"';
  }
  void number(double v) {
    // A whole number below 10^15 is what nlohmann writes as its digits and ".0" (the shortest
    // digits that read back as v are its own; its 15-digit limit for fixed notation): written
    // without building a value. -0.0, fractions and larger numbers go through nlohmann.
    if (std::fabs(v) < 1e15 && v == std::trunc(v) && !(v == 0 && std::signbit(v))) {
      char buf[24];
      auto [end, ec] = std::to_chars(buf, buf + sizeof buf, static_cast<long long>(v));
      out_.append(buf, static_cast<std::size_t>(end - buf));
      out_ += ".0";
      return;
    }
    out_ += ordered_json(v).dump();
  }
  void integer(long long v) { out_ += std::to_string(v); }
  void integer(std::uint64_t v) { out_ += std::to_string(v); }

  // `{` / `[`; members and elements each start with key() / item(); close() writes `}` / `]`
  // (`{}` / `[]` when nothing was added).
  void open(char bracket) {
    out_ += bracket;
    open_.push_back({bracket, false});
  }
  void key(std::string_view k) {
    // Keys are this file's own ASCII words: the `,` after a member before, the newline and the
    // indentation, and `"key": `, in one append.
    const std::size_t indent = 2 * open_.size();
    char buf[96];
    if (indent + 1 <= kIndent.size() && k.size() + indent + 6 <= sizeof buf) {
      std::size_t n = 0;
      if (open_.back().second) buf[n++] = ',';
      open_.back().second = true;
      std::memcpy(buf + n, kIndent.data(), indent + 1);  // "\n" and the indentation
      n += indent + 1;
      buf[n++] = '"';
      std::memcpy(buf + n, k.data(), k.size());
      n += k.size();
      std::memcpy(buf + n, "\": ", 3);
      out_.append(buf, n + 3);
      return;
    }
    next();
    out_ += '"';
    out_ += k;
    out_ += "\": ";
  }
  void item() { next(); }
  void close() {
    auto [bracket, any] = open_.back();
    open_.pop_back();
    if (any) newline();
    out_ += bracket == '{' ? '}' : ']';
  }

 private:
  void next() {
    if (open_.back().second) out_ += ',';
    open_.back().second = true;
    newline();
  }
  // A newline and the indentation (reports nest 6 deep).
  static constexpr std::string_view kIndent = "\n                                ";
  void newline() {
    // In one append.
    const std::size_t n = 1 + 2 * open_.size();
    if (n <= kIndent.size()) {
      out_.append(kIndent.data(), n);
      return;
    }
    out_ += '\n';
    out_.append(n - 1, ' ');
  }

  // Every byte of `s` is kPlain: 16 bytes at a time where SSE2 is there (a block with a byte below
  // 0x20, at or above 0x7f, `"` or `\\` stops it: the table then finds that byte), the rest one by
  // one.
  static bool plain(std::string_view s) {
    std::size_t i = 0;
#if defined(__SSE2__)
    using s16 = signed char __attribute__((vector_size(16)));
    using c16 = char __attribute__((vector_size(16)));
    const s16 space = s16{} + 0x20, del = s16{} + 0x7f, quote = s16{} + '"', backslash = s16{} + '\\';
    for (; i + 16 <= s.size(); i += 16) {
      s16 x;
      std::memcpy(&x, s.data() + i, 16);
      // Signed lanes: 0x80 and above are negative, so below 0x20 too.
      const s16 odd = (x < space) | (x == del) | (x == quote) | (x == backslash);
      if (__builtin_ia32_pmovmskb128(reinterpret_cast<c16>(odd)) != 0) break;
    }
#endif
    for (; i < s.size(); ++i)
      if (!kPlain[static_cast<unsigned char>(s[i])]) return false;
    return true;
  }

  std::string& out_;
  std::vector<std::pair<char, bool>> open_;  // bracket, has members
};

}  // namespace json_out

namespace {

using json_out::JsonWriter;

void write_evidence(JsonWriter& w, const Evidence& e) {
  w.open('{');
  w.key("name");
  w.string(e.name);
  w.key("value");
  if (!e.value.empty()) w.string(e.value);  // (evidence_value would copy it)
  else w.string(evidence_value(e));
  if (e.number) {
    w.key("number");
    w.number(*e.number);
  }
  if (!e.unit.empty()) {
    w.key("unit");
    w.string(e.unit);
  }
  w.close();
}

// The shape of diagnostic_to_json (lint/core/report.cpp).
void write_diagnostic(JsonWriter& w, const Diagnostic& d) {
  w.open('{');
  w.key("rule");
  w.string(d.rule);
  w.key("code");
  w.string(d.code);
  w.key("severity");
  w.string(to_string(d.severity));
  w.key("message");
  w.string(d.message);
  if (!d.plan_label.empty()) {
    w.key("execution");
    w.open('{');
    w.key("id");
    w.integer(static_cast<long long>(*d.plan_label.execution));
    w.key("description");
    w.string(d.plan_label.description);
    w.close();
  }
  w.key("line");
  w.integer(std::uint64_t{d.range.line});
  w.key("column");
  w.integer(std::uint64_t{d.range.column});
  w.key("operator_id");
  w.string(d.operator_id);
  w.key("operator");
  w.string(d.operator_name);
  w.key("evidence");
  w.open('[');
  for (const auto& e : d.evidence) {
    w.item();
    write_evidence(w, e);
  }
  w.close();
  w.key("fix");
  w.string(d.fix);
  w.close();
}

// The shape of message_to_json (lint/core/report.cpp).
void write_message(JsonWriter& w, const ParseMessage& m) {
  w.open('{');
  w.key("severity");
  w.string(to_string(m.severity));
  w.key("message");
  w.string(m.message);
  w.key("line");
  w.integer(std::uint64_t{m.loc.line});
  w.key("column");
  w.integer(std::uint64_t{m.loc.column});
  w.close();
}

}  // namespace

struct JsonReportStream::State {
  explicit State(std::ostream& o) : out(o), w(text) {
    text.reserve(1 << 14);  // a file's report, reused for the next
    w.open('{');
    w.key("files");
    w.open('[');
  }
  std::ostream& out;
  std::string text;
  JsonWriter w;
};

JsonReportStream::JsonReportStream(std::ostream& out) : s_(std::make_unique<State>(out)) {}
JsonReportStream::~JsonReportStream() = default;

void JsonReportStream::file(const FileReport& f) {
  JsonWriter& w = s_->w;
  std::string& text = s_->text;
  w.item();
  w.open('{');
  w.key("path");
  w.string(f.path);
  w.key("format");
  w.string(to_string(f.format));
  if (!f.error.empty()) {
    w.key("error");
    w.string(f.error);
  }
  w.key("diagnostics");
  w.open('[');
  for (const auto& d : f.diagnostics) {
    w.item();
    write_diagnostic(w, d);
  }
  w.close();
  if (!f.messages.empty()) {
    w.key("messages");
    w.open('[');
    for (const auto& m : f.messages) {
      w.item();
      write_message(w, m);
    }
    w.close();
  }
  w.close();
  s_->out.write(text.data(), static_cast<std::streamsize>(text.size()));  // a file at a time
  text.clear();
}

void JsonReportStream::end() {
  s_->w.close();
  s_->w.close();
  s_->text += '\n';
  s_->out.write(s_->text.data(), static_cast<std::streamsize>(s_->text.size()));
  s_->text.clear();
}

void write_json(std::ostream& out, const std::vector<FileReport>& files) {
  JsonReportStream json(out);
  for (const auto& f : files) json.file(f);
  json.end();
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
