// Compressed event logs and rolling event-log directories. The compressed inputs are made here
// from OUR corpus logs with small test-only writers that follow the formats Spark writes:
// zstd frames (zstd-jni ZstdOutputStream), lz4-java LZ4BlockOutputStream blocks and snappy-java
// SnappyOutputStream chunks, using the raw block APIs of libzstd, liblz4 and libsnappy.
#include <doctest/doctest.h>

#include <lz4.h>
#include <lz4frame.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "parser/eventlog/eventlog.hpp"
#include "parser/eventlog/eventlog_codec.hpp"
#include "parser/registry/parse.hpp"
#include "tests/support.hpp"

using namespace planlint;
using planlint::test::corpus_dir;
using planlint::test::read_file;
using planlint::test::write_file;
namespace fs = std::filesystem;

namespace {

void put_le32(std::string& s, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) s += static_cast<char>((v >> (8 * i)) & 0xFF);
}
void put_be32(std::string& s, std::uint32_t v) {
  for (int i = 3; i >= 0; --i) s += static_cast<char>((v >> (8 * i)) & 0xFF);
}

// lz4-java LZ4BlockOutputStream(out, block_size, fastCompressor, XXHash32(0x9747b28c), ...) + finish().
std::string lz4_java(std::string_view text, std::size_t block_size = 32 * 1024) {
  int level = 0;
  while ((std::size_t{1} << (10 + level)) < block_size) ++level;
  std::string out;
  auto block = [&](std::string_view data) {
    std::string comp(static_cast<std::size_t>(LZ4_compressBound(static_cast<int>(data.size()))), '\0');
    int n = LZ4_compress_default(data.data(), comp.data(), static_cast<int>(data.size()), static_cast<int>(comp.size()));
    bool raw = n <= 0 || static_cast<std::size_t>(n) >= data.size();
    out += "LZ4Block";
    out += static_cast<char>((raw ? 0x10 : 0x20) | level);
    put_le32(out, static_cast<std::uint32_t>(raw ? data.size() : static_cast<std::size_t>(n)));
    put_le32(out, static_cast<std::uint32_t>(data.size()));
    put_le32(out, data.empty() ? 0 : eventlog::xxh32(data.data(), data.size(), eventlog::kLz4BlockSeed) & 0xFFFFFFFu);
    out += raw ? std::string(data) : comp.substr(0, static_cast<std::size_t>(n));
  };
  for (std::size_t i = 0; i < text.size(); i += block_size) block(text.substr(i, block_size));
  block({});  // the end mark
  return out;
}

// snappy-java SnappyOutputStream(out, block_size).
std::string snappy_java(std::string_view text, std::size_t block_size = 32 * 1024) {
  std::string out("\x82SNAPPY\0", 8);
  put_be32(out, 1);
  put_be32(out, 1);
  for (std::size_t i = 0; i < text.size(); i += block_size) {
    std::string comp;
    snappy::Compress(text.data() + i, std::min(block_size, text.size() - i), &comp);
    put_be32(out, static_cast<std::uint32_t>(comp.size()));
    out += comp;
  }
  return out;
}

// zstd frames, one per `frame_size` bytes (a stream flushed and restarted gives the same shape).
std::string zstd_frames(std::string_view text, std::size_t frame_size = std::string::npos) {
  std::string out;
  for (std::size_t i = 0; i < text.size() || i == 0; i += frame_size) {
    std::string_view part = text.substr(i, frame_size);
    std::string comp(ZSTD_compressBound(part.size()), '\0');
    std::size_t n = ZSTD_compress(comp.data(), comp.size(), part.data(), part.size(), 1);
    REQUIRE_FALSE(ZSTD_isError(n));
    out += comp.substr(0, n);
    if (frame_size == std::string::npos) break;
  }
  return out;
}

ParseResult read_stream(const std::string& data, EventLogOptions opts = {}) {
  std::istringstream in(data);
  return parse_event_log_stream(in, "x", opts);
}

// What matters of a result, to compare the codecs with the plain log.
std::string summary(const ParseResult& r) {
  std::ostringstream s;
  for (const Plan& p : r.plans) {
    s << p.name << " ops=" << p.ops.size() << " stages=" << p.stages.size();
    for (const auto& st : p.stages)
      s << " [" << st.id << " max=" << st.task_ms_max.value_or(-1) << " med=" << st.task_ms_median.value_or(-1) << "]";
    for (const auto& op : p.ops)
      if (op.rows()) s << " " << op.name << "=" << *op.rows();
    s << "\n";
  }
  for (const auto& m : r.messages) s << "message: " << m.message << "\n";
  return s.str();
}

