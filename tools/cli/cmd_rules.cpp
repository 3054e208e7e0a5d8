// Placeholder: the 'rules' command is not registered yet.
#include "tools/cli/commands.hpp"

namespace planlint::cli {

void register_rules(CLI::App&, int&) {}

}  // namespace planlint::cli
