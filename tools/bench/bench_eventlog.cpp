// `planlint_bench eventlog`: a large Spark event log read in bounded memory (logs of long-running
// applications reach gigabytes).
//
// Writes a generated event log of --mb megabytes to a temporary file (streamed: the generator
// holds one event at a time; --codec zstd compresses it on the way as Spark's default codec
// does), then measures, each in a fresh process so that the peak RSS is its own:
//   reader   parser/eventlog/: read_event_log with a sink that drops each plan (what check does)
//   check    `planlint check --no-config --format json -o /dev/null LOG`
// and prints wall and CPU (user + sys) time, MB/s of the uncompressed log, and peak RSS. The log:
// many SQL executions, each with a formatted plan and its sparkPlanInfo, an AQE update, two jobs
// of 200 tasks whose task-end events carry SQL accumulator updates and Spark's task metrics,
// driver accumulator updates and the end event: ~1.6 KB per task-end line, ~1,530 executions and
// ~611,000 task-end events per GB (10^9 bytes). (The events repeat, so zstd compresses them ~60x; real logs
// compress ~10x.)
#include <CLI/CLI.hpp>

#include <zstd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parser/eventlog/eventlog.hpp"
#include "tools/bench/bench_eventlog.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
constexpr double kMB = 1e6;  // MB = 10^6 bytes (MiB = 2^20)

const char* kPlan = R"(== Physical Plan ==
AdaptiveSparkPlan (9)
+- == Final Plan ==
   * HashAggregate (8)
   +- AQEShuffleRead (7)
      +- ShuffleQueryStage (6), Statistics(sizeInBytes=1.2 MiB, rowCount=3.10E+4)
         +- Exchange (5)
            +- * HashAggregate (4)
               +- * Project (3)
                  +- * Filter (2)
                     +- * ColumnarToRow (1)
                        +- Scan parquet spark_catalog.default.orders (0)


