// LSP building blocks: Content-Length framing and SourceRange <-> LSP position mapping.
#include <doctest/doctest.h>

#include <random>
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

namespace {

// UTF-8 text with ASCII lines, lines with 2-, 3- and 4-byte characters, CRLF endings and empty
// lines, about `bytes` long.
std::string mixed_text(std::size_t bytes) {
  const char* lines[] = {"+- Project [a#1, b#2]\n", "   +- Scan parquet db.caf\xC3\xA9 (2)\r\n", "\n",
                         "Condition : (x#3 = \xE2\x82\xAC \xF0\x9F\x98\x80 y)\n", "(1) Filter\n", "\r\n",
                         "\xF0\x9F\x98\x80\xF0\x9F\x98\x80 \xC3\xA9\n"};
  std::string out;
  for (std::size_t i = 0; out.size() < bytes; ++i) out += lines[(i * 7 + i / 5) % 7];
  return out;
}

// The byte offset of LSP position (line, UTF-16 character) in `text`, clamped as the
// specification asks, computed from scratch without LineIndex.
std::size_t naive_offset(const std::string& text, std::size_t line, std::size_t character) {
  std::size_t at = 0;
  for (std::size_t l = 0; l < line; ++l) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string::npos) return text.size();
    at = nl + 1;
  }
  std::size_t eol = text.find('\n', at);
  if (eol == std::string::npos) eol = text.size();
  if (eol > at && text[eol - 1] == '\r') --eol;
  std::size_t units = 0;
  while (at < eol && units < character) {
    auto lead = static_cast<unsigned char>(text[at]);
    std::size_t n = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    units += n == 4 ? 2 : 1;
    at += n;
  }
  return at;
}

// Random single-character edits at character boundaries, as LSP positions: inserts of ASCII,
// multi-byte characters and line breaks, and deletions of one character (2 UTF-16 units for an
// emoji) or of one line break.
struct Edit {
  Position start, end;
  std::string text;
};

Edit random_edit(std::mt19937& rng, const LineIndex& idx) {
  // Half the edits near the start (every line start after them moves), half anywhere.
  std::size_t lines = idx.line_count();
  std::size_t line = rng() % 2 ? rng() % std::min<std::size_t>(lines, 50) : rng() % lines;
  std::string_view l = idx.line_text(static_cast<std::uint32_t>(line));
  // Character boundaries of the line, in UTF-16 units.
  std::vector<std::uint32_t> units{0};
  for (std::size_t i = 0; i < l.size();) {
    auto lead = static_cast<unsigned char>(l[i]);
    std::size_t n = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    units.push_back(units.back() + (n == 4 ? 2 : 1));
    i += n;
  }
  std::size_t k = rng() % units.size();
  Edit e;
  e.start = e.end = {static_cast<std::uint32_t>(line), units[k]};
  switch (rng() % 6) {
    case 0: e.text = "x"; break;
    case 1: e.text = "\xC3\xA9"; break;
    case 2: e.text = "\xF0\x9F\x98\x80"; break;
    case 3: e.text = "\n"; break;
    case 4:  // delete the character after the position, if any
      if (k + 1 < units.size()) e.end.character = units[k + 1];
      break;
    default:  // join with the next line (delete the line break)
      if (line + 1 < lines) e.end = {static_cast<std::uint32_t>(line + 1), 0};
      break;
  }
  return e;
}

}  // namespace

TEST_CASE("lsp text: LineIndex::edit after each edit equals an index built from scratch (issue 32 R2)") {
  std::mt19937 rng(32);
  std::string text = mixed_text(4000);
  LineIndex idx(text);
  for (int i = 0; i < 3000; ++i) {
    Edit e = random_edit(rng, idx);
    std::size_t b = idx.to_offset(e.start), end = idx.to_offset(e.end);
    REQUIRE(b == naive_offset(text, e.start.line, e.start.character));
    REQUIRE(end == naive_offset(text, e.end.line, e.end.character));
    replace_text(text, idx, b, end, e.text);
    REQUIRE(idx == LineIndex(text));
  }
  // Multi-line replacements, in both directions, and edits at the very end.
  replace_text(text, idx, 10, 900, "a\nb\r\nc\xC3\xA9\n");
  CHECK(idx == LineIndex(text));
  replace_text(text, idx, 5, 6, std::string(300, '\n'));
  CHECK(idx == LineIndex(text));
  replace_text(text, idx, text.size(), text.size(), "\ntail \xF0\x9F\x98\x80");
  CHECK(idx == LineIndex(text));
  replace_text(text, idx, 0, text.size(), "");
  CHECK(idx == LineIndex(text));
  CHECK(idx.line_count() == 1);
  replace_text(text, idx, 0, 0, "\xC3\xA9\n\n");
  CHECK(idx == LineIndex(text));
  CHECK(idx.to_position(1, 3) == Position{0, 1});
}

TEST_CASE("lsp text: many single-character edits on a large document match applying them naively (issue 32 R2)") {
  std::mt19937 rng(2026);
  std::string text = mixed_text(3u << 20);
  std::string naive = text;
  LineIndex idx(text);
  for (int i = 0; i < 400; ++i) {
    Edit e = random_edit(rng, idx);
    // The server's way: offsets from the index kept up to date, the string edited in place.
    std::size_t b = idx.to_offset(e.start), end = idx.to_offset(e.end);
    replace_text(text, idx, b, end, e.text);
    // The naive way: offsets computed from scratch, the text copied around the edit.
    std::size_t nb = naive_offset(naive, e.start.line, e.start.character);
    std::size_t ne = naive_offset(naive, e.end.line, e.end.character);
    REQUIRE(nb == b);
    REQUIRE(ne == end);
    naive = naive.substr(0, nb) + e.text + naive.substr(ne);
  }
  CHECK(text == naive);
  CHECK(idx == LineIndex(naive));
}
