// Placeholder: the 'check' command is not registered yet.
#include "tools/cli/commands.hpp"

namespace planlint::cli {

void register_check(CLI::App&, int&) {}

}  // namespace planlint::cli
