// libFuzzer target: compressed event-log decoding (parser/eventlog/eventlog_codec.cpp).
// The first byte picks a mode:
//   mode 0-3  compress: the rest of the input, repeated up to a size near a multiple of the
//             decoders' buffers (128 KiB zstd output, 256 KiB lz4-frame output, lz4-java / snappy
//             blocks) picked by the second byte, is compressed with zstd / lz4-java / lz4 frame /
//             snappy-java, then decoded: the output must be the text, with no error.
//   other     decode: the rest is a (likely corrupt) compressed stream: no crash, no hang, and an
//             error rather than silence when the data ends inside a frame. Seeds are real
//             compressed logs (tools/fuzz.sh makes them).
#include <lz4.h>
#include <lz4frame.h>
#include <snappy.h>
#include <zstd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "lint/catalog/all_rules.hpp"
#include "parser/eventlog/eventlog.hpp"
#include "parser/eventlog/eventlog_codec.hpp"

namespace {

[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "codec invariant violated: %s\n", why.c_str());
  std::abort();
}

void put_le32(std::string& s, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) s += static_cast<char>((v >> (8 * i)) & 0xFF);
}
void put_be32(std::string& s, std::uint32_t v) {
  for (int i = 3; i >= 0; --i) s += static_cast<char>((v >> (8 * i)) & 0xFF);
}

std::string lz4_java(std::string_view text, std::size_t block) {
  int level = 0;
  while ((std::size_t{1} << (10 + level)) < block) ++level;
  std::string out;
  auto one = [&](std::string_view d) {
    std::string comp(static_cast<std::size_t>(LZ4_compressBound(static_cast<int>(d.size()))), '\0');
    int n = LZ4_compress_default(d.data(), comp.data(), static_cast<int>(d.size()), static_cast<int>(comp.size()));
    bool raw = n <= 0 || static_cast<std::size_t>(n) >= d.size();
    out += "LZ4Block";
    out += static_cast<char>((raw ? 0x10 : 0x20) | level);
    put_le32(out, static_cast<std::uint32_t>(raw ? d.size() : static_cast<std::size_t>(n)));
    put_le32(out, static_cast<std::uint32_t>(d.size()));
    put_le32(out, d.empty() ? 0 : planlint::eventlog::xxh32(d.data(), d.size(), planlint::eventlog::kLz4BlockSeed) & 0xFFFFFFFu);
    out += raw ? std::string(d) : comp.substr(0, static_cast<std::size_t>(n));
  };
  for (std::size_t i = 0; i < text.size(); i += block) one(text.substr(i, block));
  one({});
  return out;
}

std::string snappy_java(std::string_view text, std::size_t block) {
  std::string out("\x82SNAPPY\0", 8);
  put_be32(out, 1);
  put_be32(out, 1);
  for (std::size_t i = 0; i < text.size(); i += block) {
    std::string comp;
    snappy::Compress(text.data() + i, std::min(block, text.size() - i), &comp);
    put_be32(out, static_cast<std::uint32_t>(comp.size()));
    out += comp;
  }
  return out;
}

std::string decode(const std::string& data, std::string& error) {
  std::istringstream in(data);
  auto d = planlint::eventlog::make_decoder(in, error);
  std::string out;
  if (!d) return out;
  std::string_view piece;
  while (d->next(piece)) {
    out += piece;
    if (out.size() > (64u << 20)) fail("decoded more than 64 MiB from a small input");
  }
  error = d->error();
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  planlint::register_all_rules();  // the rule catalogue (idempotent)
  if (size < 2) return 0;
  const unsigned mode = data[0];
  std::string_view rest(reinterpret_cast<const char*>(data + 2), size - 2);
  if (mode >= 4) {
    std::string error;
    (void)decode(std::string(rest), error);
    // The streaming reader on top of it.
    std::istringstream in{std::string(rest)};
    (void)planlint::parse_event_log_stream(in, "fuzz.log", planlint::EventLogOptions{}, [](planlint::Plan&&) {});
    return 0;
  }
  if (rest.empty()) return 0;
  // A size near a buffer boundary: k x unit + delta, delta in [-8, 7].
  static constexpr std::size_t kUnits[] = {128u << 10, 256u << 10, 32u << 10, 64u << 10};
  const unsigned sel = data[1];
  const std::size_t unit = kUnits[sel & 3];
  const std::size_t k = 1 + ((sel >> 2) & 3);
  const std::ptrdiff_t delta = static_cast<std::ptrdiff_t>((sel >> 4) & 15) - 8;
  const std::size_t target = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(k * unit) + delta);
  std::string text;
  text.reserve(target);
  while (text.size() < target) text.append(rest.substr(0, target - text.size()));
  std::string comp;
  switch (mode) {
    case 0: {
      ZSTD_CCtx* cc = ZSTD_createCCtx();
      ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, sel & 1);
      comp.resize(ZSTD_compressBound(text.size()));
      std::size_t n = ZSTD_compress2(cc, comp.data(), comp.size(), text.data(), text.size());
      ZSTD_freeCCtx(cc);
      if (ZSTD_isError(n)) fail("zstd compression failed");
      comp.resize(n);
      break;
    }
    case 1: comp = lz4_java(text, std::size_t{32} << 10 << (sel & 3)); break;
    case 2: {
      LZ4F_preferences_t prefs{};
      static constexpr LZ4F_blockSizeID_t kBlocks[] = {LZ4F_max64KB, LZ4F_max256KB, LZ4F_max1MB, LZ4F_max4MB};
      prefs.frameInfo.blockSizeID = kBlocks[(sel >> 2) & 3];
      prefs.frameInfo.contentChecksumFlag = (sel & 1) ? LZ4F_contentChecksumEnabled : LZ4F_noContentChecksum;
      comp.resize(LZ4F_compressFrameBound(text.size(), &prefs));
      std::size_t n = LZ4F_compressFrame(comp.data(), comp.size(), text.data(), text.size(), &prefs);
      if (LZ4F_isError(n)) fail("lz4 frame compression failed");
      comp.resize(n);
      break;
    }
    default: comp = snappy_java(text, std::size_t{32} << 10 << (sel & 1)); break;
  }
  std::string error;
  std::string back = decode(comp, error);
  if (!error.empty()) fail("a valid stream (mode " + std::to_string(mode) + ", " + std::to_string(text.size()) + " bytes) gave: " + error);
  if (back != text) fail("a valid stream decoded to different bytes (mode " + std::to_string(mode) + ")");
  // Cut inside the last frame: an error, never silence. (lz4-java and snappy-java are cut inside
  // a block's data; zstd and lz4 frames before their end.)
  if (comp.size() > 24) {
    std::string cut = comp.substr(0, comp.size() - 5);
    (void)decode(cut, error);
    if (error.empty()) fail("a stream cut 5 bytes short decoded without an error (mode " + std::to_string(mode) + ")");
  }
  return 0;
}
