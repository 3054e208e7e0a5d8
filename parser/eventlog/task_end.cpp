// SparkListenerTaskEnd lines read without a JSON document (task_end.hpp): one field collector,
// driven either by a one-pass scanner (fast path) or by nlohmann's SAX parser (reference and
// fallback).
#include "parser/eventlog/task_end.hpp"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

#include "parser/common/json_id.hpp"
#include "parser/common/json_plain_run.hpp"


namespace planlint::eventlog {

namespace {

// Collects the fields of one task-end event from JSON events (start/end of objects and arrays,
// keys, scalar values) as a SAX parser reports them. A scalar is read as a number the way the
// reader always has: numbers as they are, strings through strtod (0 when they hold no number),
// true / false / null as 0.
class Collector {
 public:
  explicit Collector(TaskEnd& out) : t_(out) {}

  void start_object() {
    Ctx c = Ctx::Other;
    if (depth_ == 0) c = Ctx::Root;
    else if (ctx() == Ctx::Root && key_ == Key::TaskInfo) c = Ctx::Info, t_.has_info = true;
    else if (ctx() == Ctx::Root && key_ == Key::TaskMetrics) c = Ctx::Metrics;
    else if (ctx() == Ctx::Metrics && key_ == Key::ShuffleRead) c = Ctx::ShuffleRead;
    else if (ctx() == Ctx::Accs) c = Ctx::Acc, acc_id_.reset(), acc_update_.reset();
    push(c);
    key_ = Key::None;
  }
  void end_object() {
    // An id out of long long's range (a damaged log) is no id: converting it would be undefined.
    if (ctx() == Ctx::Acc && acc_id_)
      if (auto id = id_from_double(*acc_id_)) t_.accs.emplace_back(*id, acc_update_);
    --depth_;
    key_ = Key::None;
  }
  void start_array() {
    Ctx c = ctx() == Ctx::Info && key_ == Key::Accumulables ? Ctx::Accs : Ctx::Other;
    if (c == Ctx::Accs) t_.has_accs = true;
    push(c);
  }
  void end_array() {
    --depth_;
    key_ = Key::None;
  }
  void key(std::string_view k) {
    key_ = Key::None;
    switch (ctx()) {
      case Ctx::Root:
        if (k == "Stage ID") key_ = Key::StageId;
        else if (k == "Task Info") key_ = Key::TaskInfo;
        else if (k == "Task Metrics") key_ = Key::TaskMetrics;
        break;
      case Ctx::Info:
        if (k == "Failed") key_ = Key::Failed;
        else if (k == "Killed") key_ = Key::Killed;
        else if (k == "Launch Time") key_ = Key::Launch;
        else if (k == "Finish Time") key_ = Key::Finish;
        else if (k == "Accumulables") key_ = Key::Accumulables;
        break;
      case Ctx::Metrics:
        if (k == "Executor Run Time") key_ = Key::RunTime;
        else if (k == "Shuffle Read Metrics") key_ = Key::ShuffleRead;
        break;
      case Ctx::ShuffleRead:
        if (k == "Remote Bytes Read") key_ = Key::RemoteBytes;
        else if (k == "Local Bytes Read") key_ = Key::LocalBytes;
        else if (k == "Total Records Read") key_ = Key::Records;
        break;
      case Ctx::Acc:
        if (k == "ID") key_ = Key::Id;
        else if (k == "Update") key_ = Key::Update;
        break;
      default:
        break;
    }
  }
  // True when the next scalar is kept: the scanner converts only those.
  [[nodiscard]] bool wants_value() const { return key_ != Key::None; }
  void boolean(bool b) {
    if (ctx() == Ctx::Info && (key_ == Key::Failed || key_ == Key::Killed)) t_.failed = t_.failed || b;
    value(0);
  }
  // A string value: its number as strtod reads it, else 0. `s` must end with a NUL.
  void string(const char* s) {
    char* end = nullptr;
    double d = std::strtod(s, &end);
    value(end != s ? d : 0);
  }
  // Any scalar (numbers as they are, null as 0).
  void value(double v) {
    switch (ctx()) {
      case Ctx::Root:
        if (key_ == Key::StageId) t_.stage = v;
        break;
      case Ctx::Info:
        if (key_ == Key::Launch) t_.launch = v;
        else if (key_ == Key::Finish) t_.finish = v;
        break;
      case Ctx::Metrics:
        if (key_ == Key::RunTime) t_.run_time = v;
        break;
      case Ctx::ShuffleRead:
        if (key_ == Key::RemoteBytes) t_.shuffle_remote_bytes = v;
        else if (key_ == Key::LocalBytes) t_.shuffle_local_bytes = v;
        else if (key_ == Key::Records) t_.shuffle_records = v;
        break;
      case Ctx::Acc:
        if (key_ == Key::Id) acc_id_ = v;
        else if (key_ == Key::Update) acc_update_ = v;
        break;
      default:
        break;
    }
    key_ = Key::None;
  }
  // A scalar that is not kept (wants_value() was false): the same as value(anything).
  void skip_value() { key_ = Key::None; }

