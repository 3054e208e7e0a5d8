// The generated Spark event log of `planlint_bench eventlog` (tools/bench/bench_eventlog.cpp), for
// the other benchmarks that need one.
#pragma once

#include <cstddef>
#include <filesystem>

struct GeneratedEventLog {
  std::size_t bytes = 0, executions = 0, tasks = 0;  // bytes: uncompressed
};

// Streams a log of about `target_bytes` (uncompressed) bytes to `path`, zstd-compressed when `zstd`.
GeneratedEventLog write_generated_event_log(const std::filesystem::path& path, std::size_t target_bytes, bool zstd);
