// Standard output with its errors kept: std::cout writes through a buffer of its own to
// descriptor 1, and the first write error (ENOSPC on a full disk, EPIPE from a reader that left
// with SIGPIPE ignored, EBADF when closed) is remembered, so that main() can say what failed and
// exit 2 instead of reporting success (reliability probe 2026-12, W3).
#pragma once

namespace planlint::cli {

// Makes std::cout write through the checked buffer. Called by main() and again after
// std::ios::sync_with_stdio(false), which installs buffers of its own.
void use_checked_stdout();

// Flushes standard output; 0, or the errno of the first write that failed.
int stdout_error();

}  // namespace planlint::cli