bool mentions(const ParseResult& r, std::string_view what) {
  for (const auto& m : r.messages)
    if (m.message.find(what) != std::string::npos) return true;
  return false;
}

fs::path temp_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("planlint-test-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST_CASE("event log codecs: xxh32 agrees with liblz4's frame content checksum") {
  for (std::size_t n : {0, 3, 15, 16, 17, 100, 100000}) {
    std::string text;
    for (std::size_t i = 0; i < n; ++i) text += static_cast<char>('a' + (i * 7) % 26);
    LZ4F_preferences_t prefs{};
    prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
    std::string frame(LZ4F_compressFrameBound(text.size(), &prefs), '\0');
    std::size_t len = LZ4F_compressFrame(frame.data(), frame.size(), text.data(), text.size(), &prefs);
    REQUIRE_FALSE(LZ4F_isError(len));
    const auto* tail = reinterpret_cast<const unsigned char*>(frame.data() + len - 4);
    std::uint32_t want = tail[0] | tail[1] << 8 | tail[2] << 16 | static_cast<std::uint32_t>(tail[3]) << 24;
    CHECK(eventlog::xxh32(text.data(), text.size(), 0) == want);
  }
}

TEST_CASE("event log codecs: zstd, lz4-java, snappy-java and lz4 frame logs read like the plain log") {
  std::string plain = read_file(corpus_dir() / "eventlog/multi-exec.eventlog");
  std::string expected = summary(read_stream(plain));
  REQUIRE(expected.find("execution 1: save at sessions.py:58") != std::string::npos);
  CHECK(expected.find("message:") == std::string::npos);

  LZ4F_preferences_t prefs{};
  std::string frame(LZ4F_compressFrameBound(plain.size(), &prefs), '\0');
  frame.resize(LZ4F_compressFrame(frame.data(), frame.size(), plain.data(), plain.size(), &prefs));

  struct Case {
    const char* name;
    std::string data;
  };
  for (const Case& c : {Case{"zstd", zstd_frames(plain)}, Case{"zstd, a frame per 10 KB", zstd_frames(plain, 10000)},
                        Case{"lz4-java", lz4_java(plain)}, Case{"lz4-java, 64-byte blocks", lz4_java(plain, 64)},
                        Case{"lz4-java, two streams", lz4_java(plain.substr(0, 5000)) + lz4_java(plain.substr(5000))},
                        Case{"snappy-java", snappy_java(plain)},
                        Case{"snappy-java, two streams", snappy_java(plain.substr(0, 7000)) + snappy_java(plain.substr(7000))},
                        Case{"lz4 frame", frame}}) {
    CAPTURE(std::string(c.name));
    if (std::string_view(c.name).find("64-byte") == std::string_view::npos) CHECK(c.data.size() < plain.size());
    CHECK(detect_format(c.data) == InputFormat::EventLog);
    CHECK(summary(read_stream(c.data)) == expected);
    CHECK(summary(parse_input(c.data, "x")) == expected);  // in memory (show, report, LSP)
  }
}

