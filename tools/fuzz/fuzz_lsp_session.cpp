// libFuzzer target: whole LSP sessions, without the 1 MiB message cap of fuzz_lsp_framing.
// The input is split on "\n--\n" into messages. Each message is framed with its true
// Content-Length unless it starts with '!' (then sent raw: bad frames, bodies without headers,
// short bodies). A message that starts with '^' followed by a decimal depth N has `{"a":` nested N
// deep (up to 200,000) spliced in for the text "@@" (deep `version`, `settings`, params).
// The session starts with `initialize` / `initialized` and ends with shutdown/exit. When every
// message was framed (and none was a shutdown or exit, nor held a frame header of its own), the
// final shutdown must be answered.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "lint/catalog/all_rules.hpp"
#include "lint/lsp/lsp_server.hpp"

namespace {

std::string frame(std::string_view body) { return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  planlint::register_all_rules();  // the rule catalogue (idempotent)
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string stream = frame(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}})") +
                       frame(R"({"jsonrpc":"2.0","method":"initialized","params":{}})");
  std::size_t pos = 0;
  bool all_framed = true;
  while (pos <= input.size()) {
    std::size_t sep = input.find("\n--\n", pos);
    std::string msg(input.substr(pos, sep == std::string_view::npos ? std::string_view::npos : sep - pos));
    pos = sep == std::string_view::npos ? input.size() + 1 : sep + 4;
    bool raw = !msg.empty() && msg[0] == '!';
    if (raw) msg.erase(0, 1);
    all_framed = all_framed && !raw && msg.find_first_of("\r\n") == std::string::npos;
    if (!msg.empty() && msg[0] == '^') {
      std::size_t i = 1, depth = 0;
      while (i < msg.size() && msg[i] >= '0' && msg[i] <= '9' && depth < 200000) depth = depth * 10 + (msg[i++] - '0');
      depth = std::min<std::size_t>(depth, 200000);
      msg.erase(0, i);
      std::string deep;
      deep.reserve(depth * 6 + 2);
      for (std::size_t k = 0; k < depth; ++k) deep += "{\"a\":";
      deep += "1";
      deep.append(depth, '}');
      if (auto at = msg.find("@@"); at != std::string::npos) msg.replace(at, 2, deep);
    }
    stream += raw ? msg : frame(msg);
  }
  // A clean end: whatever came before, the server must still answer this shutdown.
  stream += frame(R"({"jsonrpc":"2.0","id":"final-shutdown","method":"shutdown"})");
  stream += frame(R"({"jsonrpc":"2.0","method":"exit"})");
  std::istringstream in(stream);
  std::ostringstream out;
  planlint::lsp::Server server(out, planlint::lsp::ServerOptions{});
  server.run(in);
  auto has = [&](std::string_view w) { return input.find(w) != std::string_view::npos; };
  if (all_framed && !has("shutdown") && !has("exit") && !has("\\u") &&
      out.str().find("\"final-shutdown\"") == std::string::npos) {
    std::fprintf(stderr, "session invariant violated: the final shutdown was not answered\n");
    std::abort();
  }
  return 0;
}
