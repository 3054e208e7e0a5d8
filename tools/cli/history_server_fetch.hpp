// Fetching a Spark History Server (or live driver UI) REST answer over HTTP(S) with libcurl, for
// `planlint check --history-server URL --app APP [--execution N]`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace planlint::cli {

// --timeout: refused outside this range (libcurl reads 0 as "never" and ignores values it rejects).
inline constexpr long kMinTimeoutS = 1;
inline constexpr long kMaxTimeoutS = 86400;

struct FetchOptions {
  long timeout_s = 60;          // whole transfer, kMinTimeoutS..kMaxTimeoutS
  long connect_timeout_s = 10;
  // The largest answer, counted after decompression (--max-input-size / max-input-size): a
  // Content-Length above it is refused before the body is read, a body that grows past it stops.
  double max_body_bytes = 2.0 * 1024 * 1024 * 1024;
  // A compressed answer may decode to at most this many times its size on the wire once it is
  // past kBombFloorBytes: a gzip or deflate bomb stops there with an error.
  double max_ratio = 200;
  bool insecure = false;        // do not verify the server's TLS certificate
  std::string cacert;           // CA bundle file (PEM) instead of the system's
  long max_redirects = 5;
};

inline constexpr double kBombFloorBytes = 16.0 * 1024 * 1024;

// `--app APP` or `APP/ATTEMPT` as path segments, each percent-encoded whole (dots too, so that
// no `..` reaches libcurl's dot-segment removal); nullopt with `error` set for an empty, `.` or
// `..` segment or more than two.
std::optional<std::string> app_path(const std::string& app, std::string& error);

// `base` + /api/v1/applications/<app>/sql[/<execution>]?details=true&planDescription=true, with
// `app` already from app_path. `base` may already end in /api/v1; a trailing '/' is dropped; a
// `?query` of `base` is kept after ours (proxies such as Knox want `?doAs=`), a `#fragment` dropped.
std::string history_server_sql_url(std::string base, const std::string& app, std::optional<long long> execution);

// `url` as planlint prints it (messages, finding paths, SARIF uri, annotations): userinfo shown
// as `***@`, the values of token-like query parameters (token, access_token, password, secret,
// key, sig, auth, session, ...) as `***`, and cut to `max` bytes with a note of the full length.
std::string redacted_url(std::string_view url, std::size_t max = 300);

// Why a fetch failed: nothing wrong (None); the server as a whole (it cannot be reached, it closed
// the connection or did not answer in time, TLS, a proxy's 502/503/504): asking it for another
// application is no use; or this one answer (an HTTP error such as 404, an answer that is not a
// SQL answer).
enum class FetchFailure { None, Server, Answer };

// What http_get learnt besides the body.
struct FetchInfo {
  std::string final_url;  // the URL that answered, after redirects
  long status = 0;        // the HTTP status (0: no answer)
  FetchFailure failure = FetchFailure::None;
};

// GET `url`. The body on HTTP 2xx, with `info` (when given) filled in; nullopt with `error` set to a sentence naming the URL (redacted), what went
// wrong and a hint (connection refused, timeout, TLS, too many redirects, too large, a
// decompression bomb, HTTP status + the server's first line). Text from the server or libcurl
// is shown through visible() (lint/core/sanitize.hpp).
std::optional<std::string> http_get(const std::string& url, const FetchOptions& opts, std::string& error,
                                    FetchInfo* info = nullptr);

// One application of `GET /api/v1/applications` (Spark's ApplicationInfo): its attempts as the
// server lists them (the latest first); an attempt id is empty where the cluster manager has none
// (local mode, standalone, a live driver UI).
struct AppAttempt {
  std::string id;
  long long start_ms = 0;  // startTimeEpoch
  bool completed = false;
};
struct AppInfo {
  std::string id, name;
  std::vector<AppAttempt> attempts;
};

// `base` + /api/v1/applications[/<app>], with `app` already from app_path.
std::string history_server_apps_url(std::string base, const std::string& app = "");

// GET /api/v1/applications: every application the server (or driver UI) lists. nullopt with
// `error` (naming the URL) and `failure` set when it cannot be read.
std::optional<std::vector<AppInfo>> fetch_history_server_apps(const std::string& base, const FetchOptions& opts,
                                                              std::string& error, FetchFailure* failure = nullptr);

// "A (attempts 2, 1), B, C" for messages: at most `max` applications, then how many more.
std::string apps_text(const std::vector<AppInfo>& apps, std::size_t max = 10);

// `check --history-server` and the MCP server's lint_history_server: GET the SQL answer of `app`
// (one execution when given) and make sure it is one. `url` receives the URL fetched. nullopt with
// `error` set (naming the URL) when the fetch fails, the application has no SQL executions, or the
// answer is not a History Server SQL answer (a login page, another server's root); `failure` says
// whether the server itself failed.
// An application with several attempts (YARN, Kubernetes with retries) has no SQL answer of its
// own (Spark answers 404 "no such app"): its attempts are looked up and the latest one is read,
// with `note` (when given) saying which and naming the others. An unknown application or attempt
// is an error that names what the server has.
std::optional<std::string> fetch_history_server_sql(const std::string& base, const std::string& app,
                                                    std::optional<long long> execution, const FetchOptions& opts,
                                                    std::string& url, std::string& error,
                                                    std::string* note = nullptr, FetchFailure* failure = nullptr);

}  // namespace planlint::cli
