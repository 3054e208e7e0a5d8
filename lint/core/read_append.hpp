// Reading a file's bytes into a std::string without zero-filling them first.
#pragma once

#include <cstddef>
#include <string>

namespace planlint {

// Appends up to `n` bytes read from `fd` to `data` (fewer when the file ends first; reads that a
// signal interrupts are retried). Returns how many were appended, or -1 on a read error (then
// `data` holds what was read before it). The bytes go straight from the read into the string's
// own room: growing the string with resize() would first write `n` zeros over it, which the golden
// plans' check paid for as 5.4 M instructions of memset (one a byte). C++23's
// `resize_and_overwrite` does that without the zeros; this one source file is compiled as C++23
// for it (CMakeLists.txt), and falls back to resize() where the library lacks it.
long long read_append(int fd, std::string& data, std::size_t n);

}  // namespace planlint
