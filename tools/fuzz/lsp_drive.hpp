// What the LSP framing fuzz target does with one input, shared with the regression test that
// replays its crash inputs: after an `initialize` request, the bytes go through the framed
// reader (`Server::run`) and, unframed, straight into `Server::handle`.
#pragma once

#include <sstream>
#include <string>
#include <string_view>

#include "lint/lsp/lsp_server.hpp"

namespace planlint::fuzz {

// Everything both servers wrote.
inline std::string drive_lsp_framing(std::string_view input) {
  static const std::string init = [] {
    std::string body = R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}})";
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  }();
  std::istringstream in(init + std::string(input));
  std::ostringstream out;
  lsp::ServerOptions options;
  options.max_message_bytes = 1u << 20;
  options.max_document_bytes = 1u << 20;
  lsp::Server server(out, options);
  server.run(in);
  lsp::Server direct(out, options);
  direct.handle(input);
  direct.flush();
  return out.str();
}

}  // namespace planlint::fuzz
