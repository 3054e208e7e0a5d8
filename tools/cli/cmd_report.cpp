// Placeholder: the 'report' command is not registered yet.
#include "tools/cli/commands.hpp"

namespace planlint::cli {

void register_report(CLI::App&, int&) {}

}  // namespace planlint::cli