(0) Scan parquet spark_catalog.default.orders
Output [3]: [o_custkey#1L, o_totalprice#2, o_orderdate#3]
Batched: true
Location: InMemoryFileIndex [hdfs://nn/warehouse/orders]
PushedFilters: [IsNotNull(o_orderdate), GreaterThanOrEqual(o_orderdate,2024-01-01)]
ReadSchema: struct<o_custkey:bigint,o_totalprice:decimal(12,2),o_orderdate:date>

(1) ColumnarToRow [codegen id : 1]
Input [3]: [o_custkey#1L, o_totalprice#2, o_orderdate#3]

(2) Filter [codegen id : 1]
Input [3]: [o_custkey#1L, o_totalprice#2, o_orderdate#3]
Condition : (isnotnull(o_orderdate#3) AND (o_orderdate#3 >= 2024-01-01))

(3) Project [codegen id : 1]
Output [2]: [o_custkey#1L, o_totalprice#2]
Input [3]: [o_custkey#1L, o_totalprice#2, o_orderdate#3]

(4) HashAggregate [codegen id : 1]
Input [2]: [o_custkey#1L, o_totalprice#2]
Keys [1]: [o_custkey#1L]
Functions [1]: [partial_sum(o_totalprice#2)]
Aggregate Attributes [2]: [sum#10, isEmpty#11]
Results [3]: [o_custkey#1L, sum#12, isEmpty#13]

(5) Exchange
Input [3]: [o_custkey#1L, sum#12, isEmpty#13]
Arguments: hashpartitioning(o_custkey#1L, 200), ENSURE_REQUIREMENTS, [plan_id=41]

(6) ShuffleQueryStage
Output [3]: [o_custkey#1L, sum#12, isEmpty#13]
Arguments: 0

(7) AQEShuffleRead
Input [3]: [o_custkey#1L, sum#12, isEmpty#13]
Arguments: coalesced

(8) HashAggregate [codegen id : 2]
Input [3]: [o_custkey#1L, sum#12, isEmpty#13]
Keys [1]: [o_custkey#1L]
Functions [1]: [sum(o_totalprice#2)]
Aggregate Attributes [1]: [sum(o_totalprice#2)#14]
Results [2]: [o_custkey#1L, sum(o_totalprice#2)#14 AS revenue#15]

(9) AdaptiveSparkPlan
Output [2]: [o_custkey#1L, revenue#15]
Arguments: isFinalPlan=true
)";

std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

// sparkPlanInfo of kPlan with accumulator ids from `base` (rows: base+1 scan, +2 filter, +3
// partial agg, +4 final agg; +5 shuffle bytes written; +6 partitions).
std::string plan_info(long long base) {
  auto m = [&](const char* name, long long id, const char* type) {
    return std::string("{\"name\":\"") + name + "\",\"accumulatorId\":" + std::to_string(base + id) +
           ",\"metricType\":\"" + type + "\"}";
  };
  auto node = [](const std::string& name, const std::string& kids, const std::string& metrics) {
    return "{\"nodeName\":\"" + name + "\",\"simpleString\":\"" + name + "\",\"children\":[" + kids +
           "],\"metadata\":{},\"metrics\":[" + metrics + "]}";
  };
  std::string scan = node("Scan parquet spark_catalog.default.orders", "",
                          m("number of output rows", 1, "sum") + "," + m("number of files read", 7, "sum") + "," +
                              m("size of files read", 8, "size"));
  std::string c2r = node("ColumnarToRow", scan, "");
  std::string filter = node("Filter", c2r, m("number of output rows", 2, "sum"));
  std::string project = node("Project", filter, "");
  std::string partial = node("HashAggregate", project, m("number of output rows", 3, "sum"));
  std::string wsc1 = node("WholeStageCodegen (1)", partial, m("duration", 9, "timing"));
  std::string exchange = node("Exchange", wsc1, m("shuffle bytes written", 5, "size"));
  std::string stage = node("ShuffleQueryStage", exchange, "");
  std::string read = node("AQEShuffleRead", stage, m("number of partitions", 6, "sum"));
  std::string input = node("InputAdapter", read, "");
  std::string final_agg = node("HashAggregate", input, m("number of output rows", 4, "sum"));
  std::string wsc2 = node("WholeStageCodegen (2)", final_agg, m("duration", 10, "timing"));
  return node("AdaptiveSparkPlan", wsc2, "");
}

std::string task_end(long long stage, long long task, long long launch, long long ms, long long base, bool map_side) {
  auto acc = [](long long id, const char* name, long long v) {
    return "{\"ID\":" + std::to_string(id) + ",\"Name\":\"" + name + "\",\"Update\":\"" + std::to_string(v) +
           "\",\"Value\":\"" + std::to_string(v) + "\",\"Internal\":true,\"Count Failed Values\":true,\"Metadata\":\"sql\"}";
  };
  std::string accs = map_side ? acc(base + 1, "number of output rows", 50000) + "," + acc(base + 2, "number of output rows", 12000) +
                                    "," + acc(base + 3, "number of output rows", 3100) + "," +
                                    acc(base + 5, "shuffle bytes written", 61000)
                              : acc(base + 4, "number of output rows", 155) + "," + acc(base + 10, "duration", ms);
  return "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":" + std::to_string(stage) +
         ",\"Stage Attempt ID\":0,\"Task Type\":\"" + (map_side ? "ShuffleMapTask" : "ResultTask") +
         "\",\"Task End Reason\":{\"Reason\":\"Success\"},\"Task Info\":{\"Task ID\":" + std::to_string(task) +
         ",\"Index\":" + std::to_string(task % 200) + ",\"Attempt\":0,\"Partition ID\":" + std::to_string(task % 200) +
         ",\"Launch Time\":" + std::to_string(launch) + ",\"Executor ID\":\"" + std::to_string(1 + task % 16) +
         "\",\"Host\":\"10.0.1." + std::to_string(1 + task % 16) +
         "\",\"Locality\":\"PROCESS_LOCAL\",\"Speculative\":false,\"Getting Result Time\":0,\"Finish Time\":" +
         std::to_string(launch + ms) + ",\"Failed\":false,\"Killed\":false,\"Accumulables\":[" + accs +
         "]},\"Task Executor Metrics\":{\"JVMHeapMemory\":0,\"JVMOffHeapMemory\":0},\"Task Metrics\":{"
         "\"Executor Deserialize Time\":3,\"Executor Deserialize CPU Time\":2811000,\"Executor Run Time\":" +
         std::to_string(ms) + ",\"Executor CPU Time\":" + std::to_string(ms * 900000) +
         ",\"Peak Execution Memory\":0,\"Result Size\":2547,\"JVM GC Time\":0,\"Result Serialization Time\":0,"
         "\"Memory Bytes Spilled\":0,\"Disk Bytes Spilled\":0,\"Shuffle Read Metrics\":{\"Remote Blocks Fetched\":0,"
         "\"Local Blocks Fetched\":0,\"Fetch Wait Time\":0,\"Remote Bytes Read\":0,\"Remote Bytes Read To Disk\":0,"
         "\"Local Bytes Read\":0,\"Total Records Read\":0},\"Shuffle Write Metrics\":{\"Shuffle Bytes Written\":61000,"
         "\"Shuffle Write Time\":1200000,\"Shuffle Records Written\":3100},\"Input Metrics\":{\"Bytes Read\":4100000,"
         "\"Records Read\":50000},\"Output Metrics\":{\"Bytes Written\":0,\"Records Written\":0},"
         "\"Updated Blocks\":[]}}\n";
}

// Streams text into a file, optionally zstd-compressed (one frame, as zstd-jni writes).
class Sink {
 public:
  Sink(const fs::path& path, bool zstd) : out_(path, std::ios::binary), zstd_(zstd) {
    if (zstd_) {
      cs_ = ZSTD_createCStream();
      ZSTD_initCStream(cs_, 1);
      buf_.resize(ZSTD_CStreamOutSize());
    }
  }
  ~Sink() {
    if (cs_) ZSTD_freeCStream(cs_);
  }
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;
  void write(const std::string& s) {
    raw_bytes_ += s.size();
    if (!zstd_) {
      out_.write(s.data(), static_cast<std::streamsize>(s.size()));
      return;
    }
    ZSTD_inBuffer in{s.data(), s.size(), 0};
    while (in.pos < in.size) {
      ZSTD_outBuffer o{buf_.data(), buf_.size(), 0};
      ZSTD_compressStream(cs_, &o, &in);
      out_.write(buf_.data(), static_cast<std::streamsize>(o.pos));
    }
  }
  void close() {
    if (zstd_) {
      for (;;) {
        ZSTD_outBuffer o{buf_.data(), buf_.size(), 0};
        std::size_t left = ZSTD_endStream(cs_, &o);
        out_.write(buf_.data(), static_cast<std::streamsize>(o.pos));
        if (left == 0 || ZSTD_isError(left)) break;
      }
    }
    out_.close();
  }
  [[nodiscard]] std::size_t raw_bytes() const { return raw_bytes_; }

 private:
  std::ofstream out_;
  bool zstd_;
  ZSTD_CStream* cs_ = nullptr;
  std::vector<char> buf_;
  std::size_t raw_bytes_ = 0;
};

}  // namespace

GeneratedEventLog write_generated_event_log(const fs::path& path, std::size_t target_bytes, bool zstd) {
  Sink out(path, zstd);
  GeneratedEventLog g;
  const std::string plan_final = json_escape(kPlan);
  std::string plan_initial = plan_final;
  plan_initial.replace(plan_initial.find("isFinalPlan=true"), 16, "isFinalPlan=false");
  long long t = 1700000000000, job = 0, stage = 0, task = 0;
  out.write("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n");
  out.write("{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"bench\",\"App ID\":\"app-1\",\"Timestamp\":" +
            std::to_string(t) + ",\"User\":\"etl\"}\n");
  for (long long ex = 0; out.raw_bytes() < target_bytes; ++ex) {
    long long base = ex * 100;
    std::string id = std::to_string(ex);
    std::string info = plan_info(base);
    out.write("{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart\",\"executionId\":" + id +
              ",\"description\":\"revenue per customer, run " + id +
              "\",\"details\":\"\",\"physicalPlanDescription\":\"" + plan_initial + "\",\"sparkPlanInfo\":" + info +
              ",\"time\":" + std::to_string(t) + ",\"modifiedConfigs\":{}}\n");
    for (int j = 0; j < 2; ++j) {
      bool map_side = j == 0;
      if (!map_side)
        out.write("{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveExecutionUpdate\",\"executionId\":" +
                  id + ",\"physicalPlanDescription\":\"" + plan_final + "\",\"sparkPlanInfo\":" + info + "}\n");
      out.write("{\"Event\":\"SparkListenerJobStart\",\"Job ID\":" + std::to_string(job) + ",\"Submission Time\":" +
                std::to_string(t) + ",\"Stage Infos\":[],\"Stage IDs\":[" + std::to_string(stage) +
                "],\"Properties\":{\"spark.sql.execution.id\":\"" + id + "\"}}\n");
      for (int k = 0; k < 200; ++k, ++task) {
        long long ms = 800 + (task * 7919) % 400;
        out.write(task_end(stage, task, t, ms, base, map_side));
      }
      g.tasks += 200;
      out.write("{\"Event\":\"SparkListenerStageCompleted\",\"Stage Info\":{\"Stage ID\":" + std::to_string(stage) +
                ",\"Stage Attempt ID\":0,\"Stage Name\":\"run " + id + "\",\"Number of Tasks\":200,\"Submission Time\":" +
                std::to_string(t) + ",\"Completion Time\":" + std::to_string(t + 1300) + ",\"Accumulables\":[]}}\n");
      out.write("{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":" + std::to_string(job) + ",\"Completion Time\":" +
                std::to_string(t + 1300) + ",\"Job Result\":{\"Result\":\"JobSucceeded\"}}\n");
      ++job, ++stage, t += 1400;
    }
    out.write("{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerDriverAccumUpdates\",\"executionId\":" + id +
              ",\"accumUpdates\":[[" + std::to_string(base + 6) + ",200]]}\n");
    out.write("{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd\",\"executionId\":" + id +
              ",\"time\":" + std::to_string(t) + "}\n");
    ++g.executions;
  }
  out.write("{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":" + std::to_string(t) + "}\n");
  g.bytes = out.raw_bytes();
  out.close();
  return g;
}

namespace {

struct ChildRun {
  int status = -1;
  double seconds = 0, cpu_seconds = 0;
  long peak_kb = 0;
  std::string out;
};

// Runs argv in a fresh process; its peak RSS from wait4, its stdout captured.
ChildRun spawn(const std::vector<std::string>& args) {
  ChildRun r;
  int fds[2];
  if (::pipe(fds) != 0) return r;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  std::vector<char*> argv;
  std::vector<std::string> copy = args;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  auto t0 = Clock::now();
  int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    return r;
  }
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) r.out.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  rusage ru{};
  int status = 0;
  ::wait4(pid, &status, 0, &ru);
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.peak_kb = ru.ru_maxrss;
  auto secs = [](const timeval& tv) { return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6; };
  r.cpu_seconds = secs(ru.ru_utime) + secs(ru.ru_stime);
  return r;
}

fs::path self_exe() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec);
}

// The reader alone over `path`: prints "<plans> <operators> <messages>".
int read_only(const std::string& path) {
  std::size_t plans = 0, ops = 0;
  planlint::ParseResult r = planlint::read_event_log(path, path, {}, [&](planlint::Plan&& p) {
    ++plans;
    ops += p.ops.size();
  });
  std::printf("%zu %zu %zu\n", plans, ops, r.messages.size());
  return 0;
}

void line(const char* what, const ChildRun& r, std::size_t bytes, const std::string& extra) {
  double mb = static_cast<double>(bytes) / kMB;
  std::printf("  %-8s wall %6.2f s (%5.1f MB/s)  CPU %6.2f s (%5.1f MB/s)  peak RSS %6.1f MiB  exit %d  %s\n", what,
              r.seconds, mb / r.seconds, r.cpu_seconds, mb / r.cpu_seconds, static_cast<double>(r.peak_kb) / 1024.0,
              r.status, extra.c_str());
  std::fflush(stdout);
}

}  // namespace

int bench_eventlog(int argc, char** argv) {
  CLI::App app{"planlint_bench eventlog: read a generated event log of --mb MB in bounded memory"};
  std::size_t mb = 1000;
  std::string codec = "none", keep, planlint_path, read_path;
  app.add_option("--mb", mb, "size of the (uncompressed) log, MB (10^6 bytes)")->capture_default_str();
  app.add_option("--codec", codec, "none | zstd (Spark's default codec)")->check(CLI::IsMember({"none", "zstd"}))->capture_default_str();
  app.add_option("--keep", keep, "write the log here and keep it (default: a temporary file, removed)");
  app.add_option("--planlint", planlint_path, "the planlint executable (default: beside planlint_bench)");
  app.add_option("--read-only", read_path, "(internal) run the reader over this log in this process")->group("");
  CLI11_PARSE(app, argc, argv);
  if (!read_path.empty()) return read_only(read_path);

  fs::path exe = self_exe();
  if (planlint_path.empty()) planlint_path = (exe.parent_path() / "planlint").string();
  fs::path log = keep.empty() ? fs::temp_directory_path() / ("planlint-bench-" + std::to_string(::getpid()) +
                                                            (codec == "zstd" ? ".eventlog.zstd" : ".eventlog"))
                              : fs::path(keep);
  std::printf("== eventlog: a generated %zu MB Spark event log (%s), each figure a fresh process\n", mb, codec.c_str());
  auto t0 = Clock::now();
  GeneratedEventLog g = write_generated_event_log(log, mb * 1000000, codec == "zstd");
  double gen_s = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf("  log      %.1f MB uncompressed, %.1f MB on disk, %zu SQL executions, %zu task-end events (written in %.1f s)\n",
              static_cast<double>(g.bytes) / kMB, static_cast<double>(fs::file_size(log)) / kMB, g.executions, g.tasks, gen_s);
  std::fflush(stdout);
  ChildRun reader = spawn({exe.string(), "eventlog", "--read-only", log.string()});
  std::size_t plans = 0, ops = 0, messages = 0;
  std::sscanf(reader.out.c_str(), "%zu %zu %zu", &plans, &ops, &messages);
  line("reader", reader, g.bytes, std::to_string(plans) + " plans, " + std::to_string(ops) + " operators, " +
                                      std::to_string(messages) + " messages");
  ChildRun check = spawn({planlint_path, "check", "--no-config", "--format", "json", "-o", "/dev/null", log.string()});
  line("check", check, g.bytes, "(`planlint check --format json -o /dev/null`; exit 1 = findings)");
  if (keep.empty()) fs::remove(log);
  return reader.status == 0 && plans == g.executions ? 0 : 1;
}
