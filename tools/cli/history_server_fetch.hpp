// Fetching a Spark History Server (or live driver UI) REST answer over HTTP(S) with libcurl, for
// `planlint check --history-server URL --app APP [--execution N]`.
#pragma once

#include <optional>
#include <string>

namespace planlint::cli {

struct FetchOptions {
  long timeout_s = 60;          // whole transfer
  long connect_timeout_s = 10;
  bool insecure = false;        // do not verify the server's TLS certificate
  std::string cacert;           // CA bundle file (PEM) instead of the system's
  long max_redirects = 5;
};

// `base` + /api/v1/applications/<app>/sql[/<execution>]?details=true&planDescription=true.
// `base` may already end in /api/v1; a trailing '/' is dropped.
std::string history_server_sql_url(std::string base, const std::string& app, std::optional<long long> execution);

// GET `url`. The body on HTTP 2xx; nullopt with `error` set to a sentence naming the URL, what went
// wrong and a hint (connection refused, timeout, TLS, too many redirects, HTTP status + the
// server's first line).
std::optional<std::string> http_get(const std::string& url, const FetchOptions& opts, std::string& error);

// `check --history-server` and the MCP server's lint_history_server: GET the SQL answer of `app`
// (one execution when given) and make sure it is one. `url` receives the URL fetched. nullopt with
// `error` set (naming the URL) when the fetch fails, the application has no SQL executions, or the
// answer is not a History Server SQL answer (a login page, another server's root).
std::optional<std::string> fetch_history_server_sql(const std::string& base, const std::string& app,
                                                    std::optional<long long> execution, const FetchOptions& opts,
                                                    std::string& url, std::string& error);

}  // namespace planlint::cli
