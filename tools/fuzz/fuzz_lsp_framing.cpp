// libFuzzer target: arbitrary bytes into the LSP server's framing and JSON-RPC layers.
// Build: cmake -DPLANLINT_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ ... && ninja fuzz_lsp_framing
// The input follows an `initialize` request, so documents, hovers and edits are reachable; every
// message body is also handled directly, without framing (tools/fuzz/lsp_drive.hpp).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "lint/catalog/all_rules.hpp"
#include "tools/fuzz/lsp_drive.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  planlint::register_all_rules();  // the rule catalogue (idempotent)
  (void)planlint::fuzz::drive_lsp_framing(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