 private:
  enum class Ctx : std::uint8_t { Root, Info, Metrics, ShuffleRead, Accs, Acc, Other };
  enum class Key : std::uint8_t {
    None, StageId, TaskInfo, TaskMetrics, Failed, Killed, Launch, Finish, Accumulables, RunTime, ShuffleRead,
    RemoteBytes, LocalBytes, Records, Id, Update
  };
  // Only the first levels can be anything but Other (Root > Info > Accs > Acc is the deepest
  // kept); deeper levels are counted, not stored.
  static constexpr std::size_t kStored = 8;

  [[nodiscard]] Ctx ctx() const {
    if (depth_ == 0 || depth_ > kStored) return Ctx::Other;
    return stack_[depth_ - 1];
  }
  void push(Ctx c) {
    if (depth_ < kStored) stack_[depth_] = c;
    ++depth_;
  }

  TaskEnd& t_;
  std::array<Ctx, kStored> stack_{};
  std::size_t depth_ = 0;
  Key key_ = Key::None;
  std::optional<double> acc_id_, acc_update_;
};

// nlohmann's SAX interface over the collector.
class Sax {
 public:
  explicit Sax(Collector& c) : c_(c) {}
  using json = nlohmann::json;
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  bool null() { return c_.value(0), true; }
  bool boolean(bool b) { return c_.boolean(b), true; }
  bool number_integer(number_integer_t v) { return c_.value(static_cast<double>(v)), true; }
  bool number_unsigned(number_unsigned_t v) { return c_.value(static_cast<double>(v)), true; }
  bool number_float(number_float_t v, const string_t&) { return c_.value(v), true; }
  bool string(string_t& s) { return c_.string(s.c_str()), true; }
  bool binary(binary_t&) { return c_.value(0), true; }
  bool start_object(std::size_t) { return c_.start_object(), true; }
  bool end_object() { return c_.end_object(), true; }
  bool start_array(std::size_t) { return c_.start_array(), true; }
  bool end_array() { return c_.end_array(), true; }
  bool key(string_t& k) { return c_.key(k), true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

 private:
  Collector& c_;
};

inline bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

class Scanner {
 public:
  Scanner(std::string_view line, Collector& c) : p_(line.data()), end_(line.data() + line.size()), c_(c) {}

  ScanResult run() {
    skip_ws();
    if (p_ == end_ || *p_ != '{') return ScanResult::Fallback;
    // One loop over the tokens; in_object[d] says what the container at depth d is.
    std::size_t depth = 0;
    std::array<bool, kMaxDepth> in_object{};
    enum class Next { Value, ValueOrClose, Key, KeyOrClose, AfterValue } next = Next::Value;
    for (;;) {
      skip_ws();
      if (p_ == end_) return ScanResult::Fallback;
      const char ch = *p_;
      bool close = false;
      switch (next) {
        case Next::KeyOrClose:
          if (ch == '}') {
            close = true;
            break;
          }
          [[fallthrough]];
        case Next::Key:
          if (!key()) return ScanResult::Fallback;
          next = Next::Value;
          break;
        case Next::ValueOrClose:
          if (ch == ']') {
            close = true;
            break;
          }
          [[fallthrough]];
        case Next::Value:
          if (ch == '{' || ch == '[') {
            if (depth == kMaxDepth) return ScanResult::Fallback;
            ++p_;
            in_object[depth++] = ch == '{';
            if (ch == '{') c_.start_object(), next = Next::KeyOrClose;
            else c_.start_array(), next = Next::ValueOrClose;
            break;
          }
          if (!scalar(ch)) return ScanResult::Fallback;
          next = Next::AfterValue;
          break;
        case Next::AfterValue:
          if (ch == ',') {
            ++p_;
            next = in_object[depth - 1] ? Next::Key : Next::Value;
            break;
          }
          if (ch != (in_object[depth - 1] ? '}' : ']')) return ScanResult::Fallback;
          close = true;
          break;
      }
      if (!close) continue;
      ++p_;
      if (in_object[--depth]) c_.end_object();
      else c_.end_array();
      if (depth == 0) {
        skip_ws();
        return p_ == end_ ? ScanResult::Ok : ScanResult::Fallback;
      }
      next = Next::AfterValue;
    }
  }

