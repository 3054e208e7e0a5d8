#include "tools/cli/history_server_fetch.hpp"

#include <curl/curl.h>

#include <mutex>

#include "lint/output/sanitize.hpp"

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
  static std::once_flag init;
  std::call_once(init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  CURL* curl = curl_easy_init();
  if (!curl) {
    error = "cannot start libcurl";
    return std::nullopt;
  }
  std::string body;
  char curl_error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_data);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, curl_error);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_MAXREDIRS, opts.max_redirects);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, opts.timeout_s);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, opts.connect_timeout_s);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // gzip when the server offers it
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "planlint/" PLANLINT_VERSION);
#if LIBCURL_VERSION_NUM >= 0x075500
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#endif
  if (opts.insecure) {
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  if (!opts.cacert.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, opts.cacert.c_str());
  struct curl_slist* headers = curl_slist_append(nullptr, "Accept: application/json");
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);

  CURLcode rc = curl_easy_perform(curl);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  char* effective = nullptr;
  curl_easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &effective);
  std::string final_url = effective ? effective : url;
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);

  std::string detail = curl_error[0] ? std::string(curl_error) : std::string(curl_easy_strerror(rc));
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
