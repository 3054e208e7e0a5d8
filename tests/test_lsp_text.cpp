// LSP building blocks: Content-Length framing and SourceRange <-> LSP position mapping.
#include <doctest/doctest.h>

#include <sstream>

#include "lint/lsp/lsp_framing.hpp"
#include "lint/lsp/lsp_text.hpp"

using namespace planlint;
using namespace planlint::lsp;

TEST_CASE("lsp framing: reads consecutive frames, ignores other headers, tolerates bare \\n") {
  std::istringstream in(
      "Content-Length: 2\r\n\r\n{}"
      "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length:3\r\n\r\n[1]"
      "Content-Length: 4\n\nnull");
  FrameReader r(in);
  Frame a = r.read();
  CHECK(a.status == FrameStatus::Message);
  CHECK(a.body == "{}");
  Frame b = r.read();
  CHECK(b.status == FrameStatus::Message);
  CHECK(b.body == "[1]");
  Frame c = r.read();
  CHECK(c.status == FrameStatus::Message);
  CHECK(c.body == "null");
  CHECK(r.read().status == FrameStatus::Eof);
}

TEST_CASE("lsp framing: bad headers are reported and the next frame is still read") {
  std::istringstream in(
      "Content-Type: x\r\n\r\n"              // no Content-Length
      "Content-Length: 12abc\r\n\r\n"        // not a number
      "Content-Length: 2\r\n\r\n{}");
  FrameReader r(in);
  Frame a = r.read();
  CHECK(a.status == FrameStatus::BadHeader);
  CHECK(a.error == "frame without a Content-Length header");
  Frame b = r.read();
  CHECK(b.status == FrameStatus::BadHeader);
  CHECK(b.error == "invalid Content-Length '12abc'");
  Frame c = r.read();
  CHECK(c.status == FrameStatus::Message);
  CHECK(c.body == "{}");
}

TEST_CASE("lsp framing: oversized bodies are skipped, truncated bodies reported") {
  std::istringstream in("Content-Length: 10\r\n\r\n0123456789Content-Length: 1\r\n\r\n7Content-Length: 50\r\n\r\nabc");
  FrameReader r(in, 5);
  Frame a = r.read();
  CHECK(a.status == FrameStatus::TooLarge);
  CHECK(a.error == "message of 10 bytes exceeds the limit of 5 bytes");
  Frame b = r.read();
  CHECK(b.status == FrameStatus::Message);
  CHECK(b.body == "7");
  Frame c = r.read();
  CHECK(c.status == FrameStatus::Truncated);  // 50 > 5 is skipped, but only 3 bytes follow
  std::istringstream in2("Content-Length: 50\r\n\r\nabc");
  FrameReader r2(in2);
  Frame d = r2.read();
  CHECK(d.status == FrameStatus::Truncated);
  CHECK(d.error == "stream ended after 3 of 50 body bytes");
}

TEST_CASE("lsp framing: write_frame counts bytes, not characters") {
  std::ostringstream out;
  write_frame(out, "{\"a\":\"é\"}");
  CHECK(out.str() == "Content-Length: 10\r\n\r\n{\"a\":\"é\"}");
}

TEST_CASE("lsp positions: byte columns become UTF-16 columns") {
  // a (1 byte), é (2 bytes, 1 unit), 😀 (4 bytes, 2 units), b
  std::string text = "line one\r\na\xC3\xA9\xF0\x9F\x98\x80" "b\nlast";
  LineIndex idx(text);
  CHECK(idx.line_count() == 3);
  CHECK(idx.line_text(0) == "line one");
  CHECK(idx.line_text(2) == "last");
  CHECK(utf16_length("a\xC3\xA9\xF0\x9F\x98\x80") == 4);
  // 'b' is byte column 8 (1-based) of line 2.
  CHECK(idx.to_position(2, 8) == Position{1, 4});
  Range r = idx.to_range(SourceRange{2, 1, 2, 9});
  CHECK(r.start == Position{1, 0});
  CHECK(r.end == Position{1, 5});
  CHECK(idx.to_range(SourceRange{}) == Range{});
  // Back: UTF-16 column 4 is byte column 8.
  SourceRange s = idx.to_source(Position{1, 4});
  CHECK(s.line == 2);
  CHECK(s.column == 8);
  CHECK(idx.to_offset(Position{1, 4}) == text.find('b'));
  // Clamping: past the end of a line or of the text.
  CHECK(idx.to_position(1, 99) == Position{0, 8});
  CHECK(idx.to_position(40, 1) == Position{2, 4});
  CHECK(idx.to_offset(Position{9, 0}) == text.size());
}

TEST_CASE("lsp uris: percent-decoding and encoding of file URIs") {
  CHECK(uri_to_path("file:///tmp/a%20b/plan.txt") == "/tmp/a b/plan.txt");
  CHECK(uri_to_path("file://localhost/x/y") == "/x/y");
  CHECK(uri_to_path("untitled:Untitled-1") == "untitled:Untitled-1");
  CHECK(path_to_uri("/tmp/a b/é.txt") == "file:///tmp/a%20b/%C3%A9.txt");
  CHECK(uri_to_path(path_to_uri("/tmp/a b/é.txt")) == "/tmp/a b/é.txt");
}
