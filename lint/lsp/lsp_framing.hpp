// LSP base protocol: `Content-Length: N\r\n\r\n<N bytes of JSON>` frames over a byte stream.
// The reader never trusts the peer: a frame without a valid Content-Length, an oversized frame
// or a truncated body is reported as a FrameStatus and the reader resynchronises on the next
// header, so one bad message never ends the session.
#pragma once

#include <cstddef>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>

namespace planlint::lsp {

enum class FrameStatus {
  Message,     // `body` holds one complete message
  BadHeader,   // headers without a usable Content-Length; `error` says why
  TooLarge,    // Content-Length above the limit; the body was skipped
  Truncated,   // the stream ended inside a body
  Eof,         // clean end of stream between frames
};

struct Frame {
  FrameStatus status = FrameStatus::Eof;
  std::string body;
  std::string error;
};

class FrameReader {
 public:
  explicit FrameReader(std::istream& in, std::size_t max_body_bytes = kDefaultMaxBody)
      : in_(in), max_body_(max_body_bytes) {}

  // Blocks until one frame (or the end of the stream) has been read.
  Frame read();
  // True when bytes are already buffered, i.e. the next read() will not wait for the peer.
  [[nodiscard]] bool has_buffered_input() const;

  static constexpr std::size_t kDefaultMaxBody = 256u << 20;  // 256 MiB
  static constexpr std::size_t kMaxHeaderLine = 8192;

 private:
  std::istream& in_;
  std::size_t max_body_;
};

// Writes one frame and flushes.
void write_frame(std::ostream& out, std::string_view body);

}  // namespace planlint::lsp
