#include "tools/cli/history_server_fetch.hpp"

#include <curl/curl.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <cctype>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "lint/core/sanitize.hpp"
#include "parser/registry/parse.hpp"

namespace planlint::cli {

namespace {

struct Curl;

// Where the body goes, and why it stopped growing.
struct Sink {
  std::string body;
  double max_bytes = 0;
  double max_ratio = 0;
  const Curl* lib = nullptr;
  void* curl = nullptr;
  enum class Stop { None, TooLarge, Bomb } stop = Stop::None;
  long long wire = 0;  // bytes on the wire when a bomb was stopped
};

std::size_t on_data(char* ptr, std::size_t size, std::size_t n, void* user);

std::string url_escape(const std::string& s) { return percent_encode_path(s); }

// Values in `url` that must never be printed: the userinfo (and its password alone) and the
// values of token-like query or fragment parameters.
bool secret_name(std::string_view name) {
  std::string low;
  for (char c : name) low += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (std::string_view w : {"token", "secret", "passw", "pwd", "pass", "key", "auth", "sig", "credential",
                             "session", "jwt", "bearer", "code", "ticket"})
    if (low.find(w) != std::string::npos) return true;
  return false;
}

struct UrlParts {
  std::size_t authority = 0, path = 0, query = std::string_view::npos, fragment = std::string_view::npos;
};

UrlParts split_url(std::string_view url) {
  UrlParts u;
  std::size_t scheme = url.find("://");
  u.authority = scheme == std::string_view::npos ? 0 : scheme + 3;
  u.path = std::min(url.find_first_of("/?#", u.authority), url.size());
  u.fragment = url.find('#', u.path);
  u.query = url.find('?', u.path);
  if (u.query != std::string_view::npos && u.fragment != std::string_view::npos && u.query > u.fragment)
    u.query = std::string_view::npos;
  return u;
}

// name=value pairs of a query (or fragment) with secret values replaced by ***; the values into
// `secrets` when given.
std::string redact_params(std::string_view q, std::vector<std::string>* secrets) {
  std::string out;
  std::size_t start = 0;
  while (start <= q.size()) {
    std::size_t amp = std::min(q.find('&', start), q.size());
    std::string_view param = q.substr(start, amp - start);
    std::size_t eq = param.find('=');
    if (start > 0) out += '&';
    if (eq != std::string_view::npos && secret_name(param.substr(0, eq)) && eq + 1 < param.size()) {
      out += std::string(param.substr(0, eq)) + "=***";
      if (secrets) secrets->emplace_back(param.substr(eq + 1));
    } else {
      out += param;
    }
    start = amp + 1;
  }
  return out;
}

std::vector<std::string> url_secrets(std::string_view url) {
  std::vector<std::string> secrets;
  UrlParts u = split_url(url);
  std::string_view authority = url.substr(u.authority, u.path - u.authority);
  if (std::size_t at = authority.rfind('@'); at != std::string_view::npos && at > 0) {
    std::string_view info = authority.substr(0, at);
    secrets.emplace_back(info);
    if (std::size_t colon = info.find(':'); colon != std::string_view::npos && colon + 1 < info.size())
      secrets.emplace_back(info.substr(colon + 1));
  }
  if (u.query != std::string_view::npos) {
    std::size_t end = u.fragment == std::string_view::npos ? url.size() : u.fragment;
    redact_params(url.substr(u.query + 1, end - u.query - 1), &secrets);
  }
  if (u.fragment != std::string_view::npos) redact_params(url.substr(u.fragment + 1), &secrets);
  // Longest first, so that "alice:pw" goes before "pw".
  std::sort(secrets.begin(), secrets.end(), [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  return secrets;
}

// `text` (a server's line, libcurl's message) with every secret of `url` shown as ***, then made
// safe for a terminal.
std::string scrubbed(std::string text, const std::string& url) {
  for (const std::string& s : url_secrets(url)) {
    if (s.size() < 2) continue;  // a one-letter password would blank every such letter
    for (std::size_t p = text.find(s); p != std::string::npos; p = text.find(s, p + 3)) text.replace(p, s.size(), "***");
  }
  return visible(text);
}

std::string first_line(const std::string& body, const std::string& url) {
  std::string line = body.substr(0, std::min(body.find('\n'), std::size_t{400}));
  for (char& c : line)
    if (c == '\r' || c == '\t') c = ' ';
  bool cut = line.size() > 200;
  if (cut) line.resize(200);
  return scrubbed(line, url) + (cut ? "..." : "");
}

// libcurl is opened when the first fetch is made, not linked: linking it loads about thirty shared
// libraries (TLS, Kerberos, LDAP, IDN, ...) at every start of planlint, some 8 ms of a 10 ms
// `planlint check` of a small plan, for a feature most runs never use. The header is still
// compiled against, for the types, options and error codes; the functions come from dlsym.
struct Curl {
  decltype(&curl_global_init) global_init = nullptr;
  decltype(&curl_easy_init) easy_init = nullptr;
  decltype(&curl_easy_setopt) easy_setopt = nullptr;
  decltype(&curl_easy_perform) easy_perform = nullptr;
  decltype(&curl_easy_getinfo) easy_getinfo = nullptr;
  decltype(&curl_easy_cleanup) easy_cleanup = nullptr;
  decltype(&curl_easy_strerror) easy_strerror = nullptr;
  decltype(&curl_slist_append) slist_append = nullptr;
  decltype(&curl_slist_free_all) slist_free_all = nullptr;
};

template <class F>
bool bind(void* lib, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  return f != nullptr;
}

// The library, loaded and initialised once; nullptr with `error` set when it cannot be.
const Curl* load_curl(std::string& error) {
  static Curl curl;
  static const Curl* loaded = nullptr;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [] {
    void* lib = nullptr;
    for (const char* name : {"libcurl.so.4", "libcurl.so"})
      if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
    if (!lib) {
      const char* why = dlerror();
      failure = std::string("fetching from a History Server needs libcurl (libcurl.so.4), which could not be loaded") +
                (why ? std::string(" (") + why + ")" : std::string()) +
                "; install it (Debian/Ubuntu: apt-get install libcurl4), or save the answer with curl and give "
                "planlint the file";
      return;
    }
    bool ok = bind(lib, "curl_global_init", curl.global_init) && bind(lib, "curl_easy_init", curl.easy_init) &&
              bind(lib, "curl_easy_setopt", curl.easy_setopt) && bind(lib, "curl_easy_perform", curl.easy_perform) &&
              bind(lib, "curl_easy_getinfo", curl.easy_getinfo) && bind(lib, "curl_easy_cleanup", curl.easy_cleanup) &&
              bind(lib, "curl_easy_strerror", curl.easy_strerror) &&
              bind(lib, "curl_slist_append", curl.slist_append) && bind(lib, "curl_slist_free_all", curl.slist_free_all);
    if (!ok) {
      failure = "the libcurl that was loaded lacks a function planlint uses; install libcurl4 7.x or later";
      return;
    }
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
      failure = "libcurl could not be initialised (curl_global_init failed)";
      return;
    }
    loaded = &curl;  // the library stays open for the life of the process
  });
  if (!loaded) error = failure;
  return loaded;
}

std::size_t on_data(char* ptr, std::size_t size, std::size_t n, void* user) {
  auto* sink = static_cast<Sink*>(user);
  std::size_t len = size * n;
  double after = static_cast<double>(sink->body.size()) + static_cast<double>(len);
  if (after > sink->max_bytes) {
    sink->stop = Sink::Stop::TooLarge;
    return 0;  // aborts the transfer (CURLE_WRITE_ERROR)
  }
  // What arrives here is decoded; CURLINFO_SIZE_DOWNLOAD_T counts the bytes on the wire.
  if (after > kBombFloorBytes && sink->max_ratio > 0) {
    curl_off_t wire = 0;
    if (sink->lib->easy_getinfo(sink->curl, CURLINFO_SIZE_DOWNLOAD_T, &wire) == CURLE_OK && wire > 0 &&
        after > sink->max_ratio * static_cast<double>(wire)) {
      sink->stop = Sink::Stop::Bomb;
      sink->wire = static_cast<long long>(wire);
      return 0;
    }
  }
  sink->body.append(ptr, len);
  return len;
}

std::string bytes_text(double b) {
  char buf[64];
  if (b >= 1024.0 * 1024 * 1024) std::snprintf(buf, sizeof buf, "%.1f GiB", b / (1024.0 * 1024 * 1024));
  else if (b >= 1024.0 * 1024) std::snprintf(buf, sizeof buf, "%.1f MiB", b / (1024.0 * 1024));
  else if (b >= 1024.0) std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024.0);
  else std::snprintf(buf, sizeof buf, "%.0f bytes", b);
  return buf;
}

// What went wrong with a transfer that ended in `rc` (empty for CURLE_OK): `shown` is the asked
// URL and `final_shown` the last one after redirects, both redacted; `detail` libcurl's message.
std::string transfer_error(CURLcode rc, const std::string& url, const std::string& shown,
                           const std::string& final_shown, const std::string& detail, const FetchOptions& opts,
                           const Sink& sink, curl_off_t length) {
  std::string error;
  const std::string limit = "--max-input-size / max-input-size, now " + bytes_text(sink.max_bytes);
  switch (rc) {
    case CURLE_OK: return "";
    case CURLE_COULDNT_RESOLVE_HOST:
      error = shown + ": cannot resolve the host (" + detail + "); check the --history-server URL";
      return error;
    case CURLE_COULDNT_CONNECT:
      error = shown + ": cannot connect (" + detail +
              "); is the History Server running there? (default port 18080, a live driver UI 4040)";
      return error;
    case CURLE_OPERATION_TIMEDOUT:
      error = shown + ": no complete answer within the timeout (" + detail + "); raise --timeout (now " +
              std::to_string(opts.timeout_s) + " s)";
      if (url.compare(0, 8, "https://") == 0) error += ", or is it an http:// server?";
      return error;
    case CURLE_TOO_MANY_REDIRECTS:
      error = shown + ": more than " + std::to_string(opts.max_redirects) + " redirects (last: " + final_shown +
              "); check the URL, or a proxy/login page in front of the server";
      return error;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_ISSUER_ERROR:
      error = shown + ": TLS failed (" + detail +
              "); give the server's CA with --cacert FILE, or --insecure to skip verification";
      return error;
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
      error = final_shown + ": the server closed the connection before the answer was complete (" + detail +
              "); did it stop or restart?";
      return error;
    case CURLE_UNSUPPORTED_PROTOCOL:
      error = shown + ": unsupported protocol (" + detail + "); use an http:// or https:// URL";
      return error;
    case CURLE_FILESIZE_EXCEEDED:
      error = final_shown + ": the answer is larger than the input size limit (Content-Length " +
              (length >= 0 ? bytes_text(static_cast<double>(length)) : std::string("too large")) + "; " + limit +
              "); refused before it was read";
      return error;
    case CURLE_WRITE_ERROR:
      if (sink.stop == Sink::Stop::Bomb)
        error = final_shown + ": the compressed answer decodes to more than " +
                std::to_string(static_cast<long long>(opts.max_ratio)) + " times its size (" +
                bytes_text(static_cast<double>(sink.body.size())) + " from " +
                bytes_text(static_cast<double>(sink.wire)) + " so far): refused as a decompression bomb";
      else
        error = final_shown + ": the answer is larger than the input size limit (" + limit + ")";
      return error;
    default:
      error = shown + ": " + detail;
      return error;
  }
}

}  // namespace

