// Placeholder: the 'lsp' command is not registered yet.
#include "tools/cli/commands.hpp"

namespace planlint::cli {

void register_lsp(CLI::App&, int&) {}

}  // namespace planlint::cli
