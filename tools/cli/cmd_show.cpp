// Placeholder: the 'show' command is not registered yet.
#include "tools/cli/commands.hpp"

namespace planlint::cli {

void register_show(CLI::App&, int&) {}

}  // namespace planlint::cli
