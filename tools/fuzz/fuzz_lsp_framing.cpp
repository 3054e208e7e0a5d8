// libFuzzer target: arbitrary bytes into the LSP server's framing and JSON-RPC layers.
// Build: cmake -DPLANLINT_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ ... && ninja fuzz_lsp_framing
// The input follows an `initialize` request, so documents, hovers and edits are reachable.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "lint/lsp_server.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string init = [] {
    std::string body = R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}})";
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  }();
  std::istringstream in(init + std::string(reinterpret_cast<const char*>(data), size));
  std::ostringstream out;
  planlint::lsp::ServerOptions options;
  options.max_message_bytes = 1u << 20;
  options.max_document_bytes = 1u << 20;
  planlint::lsp::Server server(out, options);
  server.run(in);
  // Every message body is also handled directly, without framing.
  planlint::lsp::Server direct(out, options);
  direct.handle(std::string_view(reinterpret_cast<const char*>(data), size));
  direct.flush();
  return 0;
}
