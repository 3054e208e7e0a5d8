// `planlint check` on a Spark event log, streamed: each SQL execution's plan is linted as soon as
// the reader has built it and then dropped, so a log of any length is checked in bounded memory.
#pragma once

#include <string>

#include "lint/config/config.hpp"
#include "lint/output/output.hpp"

namespace planlint {

// Every finding's message starts with the execution it belongs to:
// "execution 3 (save at etl.py:41): ...". `path` is a log file (plain or compressed) or a rolling
// log directory; `display` is what the report shows (default: `path`). `config.execution` picks
// one execution.
FileReport check_event_log(const std::string& path, const Config& config, const std::string& display = "");

// Standard input ("-"): streamed like a file when it starts like an event log, else read whole
// and checked as check_file("-") does.
FileReport check_stdin(const Config& config, const std::string& display = "-");

// "execution 3 (save at etl.py:41)": the execution of an event-log plan, as findings name it.
std::string execution_label(const Plan& plan);

}  // namespace planlint