TEST_CASE("event log codecs: truncated and corrupt compressed logs give clear errors, never a crash") {
  std::string plain = read_file(corpus_dir() / "eventlog/skewed-join.eventlog");
  struct Case {
    const char* name;
    std::string data;
  };
  for (const Case& c : {Case{"zstd", zstd_frames(plain)}, Case{"lz4", lz4_java(plain, 4096)},
                        Case{"snappy", snappy_java(plain, 4096)}}) {
    CAPTURE(std::string(c.name));
    // Cut anywhere: in the stream header, in a block header, in block data.
    for (std::size_t cut : {std::size_t{4}, std::size_t{9}, std::size_t{15}, std::size_t{30}, c.data.size() / 3,
                            c.data.size() / 2 + 1, c.data.size() - 1}) {
      CAPTURE(cut);
      ParseResult r = read_stream(c.data.substr(0, cut));
      CHECK(r.has_errors());
      // (Cut inside the magic number, the rest is not recognised and read as a broken plain log.)
      CHECK((mentions(r, "ends inside") || mentions(r, "not valid JSON") || mentions(r, "empty") ||
             mentions(r, "expected a JSON event")));
    }
    // Flip bytes in the middle: the codec's checks (or the JSON reader) report it.
    for (std::size_t at : {c.data.size() / 4, c.data.size() / 2, c.data.size() * 3 / 4}) {
      std::string bad = c.data;
      for (std::size_t k = 0; k < 8 && at + k < bad.size(); ++k) bad[at + k] = static_cast<char>(bad[at + k] ^ 0x5A);
      ParseResult r = read_stream(bad);
      CHECK(r.has_errors());
    }
  }
  // The lz4 checksum catches a block that still decompresses.
  std::string lz = lz4_java(plain, 1024);
  std::string bad = lz;
  bad[21 + 2] = static_cast<char>(bad[21 + 2] ^ 1);  // a literal byte of the first block
  ParseResult r = read_stream(bad);
  CHECK(mentions(r, "lz4 data is corrupt"));
  // Garbage behind each magic number.
  for (std::string magic : {std::string("\x28\xB5\x2F\xFD", 4), std::string("LZ4Block"), std::string("\x82SNAPPY\0\0\0\0\1\0\0\0\1", 16),
                            std::string("\x04\x22\x4D\x18", 4)}) {
    std::string junk = magic;
    for (int i = 0; i < 3000; ++i) junk += static_cast<char>((i * 131 + 7) % 251);
    ParseResult g = read_stream(junk);
    CHECK(g.has_errors());
    CHECK(g.plans.empty());
  }
}

// One gzip member of `text` (zlib's deflate with a gzip header).
std::string gzip_member(std::string_view text) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&zs, static_cast<uLong>(text.size())) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

TEST_CASE("event log codecs: gzip (Databricks' rolled logs) is read, member after member") {
  const std::string plain = read_file(corpus_dir() / "eventlog/multi-exec.eventlog");
  const std::string expected = summary(read_stream(plain));
  CHECK(summary(read_stream(gzip_member(plain))) == expected);
  // Two members in a row (`cat a.gz b.gz`), split inside an event line.
  const std::size_t half = plain.size() / 2;
  CHECK(summary(read_stream(gzip_member(plain.substr(0, half)) + gzip_member(plain.substr(half)))) == expected);
  // A cut member: what was read is kept, the cut is said.
  const std::string gz = gzip_member(plain);
  ParseResult cut = read_stream(gz.substr(0, gz.size() / 2));
  CHECK(mentions(cut, "gzip data ends inside a member"));
  // Garbage behind the magic number.
  ParseResult bad = read_stream(std::string("\x1f\x8b\x08\x00garbage", 11));
  CHECK(bad.has_errors());
  CHECK(bad.plans.empty());
}