std::string redacted_url(std::string_view url, std::size_t max) {
  UrlParts u = split_url(url);
  std::string out(url.substr(0, u.authority));
  std::string_view authority = url.substr(u.authority, u.path - u.authority);
  if (std::size_t at = authority.rfind('@'); at != std::string_view::npos) out += "***@" + std::string(authority.substr(at + 1));
  else out += authority;
  std::size_t path_end = std::min({u.query, u.fragment, url.size()});
  out += url.substr(u.path, path_end - u.path);
  if (u.query != std::string_view::npos) {
    std::size_t end = u.fragment == std::string_view::npos ? url.size() : u.fragment;
    out += "?" + redact_params(url.substr(u.query + 1, end - u.query - 1), nullptr);
  }
  if (u.fragment != std::string_view::npos) out += "#" + redact_params(url.substr(u.fragment + 1), nullptr);
  if (out.size() > max) {
    std::size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
    out = out.substr(0, cut) + "... (" + std::to_string(url.size()) + " bytes)";
  }
  return out;
}

std::optional<std::string> app_path(const std::string& app, std::string& error) {
  std::vector<std::string> segments;
  std::size_t start = 0;
  while (true) {
    std::size_t slash = app.find('/', start);
    segments.push_back(app.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  if (segments.size() > 2) {
    error = "--app is APP or APP/ATTEMPT (an application id, e.g. app-20240101120000-0001, and an attempt id), not `" +
            visible(app) + "`";
    return std::nullopt;
  }
  std::string out;
  for (const auto& seg : segments) {
    if (seg.empty() || seg == "." || seg == "..") {
      error = "--app `" + visible(app) + "`: an application or attempt id is never empty, `.` or `..`";
      return std::nullopt;
    }
    out += (out.empty() ? "" : "/") + url_escape(seg);  // a segment has no '/': every reserved byte is encoded
  }
  return out;
}

namespace {

// `base` as `<scheme>://<host>[/path]/api/v1` (no trailing '/'), and its own query (without '?',
// to go after ours: proxies such as Knox want `?doAs=`); a fragment is never sent.
std::string api_root(std::string base, std::string& query) {
  query.clear();
  std::size_t after_scheme = base.find("://");
  after_scheme = after_scheme == std::string::npos ? 0 : after_scheme + 3;
  if (std::size_t h = base.find('#', after_scheme); h != std::string::npos) base.resize(h);
  if (std::size_t q = base.find('?', after_scheme); q != std::string::npos) {
    query = base.substr(q + 1);
    base.resize(q);
  }
  while (!query.empty() && query.front() == '&') query.erase(0, 1);
  while (!base.empty() && base.back() == '/') base.pop_back();
  if (base.find("://") == std::string::npos) base = "http://" + base;
  const std::string api = "/api/v1";
  if (base.size() < api.size() || base.compare(base.size() - api.size(), api.size(), api) != 0) base += api;
  return base;
}

}  // namespace

std::string history_server_sql_url(std::string base, const std::string& app, std::optional<long long> execution) {
  std::string query;
  base = api_root(std::move(base), query);
  std::string extra = query.empty() ? "" : "&" + query;
  std::string url = base + "/applications/" + app + "/sql";
  if (execution) return url + "/" + std::to_string(*execution) + "?details=true&planDescription=true" + extra;
  // Spark 3.x lists 20 executions unless asked for more.
  return url + "?details=true&planDescription=true&offset=0&length=1000000" + extra;
}

std::optional<std::string> http_get(const std::string& url, const FetchOptions& opts, std::string& error,
                                    FetchInfo* info_out) {
  FetchInfo ignored;
  FetchInfo& info = info_out ? *info_out : ignored;
  info = FetchInfo{url, 0, FetchFailure::Server};  // until the server has answered
  FetchFailure& failed = info.failure;
  const std::string shown = visible(redacted_url(url));
  const Curl* lib = load_curl(error);
  if (!lib) return std::nullopt;
  if (opts.timeout_s < kMinTimeoutS || opts.timeout_s > kMaxTimeoutS) {
    error = "--timeout must be " + std::to_string(kMinTimeoutS) + " to " + std::to_string(kMaxTimeoutS) + " seconds";
    return std::nullopt;
  }
  CURL* curl = lib->easy_init();
  if (!curl) {
    error = "cannot start libcurl";
    return std::nullopt;
  }
  Sink sink;
  sink.max_bytes = opts.max_body_bytes > 0 ? opts.max_body_bytes : 2.0 * 1024 * 1024 * 1024;
  sink.max_ratio = opts.max_ratio;
  sink.lib = lib;
  sink.curl = curl;
  char curl_error[CURL_ERROR_SIZE] = {0};
  // Every option is checked: one libcurl refuses (a timeout out of its range, an option this
  // libcurl lacks) must not leave the transfer without it.
  const char* refused = nullptr;
  auto set = [&](CURLoption o, auto v, const char* name) {
    if (lib->easy_setopt(curl, o, v) != CURLE_OK && !refused) refused = name;
  };
  set(CURLOPT_URL, url.c_str(), "the URL");
  set(CURLOPT_WRITEFUNCTION, on_data, "WRITEFUNCTION");
  set(CURLOPT_WRITEDATA, static_cast<void*>(&sink), "WRITEDATA");
  set(CURLOPT_ERRORBUFFER, curl_error, "ERRORBUFFER");
  set(CURLOPT_FOLLOWLOCATION, 1L, "FOLLOWLOCATION");
  set(CURLOPT_MAXREDIRS, opts.max_redirects, "MAXREDIRS");
  set(CURLOPT_TIMEOUT, opts.timeout_s, "--timeout");
  set(CURLOPT_CONNECTTIMEOUT, opts.connect_timeout_s, "CONNECTTIMEOUT");
  set(CURLOPT_NOSIGNAL, 1L, "NOSIGNAL");
  // Spark's Jetty compresses with gzip only. libcurl also decodes an encoding it was not offered,
  // so the size and ratio caps in on_data hold for any of them.
  set(CURLOPT_ACCEPT_ENCODING, "gzip", "ACCEPT_ENCODING");
  // A Content-Length above the cap is refused before the body is read.
  set(CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(sink.max_bytes), "--max-input-size");
  set(CURLOPT_USERAGENT, "planlint/" PLANLINT_VERSION, "USERAGENT");
#if LIBCURL_VERSION_NUM >= 0x075500
  set(CURLOPT_PROTOCOLS_STR, "http,https", "PROTOCOLS_STR");
  set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https", "REDIR_PROTOCOLS_STR");
#endif
  if (opts.insecure) {
    set(CURLOPT_SSL_VERIFYPEER, 0L, "--insecure");
    set(CURLOPT_SSL_VERIFYHOST, 0L, "--insecure");
  }
  if (!opts.cacert.empty()) set(CURLOPT_CAINFO, opts.cacert.c_str(), "--cacert");
  struct curl_slist* headers = lib->slist_append(nullptr, "Accept: application/json");
  set(CURLOPT_HTTPHEADER, headers, "HTTPHEADER");
  if (refused) {
    lib->slist_free_all(headers);
    lib->easy_cleanup(curl);
    error = shown + ": libcurl refused the setting " + refused + "; nothing was fetched";
    return std::nullopt;
  }

  CURLcode rc = lib->easy_perform(curl);
  long status = 0;
  lib->easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  char* effective = nullptr;
  lib->easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &effective);
  std::string final_url = effective ? effective : url;
  curl_off_t length = -1;
  lib->easy_getinfo(curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
  lib->slist_free_all(headers);
  lib->easy_cleanup(curl);
  const std::string final_shown = visible(redacted_url(final_url));
  info.final_url = final_url;
  info.status = status;

  std::string detail = scrubbed(curl_error[0] ? std::string(curl_error) : std::string(lib->easy_strerror(rc)), url);
  if (final_url != url) detail = scrubbed(detail, final_url);
  if (detail.size() > 400) detail = detail.substr(0, 400) + "...";
  error = transfer_error(rc, url, shown, final_shown, detail, opts, sink, length);
  if (!error.empty()) {
    // An answer over the size limit is this answer's; the rest (no connection, a connection
    // closed half-way, a timeout, TLS, redirects) is the server's.
    if (rc == CURLE_FILESIZE_EXCEEDED || rc == CURLE_WRITE_ERROR) failed = FetchFailure::Answer;
    return std::nullopt;
  }
  // A proxy in front of a server that is down answers 502, 503 or 504.
  failed = status == 502 || status == 503 || status == 504 ? FetchFailure::Server : FetchFailure::Answer;
  if (status < 200 || status >= 300) {
    std::string line = first_line(sink.body, final_url);
    error = final_shown + ": HTTP " + std::to_string(status) + (line.empty() ? "" : " (" + line + ")");
    if (status == 404 && final_url.find("/sql") != std::string::npos)
      error += "; check --app (the application id, e.g. app-20240101120000-0001; with attempts, APP/ATTEMPT) "
               "and --execution";
    else if (status == 401 || status == 403)
      error += "; the server wants authentication planlint does not send";
    return std::nullopt;
  }
  failed = FetchFailure::None;
  return std::move(sink.body);
}

}  // namespace planlint::cli

namespace planlint::cli {

std::string history_server_apps_url(std::string base, const std::string& app) {
  std::string query;
  base = api_root(std::move(base), query);
  std::string url = base + "/applications" + (app.empty() ? "" : "/" + app);
  return query.empty() ? url : url + "?" + query;
}

namespace {

// Spark's ApplicationInfo; nullopt for anything else.
std::optional<AppInfo> app_info_of(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  auto id = j.find("id");
  if (id == j.end() || !id->is_string()) return std::nullopt;
  AppInfo app;
  app.id = id->get<std::string>();
  if (auto name = j.find("name"); name != j.end() && name->is_string()) app.name = name->get<std::string>();
  if (auto attempts = j.find("attempts"); attempts != j.end() && attempts->is_array()) {
    const nlohmann::json& list = *attempts;
    for (const auto& a : list) {
      if (!a.is_object()) continue;
      AppAttempt attempt;
      if (auto aid = a.find("attemptId"); aid != a.end() && aid->is_string()) attempt.id = aid->get<std::string>();
      if (auto start = a.find("startTimeEpoch"); start != a.end() && start->is_number()) attempt.start_ms = start->get<long long>();
      if (auto done = a.find("completed"); done != a.end() && done->is_boolean()) attempt.completed = done->get<bool>();
      app.attempts.push_back(std::move(attempt));
    }
  }
  return app;
}

std::string answer_head(const std::string& body) {
  std::string head = body.substr(0, 120);
  for (char& c : head)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return visible(head);
}

// The attempts of `app` that have an id, as listed (the latest first).
std::vector<const AppAttempt*> named_attempts(const AppInfo& app) {
  std::vector<const AppAttempt*> out;
  for (const auto& a : app.attempts)
    if (!a.id.empty()) out.push_back(&a);
  return out;
}

std::string attempt_ids(const AppInfo& app) {
  std::string out;
  for (const AppAttempt* a : named_attempts(app)) out += (out.empty() ? "" : ", ") + visible(a->id);
  return out;
}

std::string utc_time(long long ms) {
  std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  if (ms <= 0 || !gmtime_r(&t, &tm)) return "";
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// GET /api/v1/applications/<app>: nullopt when it cannot be read (`info` says why).
std::optional<AppInfo> fetch_app(const std::string& base, const std::string& app, const FetchOptions& opts,
                                 std::string& error, FetchInfo& info) {
  std::optional<std::string> segment = app_path(app, error);
  if (!segment) return std::nullopt;
  std::optional<std::string> body = http_get(history_server_apps_url(base, *segment), opts, error, &info);
  if (!body) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(*body, nullptr, false);
  std::optional<AppInfo> out = app_info_of(j);
  if (!out) {
    info.failure = FetchFailure::Answer;
    error = visible(redacted_url(info.final_url)) + ": the answer is not an application (it starts `" + answer_head(*body) + "`)";
  }
  return out;
}

}  // namespace

std::string apps_text(const std::vector<AppInfo>& apps, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < apps.size() && i < max; ++i) {
    out += (i ? ", " : "") + visible(apps[i].id);
    std::string ids = attempt_ids(apps[i]);
    if (!ids.empty()) out += " (attempts " + ids + ")";
  }
  if (apps.size() > max) out += ", and " + std::to_string(apps.size() - max) + " more";
  return out;
}

std::optional<std::vector<AppInfo>> fetch_history_server_apps(const std::string& base, const FetchOptions& opts,
                                                              std::string& error, FetchFailure* failure) {
  FetchInfo info;
  std::optional<std::string> body = http_get(history_server_apps_url(base), opts, error, &info);
  if (failure) *failure = info.failure;
  if (!body) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(*body, nullptr, false);
  std::vector<AppInfo> apps;
  bool ok = j.is_array();
  if (ok) {
    const nlohmann::json& list = j;
    for (const auto& a : list) {
      std::optional<AppInfo> app = app_info_of(a);
      if (!app) {
        ok = false;
        break;
      }
      apps.push_back(std::move(*app));
    }
  }
  if (!ok) {
    if (failure) *failure = FetchFailure::Answer;
    error = visible(redacted_url(info.final_url)) + ": the answer is not a list of applications (it starts `" +
            answer_head(*body) + "`); is the URL the History Server's (or a driver UI's) root?";
    return std::nullopt;
  }
  return apps;
}

std::optional<std::string> fetch_history_server_sql(const std::string& base, const std::string& app,
                                                    std::optional<long long> execution, const FetchOptions& opts,
                                                    std::string& url, std::string& error, std::string* note,
                                                    FetchFailure* failure) {
  FetchFailure ignored = FetchFailure::None;
  FetchFailure& failed = failure ? *failure : ignored;
  failed = FetchFailure::Answer;
  std::optional<std::string> segment = app_path(app, error);
  if (!segment) return std::nullopt;
  const std::string requested = history_server_sql_url(base, *segment, execution);
  FetchInfo info;
  std::optional<std::string> body = http_get(requested, opts, error, &info);
  failed = info.failure;
  // Findings name the URL that answered (after redirects), never with its credentials (S1, W7).
  url = redacted_url(info.final_url.empty() ? requested : info.final_url, 2000);
  if (!body && info.status == 404) {
    // Spark answers 404 ("no such app") for an unknown application or attempt, and for the SQL of
    // an application with several attempts, which is the SQL of one of them: ask what it is.
    const std::size_t slash = app.find('/');
    const std::string app_id = app.substr(0, slash);
    std::string app_error;
    FetchInfo app_fetch;
    std::optional<AppInfo> known = fetch_app(base, app_id, opts, app_error, app_fetch);
    if (app_fetch.failure == FetchFailure::Server) failed = FetchFailure::Server;  // it stopped in between
    std::vector<const AppAttempt*> attempts = known ? named_attempts(*known) : std::vector<const AppAttempt*>{};
    if (known && slash == std::string::npos && !attempts.empty()) {
      const AppAttempt* latest = attempts.front();
      for (const AppAttempt* a : attempts)
        if (a->start_ms > latest->start_ms) latest = a;
      std::string bad;
      if (!app_path(app_id + "/" + latest->id, bad)) {
        error = visible(url) + ": the server lists an attempt `" + visible(latest->id) + "` of " + visible(app_id) +
                " that is no path segment; nothing more was asked";
        return std::nullopt;
      }
      std::optional<std::string> got =
          fetch_history_server_sql(base, app_id + "/" + latest->id, execution, opts, url, error, nullptr, failure);
      if (got && note) {
        std::string others;
        for (const AppAttempt* a : attempts)
          if (a != latest) others += (others.empty() ? "" : " or ") + visible(app_id + "/" + a->id);
        std::string started = utc_time(latest->start_ms);
        *note = visible(app_id) + " has " + std::to_string(attempts.size()) + " attempts (" + attempt_ids(*known) +
                "): checked the latest, " + visible(latest->id) + (started.empty() ? "" : " (started " + started + ")") +
                (latest->completed ? "" : ", still running") + "; --app " + others + " for " +
                (attempts.size() > 2 ? "another" : "the other");
      }
      return got;
    }
    if (known && slash != std::string::npos) {
      error += attempts.empty() ? "; " + visible(app_id) + " has no attempt ids: --app " + visible(app_id)
                                : "; the attempts of " + visible(app_id) + " are " + attempt_ids(*known);
    } else if (!known && app_fetch.status == 404) {
      FetchFailure list_failure = FetchFailure::None;
      std::string list_error;
      std::optional<std::vector<AppInfo>> apps = fetch_history_server_apps(base, opts, list_error, &list_failure);
      error = visible(url) + ": HTTP 404: no application `" + visible(app_id) + "` on this server" +
              (!apps ? std::string("")
               : apps->empty() ? std::string("; it lists none")
                               : "; it lists " + std::to_string(apps->size()) + ": " + apps_text(*apps, 5)) +
              (apps && apps->size() > 5 ? " (`planlint check --history-server URL` without --app names them all)" : "");
    }
    return std::nullopt;
  }
  if (!body) return std::nullopt;
  failed = FetchFailure::Answer;  // until the answer is known to be a SQL answer
  std::string_view trimmed = *body;
  while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.front()))) trimmed.remove_prefix(1);
  while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back()))) trimmed.remove_suffix(1);
  std::string compact;
  for (char ch : trimmed.substr(0, 64))
    if (!std::isspace(static_cast<unsigned char>(ch))) compact += ch;
  if (compact == "[]") {
    error = visible(url) + ": the application has no SQL executions";
    return std::nullopt;
  }
  if (detect_format(*body) != InputFormat::HistoryServer) {
    std::string head(trimmed.substr(0, 120));
    for (char& c : head)
      if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    error = visible(url) + ": the answer is not a History Server SQL answer (it starts `" + visible(head) +
            "`); is the URL the History Server's (or a driver UI's) root?";
    return std::nullopt;
  }
  failed = FetchFailure::None;
  return body;
}

}  // namespace planlint::cli
