#include "tools/cli/history_server_fetch.hpp"

#include <curl/curl.h>
#include <dlfcn.h>

#include <mutex>
#include <cctype>
#include <string_view>

#include "lint/output/sanitize.hpp"
#include "parser/registry/parse.hpp"

namespace planlint::cli {

namespace {

constexpr std::size_t kMaxBody = std::size_t{1} << 31;  // 2 GiB: no SQL answer is that large

std::size_t on_data(char* ptr, std::size_t size, std::size_t n, void* user) {
  auto* body = static_cast<std::string*>(user);
  std::size_t len = size * n;
  if (body->size() + len > kMaxBody) return 0;  // aborts the transfer (CURLE_WRITE_ERROR)
  body->append(ptr, len);
  return len;
}

std::string url_escape(const std::string& s) { return percent_encode_path(s); }

std::string first_line(const std::string& body) {
  std::string line = body.substr(0, body.find('\n'));
  for (char& c : line)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  if (line.size() > 200) line = line.substr(0, 200) + "...";
  return line;
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

}  // namespace

std::string history_server_sql_url(std::string base, const std::string& app, std::optional<long long> execution) {
  while (!base.empty() && base.back() == '/') base.pop_back();
  if (base.find("://") == std::string::npos) base = "http://" + base;
  const std::string api = "/api/v1";
  if (base.size() < api.size() || base.compare(base.size() - api.size(), api.size(), api) != 0) base += api;
  std::string url = base + "/applications/" + url_escape(app) + "/sql";
  if (execution) return url + "/" + std::to_string(*execution) + "?details=true&planDescription=true";
  // Spark 3.x lists 20 executions unless asked for more.
  return url + "?details=true&planDescription=true&offset=0&length=1000000";
}

std::optional<std::string> http_get(const std::string& url, const FetchOptions& opts, std::string& error) {
  const Curl* lib = load_curl(error);
  if (!lib) return std::nullopt;
  CURL* curl = lib->easy_init();
  if (!curl) {
    error = "cannot start libcurl";
    return std::nullopt;
  }
  std::string body;
  char curl_error[CURL_ERROR_SIZE] = {0};
  lib->easy_setopt(curl, CURLOPT_URL, url.c_str());
  lib->easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_data);
  lib->easy_setopt(curl, CURLOPT_WRITEDATA, &body);
  lib->easy_setopt(curl, CURLOPT_ERRORBUFFER, curl_error);
  lib->easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  lib->easy_setopt(curl, CURLOPT_MAXREDIRS, opts.max_redirects);
  lib->easy_setopt(curl, CURLOPT_TIMEOUT, opts.timeout_s);
  lib->easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, opts.connect_timeout_s);
  lib->easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  lib->easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // gzip when the server offers it
  lib->easy_setopt(curl, CURLOPT_USERAGENT, "planlint/" PLANLINT_VERSION);
#if LIBCURL_VERSION_NUM >= 0x075500
  lib->easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  lib->easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#endif
  if (opts.insecure) {
    lib->easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
    lib->easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  if (!opts.cacert.empty()) lib->easy_setopt(curl, CURLOPT_CAINFO, opts.cacert.c_str());
  struct curl_slist* headers = lib->slist_append(nullptr, "Accept: application/json");
  lib->easy_setopt(curl, CURLOPT_HTTPHEADER, headers);

  CURLcode rc = lib->easy_perform(curl);
  long status = 0;
  lib->easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  char* effective = nullptr;
  lib->easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &effective);
  std::string final_url = effective ? effective : url;
  lib->slist_free_all(headers);
  lib->easy_cleanup(curl);

  std::string detail = curl_error[0] ? std::string(curl_error) : std::string(lib->easy_strerror(rc));
  switch (rc) {
    case CURLE_OK: break;
    case CURLE_COULDNT_RESOLVE_HOST:
      error = url + ": cannot resolve the host (" + detail + "); check the --history-server URL";
      return std::nullopt;
    case CURLE_COULDNT_CONNECT:
      error = url + ": cannot connect (" + detail +
              "); is the History Server running there? (default port 18080, a live driver UI 4040)";
      return std::nullopt;
    case CURLE_OPERATION_TIMEDOUT:
      error = url + ": no complete answer within the timeout (" + detail + "); raise --timeout (now " +
              std::to_string(opts.timeout_s) + " s)";
      return std::nullopt;
    case CURLE_TOO_MANY_REDIRECTS:
      error = url + ": more than " + std::to_string(opts.max_redirects) + " redirects (last: " + final_url +
              "); check the URL, or a proxy/login page in front of the server";
      return std::nullopt;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_ISSUER_ERROR:
      error = url + ": TLS failed (" + detail +
              "); give the server's CA with --cacert FILE, or --insecure to skip verification";
      return std::nullopt;
    case CURLE_UNSUPPORTED_PROTOCOL:
      error = url + ": unsupported protocol (" + detail + "); use an http:// or https:// URL";
      return std::nullopt;
    case CURLE_WRITE_ERROR:
      error = url + ": the answer is larger than 2 GiB";
      return std::nullopt;
    default:
      error = url + ": " + detail;
      return std::nullopt;
  }
  if (status < 200 || status >= 300) {
    std::string line = first_line(body);
    error = final_url + ": HTTP " + std::to_string(status) + (line.empty() ? "" : " (" + line + ")");
    if (status == 404)
      error += "; check --app (the application id, e.g. app-20240101120000-0001; with attempts, APP/ATTEMPT) "
               "and --execution";
    else if (status == 401 || status == 403)
      error += "; the server wants authentication planlint does not send";
    return std::nullopt;
  }
  return body;
}

}  // namespace planlint::cli

namespace planlint::cli {

std::optional<std::string> fetch_history_server_sql(const std::string& base, const std::string& app,
                                                    std::optional<long long> execution, const FetchOptions& opts,
                                                    std::string& url, std::string& error) {
  url = history_server_sql_url(base, app, execution);
  std::optional<std::string> body = http_get(url, opts, error);
  if (!body) return std::nullopt;
  std::string_view trimmed = *body;
  while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.front()))) trimmed.remove_prefix(1);
  while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back()))) trimmed.remove_suffix(1);
  std::string compact;
  for (char ch : trimmed.substr(0, 64))
    if (!std::isspace(static_cast<unsigned char>(ch))) compact += ch;
  if (compact == "[]") {
    error = url + ": the application has no SQL executions";
    return std::nullopt;
  }
  if (detect_format(*body) != InputFormat::HistoryServer) {
    std::string head(trimmed.substr(0, 120));
    for (char& c : head)
      if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    error = url + ": the answer is not a History Server SQL answer (it starts `" + head +
            "`); is the URL the History Server's (or a driver UI's) root?";
    return std::nullopt;
  }
  return body;
}

}  // namespace planlint::cli