TEST_CASE("event log: a Databricks rolled hour (real-runtime rt08) and a folder of rolled hours") {
  const fs::path rt08 = corpus_dir() / "real-runtime/rt08-rapids-db-sim-eventlog-2021-06-15--15-00.gz";
  ParseResult one = read_event_log(rt08, "rt08", {});
  REQUIRE(one.plans.size() == 1);  // the execution never ends in this hour: read as unfinished
  CHECK_FALSE(one.has_errors());
  CHECK(is_event_log_path(rt08));
  // Named as Databricks names it: the note says it is one hour of a longer log.
  fs::path dir = fs::temp_directory_path() / ("planlint-dbrolled-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string plain = read_file(corpus_dir() / "eventlog/multi-exec.eventlog");
  {
    std::ofstream(dir / "eventlog-2021-06-15--15-00.gz", std::ios::binary) << gzip_member(plain);
  }
  ParseResult named = read_event_log(dir / "eventlog-2021-06-15--15-00.gz", "x", {});
  CHECK(mentions(named, "one hour of a Databricks rolled event log"));
  CHECK(summary(named).rfind(summary(read_stream(plain)), 0) == 0);  // the same plans, then the note
  // The folder: rolled hours in time order, then the current `eventlog`.
  fs::remove(dir / "eventlog-2021-06-15--15-00.gz");
  const std::size_t a = plain.find('\n', plain.size() / 3) + 1, b = plain.find('\n', plain.size() * 2 / 3) + 1;
  {
    std::ofstream(dir / "eventlog-2021-06-15--16-00.gz", std::ios::binary) << gzip_member(plain.substr(a, b - a));
    std::ofstream(dir / "eventlog-2021-06-15--15-00.gz", std::ios::binary) << gzip_member(plain.substr(0, a));
    std::ofstream(dir / "eventlog", std::ios::binary) << plain.substr(b);
  }
  CHECK(is_rolling_event_log_dir(dir));
  CHECK(is_event_log_path(dir));
  CHECK(summary(read_event_log(dir, "x", {})) == summary(read_stream(plain)));
  fs::remove_all(dir);
  CHECK_FALSE(is_rolling_event_log_dir(corpus_dir() / "real-runtime"));
}

TEST_CASE("event log codecs: codecs Spark does not write are refused plainly") {
  ParseResult framed = read_stream(std::string("\xff\x06\x00\x00sNaPpY", 10) + "xxxx");
  CHECK(mentions(framed, "snappy-framed"));
}

TEST_CASE("rolling event-log directory: events files in index order, each with its own codec") {
  fs::path corpus_rolling = corpus_dir() / "eventlog/eventlog_v2_app-20231114221320-0009";
  CHECK(is_rolling_event_log_dir(corpus_rolling));
  CHECK(is_rolling_event_log_dir(corpus_rolling.string() + "/"));
  CHECK(is_event_log_path(corpus_rolling));
  CHECK_FALSE(is_rolling_event_log_dir(corpus_dir() / "eventlog"));
  CHECK(is_event_log_path(corpus_dir() / "eventlog/multi-exec.eventlog"));

  std::string plain = read_file(corpus_dir() / "eventlog/multi-exec.eventlog");
  std::string expected = summary(read_stream(plain));
  CHECK(summary(read_event_log(corpus_rolling, "x", {})) == expected);

  // Three parts with three codecs; "10" sorts after "2" as a number.
  std::size_t a = plain.find('\n', plain.size() / 3) + 1, b = plain.find('\n', plain.size() * 2 / 3) + 1;
  fs::path dir = temp_dir("rolling");
  fs::path rolling = dir / "eventlog_v2_app-1";
  write_file(rolling / "events_1_app-1.zstd", zstd_frames(plain.substr(0, a)));
  write_file(rolling / "events_2_app-1.lz4", lz4_java(plain.substr(a, b - a)));
  write_file(rolling / "events_10_app-1.snappy", snappy_java(plain.substr(b)));
  write_file(rolling / "appstatus_app-1", "");
  write_file(rolling / "notes.txt", "not an events file");
  CHECK(summary(read_event_log(rolling, "x", {})) == expected);

  // A compacted file replaces the files before it.
  fs::path compacted = dir / "eventlog_v2_app-2";
  write_file(compacted / "events_1_app-2", "this would be an error\n");
  write_file(compacted / "events_2_app-2.compact", plain.substr(0, a));
  write_file(compacted / "events_3_app-2", plain.substr(a));
  write_file(compacted / "appstatus_app-2.inprogress", "");
  ParseResult c = read_event_log(compacted, "x", {});
  CHECK_FALSE(c.has_errors());
  CHECK(c.plans.size() == 2);
  CHECK(mentions(c, "still running"));

  // No events file.
  fs::path empty = dir / "eventlog_v2_app-3";
  fs::create_directories(empty);
  CHECK(mentions(read_event_log(empty, "x", {}), "no events_"));
  fs::remove_all(dir);
}

TEST_CASE("event log streaming: each execution goes to the sink when it ends, then its state is dropped") {
  std::string plain = read_file(corpus_dir() / "eventlog/multi-exec.eventlog");
  std::vector<std::string> seen;
  std::istringstream in(plain);
  ParseResult r = parse_event_log_stream(in, "x", {}, [&](Plan&& p) { seen.push_back(p.name); });
  CHECK(r.plans.empty());
  CHECK_FALSE(r.has_errors());
  CHECK(seen == std::vector<std::string>{"execution 0: save at sessions.py:41", "execution 1: save at sessions.py:58"});
  // The second execution is read the same whether the first one was followed or not.
  EventLogOptions one;
  one.execution = 1;
  ParseResult only = read_stream(plain, one);
  ParseResult all = read_stream(plain);
  REQUIRE(only.plans.size() == 1);
  REQUIRE(all.plans.size() == 2);
  ParseResult a, b;
  a.plans.push_back(std::move(only.plans[0]));
  b.plans.push_back(std::move(all.plans[1]));
  CHECK(summary(a) == summary(b));
}

namespace {
using planlint::test::run_planlint;
std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

// rule, line, execution (the JSON field, written as the text outputs do) and message of every
// finding of `planlint check --format json ARGS`.
std::vector<std::string> findings(const std::string& args, int* exit_code = nullptr) {
  auto r = run_planlint("check --no-config --format json " + args);
  if (exit_code) *exit_code = r.exit_code;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  std::vector<std::string> out;
  if (j.is_discarded()) return {"not JSON: " + r.out};
  for (const auto& f : j["files"])
    for (const auto& d : f["diagnostics"])
      out.push_back(d["rule"].get<std::string>() + ":" + std::to_string(d["line"].get<int>()) + ": " +
                    (d.contains("execution") ? "execution " + std::to_string(d["execution"]["id"].get<long long>()) + " (" +
                                                   d["execution"]["description"].get<std::string>() + "): "
                                             : std::string()) +
                    d["message"].get<std::string>());
  std::sort(out.begin(), out.end());
  return out;
}
}  // namespace

TEST_CASE("check on event logs: findings per execution, in every input shape") {
  fs::path multi = corpus_dir() / "eventlog/multi-exec.eventlog";
  int rc = 0;
  auto expected = findings(q(multi), &rc);
  CHECK(rc == 1);
  REQUIRE(expected.size() == 3);
  // Only the skewed execution 1 has findings, and each one says so.
  for (const auto& f : expected) CHECK(f.find(":173: execution 1 (save at sessions.py:58): ") != std::string::npos);
  CHECK(expected[0].rfind("disk-spill:", 0) == 0);
  CHECK(expected[1].rfind("exploding-join:", 0) == 0);
  CHECK(expected[2].rfind("skew-not-handled:", 0) == 0);

  CHECK(findings("--execution 0 " + q(multi), &rc).empty());
  CHECK(rc == 0);
  CHECK(findings("--execution 1 " + q(multi)) == expected);
  // An execution the log does not hold: nothing was checked, so an error (exit 2), not a finding.
  auto missing = run_planlint("check --no-config --format json --execution 9 " + q(multi));
  CHECK(missing.exit_code == 2);
  auto mj = nlohmann::json::parse(missing.out, nullptr, false);
  REQUIRE(!mj.is_discarded());
  REQUIRE(mj["files"].size() == 1);
  CHECK(mj["files"][0].value("error", "").find("no SQL execution 9") != std::string::npos);
  CHECK(mj["files"][0]["diagnostics"].empty());

  // The rolling directory, with and without the trailing slash.
  fs::path rolling = corpus_dir() / "eventlog/eventlog_v2_app-20231114221320-0009";
  CHECK(findings(q(rolling)) == expected);
  CHECK(findings(q(rolling.string() + "/")) == expected);

  // Compressed, named as Spark names them or not at all (the codec is read from the bytes).
  std::string plain = read_file(multi);
  fs::path dir = temp_dir("check");
  write_file(dir / "app-1.zstd", zstd_frames(plain, 50000));
  write_file(dir / "app-2.lz4", lz4_java(plain));
  write_file(dir / "app-3", snappy_java(plain));
  for (const char* name : {"app-1.zstd", "app-2.lz4", "app-3"}) {
    CAPTURE(std::string(name));
    CHECK(findings(q(dir / name)) == expected);
  }
  // A cut log: a parse error, and the executions that ended before the cut are still checked.
  std::string z = zstd_frames(plain, 20000);
  write_file(dir / "cut.zstd", z.substr(0, z.size() - 100));
  auto cut = findings(q(dir / "cut.zstd"), &rc);
  CHECK(rc == 1);
  bool parse_error = false;
  for (const auto& f : cut) parse_error = parse_error || f.find("the zstd data ends inside a frame") != std::string::npos;
  CHECK(parse_error);

  // Standard input is streamed the same way, compressed or not.
  CHECK(findings("- < " + q(multi)) == expected);
  CHECK(findings("- < " + q(dir / "app-2.lz4")) == expected);

  // SARIF carries the execution in the message too.
  auto sarif = run_planlint("check --no-config --format sarif " + q(multi));
  CHECK(sarif.out.find("execution 1 (save at sessions.py:58)") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("check walks a folder: a rolling event-log directory is one input") {
  auto r = run_planlint("check --no-config --format json --exit-zero " + q(corpus_dir() / "eventlog"));
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  std::vector<std::string> paths;
  for (const auto& f : j["files"]) paths.push_back(fs::path(f["path"].get<std::string>()).filename().string());
  std::sort(paths.begin(), paths.end());
  CHECK(paths == std::vector<std::string>{"even-join.eventlog", "eventlog_v2_app-20231114221320-0009",
                                          "multi-exec.eventlog", "skewed-join.eventlog"});
}

namespace {
// Text of exactly n bytes, lines of varied length, not too compressible.
std::string boundary_text(std::size_t n) {
  std::string s;
  s.reserve(n);
  std::uint32_t x = 1;
  while (s.size() < n) {
    x = x * 1103515245u + 12345u;
    s += (x >> 16) % 5 ? static_cast<char>('a' + (x >> 20) % 26) : '\n';
  }
  return s;
}

std::string decode_all(const std::string& compressed, std::string& error) {
  std::istringstream in(compressed);
  auto d = eventlog::make_decoder(in, error);
  std::string out;
  if (!d) return out;
  std::string_view piece;
  while (d->next(piece)) out += piece;
  error = d->error();
  return out;
}
}  // namespace

TEST_CASE("event log codecs: outputs at exact buffer boundaries are not reported truncated") {
  const std::size_t kZstdOut = ZSTD_DStreamOutSize();  // 128 KiB: the decoder's output buffer
  for (int checksum = 0; checksum < 2; ++checksum)
    for (std::size_t n : {kZstdOut, 2 * kZstdOut, 3 * kZstdOut, 4 * kZstdOut, 3 * kZstdOut - 1, 3 * kZstdOut + 1}) {
      CAPTURE(checksum);
      CAPTURE(n);
      std::string text = boundary_text(n);
      ZSTD_CCtx* cc = ZSTD_createCCtx();
      ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, checksum);
      std::string comp(ZSTD_compressBound(n), '\0');
      std::size_t m = ZSTD_compress2(cc, comp.data(), comp.size(), text.data(), n);
      ZSTD_freeCCtx(cc);
      REQUIRE_FALSE(ZSTD_isError(m));
      comp.resize(m);
      std::string error;
      CHECK(decode_all(comp, error) == text);
      CHECK(error.empty());
      // Two frames back to back, each ending on the boundary.
      CHECK(decode_all(comp + comp, error) == text + text);
      CHECK(error.empty());
      // A real truncation is still reported.
      decode_all(comp.substr(0, comp.size() - 3), error);
      CHECK_FALSE(error.empty());
    }
  for (int checksum = 0; checksum < 2; ++checksum)
    for (auto block : {LZ4F_max64KB, LZ4F_max256KB, LZ4F_max1MB, LZ4F_max4MB})
      for (std::size_t n : {std::size_t{256} << 10, std::size_t{512} << 10, std::size_t{768} << 10,
                            (std::size_t{512} << 10) + 1, (std::size_t{512} << 10) - 1}) {
        CAPTURE(checksum);
        CAPTURE(static_cast<int>(block));
        CAPTURE(n);
        std::string text = boundary_text(n);
        LZ4F_preferences_t prefs{};
        prefs.frameInfo.blockSizeID = block;
        prefs.frameInfo.contentChecksumFlag = checksum ? LZ4F_contentChecksumEnabled : LZ4F_noContentChecksum;
        std::string comp(LZ4F_compressFrameBound(n, &prefs), '\0');
        std::size_t m = LZ4F_compressFrame(comp.data(), comp.size(), text.data(), n, &prefs);
        REQUIRE_FALSE(LZ4F_isError(m));
        comp.resize(m);
        std::string error;
        CHECK(decode_all(comp, error) == text);
        CHECK(error.empty());
        CHECK(decode_all(comp + comp, error) == text + text);
        CHECK(error.empty());
        decode_all(comp.substr(0, comp.size() - 2), error);
        CHECK_FALSE(error.empty());
      }
  // lz4-java blocks and snappy-java chunks ending exactly at their block size.
  for (std::size_t n : {std::size_t{32} << 10, std::size_t{64} << 10, std::size_t{256} << 10}) {
    std::string text = boundary_text(n);
    std::string error;
    CHECK(decode_all(lz4_java(text), error) == text);
    CHECK(error.empty());
    CHECK(decode_all(snappy_java(text), error) == text);
    CHECK(error.empty());
  }
}