 private:
  static constexpr std::size_t kMaxDepth = 64;

  void skip_ws() {
    while (p_ != end_ && is_ws(*p_)) ++p_;
  }

  // The plain run of a string from p_ to its first stop byte (json_plain_run); p_ is left there.
  void plain_run() { p_ = json_plain_run(p_, end_); }

  // A string from its opening quote (at p_). On success `s` is its content without the quotes and
  // `escaped` says whether it holds escapes (checked: simple ones only).
  bool string(std::string_view& s, bool& escaped) {
    const char* start = ++p_;
    escaped = false;
    for (;;) {
      plain_run();
      if (p_ == end_) return false;
      char ch = *p_;
      if (ch == '"') break;
      if (ch != '\\') return false;  // a control byte (invalid) or non-ASCII (nlohmann checks UTF-8)
      if (end_ - p_ < 2) return false;
      char e = p_[1];
      if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r' && e != 't')
        return false;  // \u (surrogates are nlohmann's business) or an invalid escape
      escaped = true;
      p_ += 2;
    }
    s = {start, static_cast<std::size_t>(p_ - start)};
    ++p_;
    return true;
  }

  // "key" : (p_ at the opening quote); the value follows.
  bool key() {
    if (p_ == end_ || *p_ != '"') return false;
    std::string_view k;
    bool escaped = false;
    if (!string(k, escaped) || escaped) return false;
    skip_ws();
    if (p_ == end_ || *p_ != ':') return false;
    ++p_;
    c_.key(k);
    return true;
  }

  bool scalar(char ch) {
    if (ch == '"') {
      std::string_view s;
      bool escaped = false;
      if (!string(s, escaped)) return false;
      if (!c_.wants_value()) return c_.skip_value(), true;
      if (escaped) return false;
      buf_.assign(s.data(), s.size());
      c_.string(buf_.c_str());
      return true;
    }
    if (ch == '-' || is_digit(ch)) return number();
    auto literal = [&](std::string_view word) {
      if (static_cast<std::size_t>(end_ - p_) < word.size() || std::memcmp(p_, word.data(), word.size()) != 0) return false;
      p_ += word.size();
      return true;
    };
    if (ch == 't') return literal("true") && (c_.boolean(true), true);
    if (ch == 'f') return literal("false") && (c_.boolean(false), true);
    if (ch == 'n') return literal("null") && (c_.value(0), true);
    return false;
  }

  // JSON numbers without an exponent and with at most 18 integer digits; anything else is left
  // to nlohmann (huge integers become doubles there, and exponents may overflow).
  bool number() {
    const char* start = p_;
    bool neg = *p_ == '-';
    if (neg) ++p_;
    if (p_ == end_ || !is_digit(*p_)) return false;
    std::uint64_t v = 0;
    const char* digits = p_;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ != end_ && is_digit(*p_)) v = v * 10 + static_cast<unsigned>(*p_++ - '0');
      if (p_ - digits > 18) return false;
    }
    bool fraction = false;
    if (p_ != end_ && *p_ == '.') {
      ++p_;
      if (p_ == end_ || !is_digit(*p_)) return false;
      while (p_ != end_ && is_digit(*p_)) ++p_;
      fraction = true;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) return false;
    if (!c_.wants_value()) return c_.skip_value(), true;
    if (!fraction) {
      c_.value(neg ? static_cast<double>(-static_cast<std::int64_t>(v)) : static_cast<double>(v));
      return true;
    }
    buf_.assign(start, static_cast<std::size_t>(p_ - start));
    c_.value(std::strtod(buf_.c_str(), nullptr));
    return true;
  }

  const char* p_;
  const char* end_;
  Collector& c_;
  std::string buf_;
};

void reset(TaskEnd& t) {
  t.stage.reset(), t.run_time.reset(), t.launch.reset(), t.finish.reset();
  t.shuffle_remote_bytes.reset(), t.shuffle_local_bytes.reset(), t.shuffle_records.reset();
  t.has_info = t.failed = t.has_accs = false;
  t.accs.clear();
}

}  // namespace

ScanResult scan_task_end(std::string_view line, TaskEnd& out) {
  reset(out);
  Collector c(out);
  return Scanner(line, c).run();
}

bool sax_task_end(std::string_view line, TaskEnd& out) {
  reset(out);
  Collector c(out);
  Sax sax(c);
  return nlohmann::json::sax_parse(line.begin(), line.end(), &sax);
}

bool read_task_end(std::string_view line, TaskEnd& out) {
  if (scan_task_end(line, out) == ScanResult::Ok) return true;
  return sax_task_end(line, out);
}

}  // namespace planlint::eventlog
