// The text of a file at a git revision (`git show REF:./NAME`, run in the file's folder), for
// `planlint check --against REF`. git is run directly (no shell), its errors are not shown.
#pragma once

#include <optional>
#include <string>

namespace planlint {

// nullopt when git is missing, the folder is not in a repository, or the file did not exist at `ref`.
std::optional<std::string> git_show(const std::string& ref, const std::string& path);

// True when `ref` names a commit in the repository of the current folder.
bool git_ref_exists(const std::string& ref);

}  // namespace planlint
