// Path globs for --include/--exclude and per-file-ignores, as in .gitignore and ruff:
//   `*` and `?` within one path component, `**` across components, `[a-z]` / `[!a-z]` classes;
//   a pattern without `/` matches the last component (the file or folder name) at any depth;
//   a pattern with `/` matches the whole path relative to the base folder (a leading `./` or `/` is
//   ignored); `dir/` matches the folder `dir`.
#pragma once

#include <string_view>

namespace planlint {

// `path` uses '/' separators and is relative to the pattern's base folder.
bool glob_match(std::string_view pattern, std::string_view path);

}  // namespace planlint
