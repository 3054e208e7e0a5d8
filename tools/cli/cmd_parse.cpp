// Placeholder: the 'parse' command is not registered yet.
#include "tools/cli/commands.hpp"

namespace planlint::cli {

void register_parse(CLI::App&, int&) {}

}  // namespace planlint::cli
