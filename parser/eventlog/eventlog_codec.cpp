// Streaming decoders for compressed Spark event logs (see eventlog_codec.hpp). Every buffer is
// bounded: a zstd window, one lz4-java block (at most 32 MiB by its header), one snappy-java
// chunk (at most 64 MiB here; Spark writes 32 KiB), never the whole file.
#include "parser/eventlog/eventlog_codec.hpp"

#include <lz4.h>
#include <lz4frame.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <istream>
#include <vector>

namespace planlint::eventlog {

namespace {

constexpr std::string_view kZstdMagic{"\x28\xB5\x2F\xFD", 4};
constexpr std::string_view kLz4BlockMagic{"LZ4Block", 8};
constexpr std::string_view kLz4FrameMagic{"\x04\x22\x4D\x18", 4};
constexpr std::string_view kSnappyMagic{"\x82SNAPPY\0", 8};
constexpr std::string_view kSnappyFramedMagic{"\xff\x06\x00\x00sNaPpY", 10};
constexpr std::string_view kGzipMagic{"\x1f\x8b", 2};

std::uint32_t le32(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}
std::uint32_t be32(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[3]) | static_cast<std::uint32_t>(p[2]) << 8 |
         static_cast<std::uint32_t>(p[1]) << 16 | static_cast<std::uint32_t>(p[0]) << 24;
}

// The raw bytes of one input: the head already read for detection, then the stream.
class Raw {
 public:
  Raw(std::istream& in, std::string head) : in_(in), head_(std::move(head)) {}
  // Up to n bytes; fewer only at the end of the input.
  std::size_t read(char* dst, std::size_t n) {
    std::size_t got = 0;
    if (pos_ < head_.size()) {
      got = std::min(n, head_.size() - pos_);
      std::memcpy(dst, head_.data() + pos_, got);
      pos_ += got;
    }
    while (got < n && in_) {
      in_.read(dst + got, static_cast<std::streamsize>(n - got));
      if (in_.gcount() <= 0) break;
      got += static_cast<std::size_t>(in_.gcount());
    }
    return got;
  }
  [[nodiscard]] bool failed() const { return in_.bad(); }

 private:
  std::istream& in_;
  std::string head_;
  std::size_t pos_ = 0;
};

constexpr std::size_t kPlainChunk = 256 * 1024;

class PlainDecoder : public Decoder {
 public:
  explicit PlainDecoder(Raw raw) : raw_(std::move(raw)), buf_(kPlainChunk) {}
  bool next(std::string_view& out) override {
    std::size_t n = raw_.read(buf_.data(), buf_.size());
    if (n == 0) {
      if (raw_.failed()) error_ = "read error";
      return false;
    }
    out = {buf_.data(), n};
    return true;
  }

 private:
  Raw raw_;
  std::vector<char> buf_;
};

class ZstdDecoder : public Decoder {
 public:
  explicit ZstdDecoder(Raw raw)
      : raw_(std::move(raw)), ds_(ZSTD_createDStream()), in_buf_(ZSTD_DStreamInSize()), out_buf_(ZSTD_DStreamOutSize()) {
    codec_ = "zstd";
    ZSTD_initDStream(ds_);
  }
  ~ZstdDecoder() override { ZSTD_freeDStream(ds_); }
  ZstdDecoder(const ZstdDecoder&) = delete;
  ZstdDecoder& operator=(const ZstdDecoder&) = delete;

  bool next(std::string_view& out) override {
    for (;;) {
      if (in_.pos == in_.size && !flush_) {
        if (eof_) {
          if (hint_ != 0) error_ = "the zstd data ends inside a frame (a truncated log, or one still being written)";
          return false;
        }
        std::size_t n = raw_.read(in_buf_.data(), in_buf_.size());
        if (n == 0) {
          if (raw_.failed()) {
            error_ = "read error";
            return false;
          }
          eof_ = true;
          continue;
        }
        in_ = {in_buf_.data(), n, 0};
      }
      ZSTD_outBuffer o{out_buf_.data(), out_buf_.size(), 0};
      std::size_t r = ZSTD_decompressStream(ds_, &o, &in_);
      if (ZSTD_isError(r)) {
        error_ = std::string("the zstd data is corrupt (") + ZSTD_getErrorName(r) + ")";
        return false;
      }
      // The decoder may hold more output for the same input when it filled the buffer, unless
      // the frame just ended (r == 0). Asking it again after a frame's end would report the
      // header size of a next frame, and a log ending there would look truncated.
      flush_ = o.pos == o.size && r != 0;
      hint_ = r;
      if (o.pos > 0) {
        out = {out_buf_.data(), o.pos};
        return true;
      }
    }
  }

 private:
  Raw raw_;
  ZSTD_DStream* ds_;
  std::vector<char> in_buf_, out_buf_;
  ZSTD_inBuffer in_{nullptr, 0, 0};
  std::size_t hint_ = 0;  // 0: at a frame boundary
  bool eof_ = false, flush_ = false;
};

// lz4-java LZ4BlockOutputStream: per block "LZ4Block", a token (method 0x10 stored / 0x20 lz4 |
// log2(block size) - 10), LE int32 compressed length, LE int32 length, LE int32 checksum
// (XXH32 seed 0x9747b28c & 0xFFFFFFF), then the data. An all-zero block ends one stream; Spark
// reads on after it (concatenated streams), as we do.
// The Java libraries' block layouts (lz4-java, snappy-java): a header per block, then the block
// compressed (read into in_) or stored, decompressed into out_.
class BlockDecoder : public Decoder {
 protected:
  BlockDecoder(Raw raw, const char* codec, const char* unit) : raw_(std::move(raw)), unit_(unit) { codec_ = codec; }
  bool fail(std::string message) {
    error_ = raw_.failed() ? "read error" : std::move(message);
    return false;
  }
  [[nodiscard]] std::string truncated() const {
    return "the " + codec_ + " data ends inside a " + unit_ + " (a truncated log, or one still being written)";
  }
  Raw raw_;
  std::vector<char> in_, out_;

 private:
  const char* unit_;
};

class Lz4BlockDecoder : public BlockDecoder {
 public:
  explicit Lz4BlockDecoder(Raw raw) : BlockDecoder(std::move(raw), "lz4", "block") {}

  bool next(std::string_view& out) override {
    for (;;) {
      unsigned char h[21];
      std::size_t n = raw_.read(reinterpret_cast<char*>(h), sizeof h);
      if (n == 0) return false;  // the end, at a block boundary
      if (n < sizeof h) return fail("the lz4 data ends inside a block header (a truncated log, or one still being written)");
      if (std::memcmp(h, kLz4BlockMagic.data(), 8) != 0) return fail("the lz4 data is corrupt (a block does not start with LZ4Block)");
      int method = h[8] & 0xF0;
      std::uint32_t max_len = 1u << (10 + (h[8] & 0x0F));
      std::uint32_t clen = le32(h + 9), len = le32(h + 13), check = le32(h + 17);
      if ((method != 0x10 && method != 0x20) || len > max_len || clen > static_cast<std::uint32_t>(LZ4_compressBound(static_cast<int>(max_len))) ||
          (len == 0) != (clen == 0) || (method == 0x10 && len != clen))
        return fail("the lz4 data is corrupt (a block header is invalid)");
      if (len == 0) {
        if (check != 0) return fail("the lz4 data is corrupt (a block header is invalid)");
        continue;  // end of one stream; another may follow
      }
      if (out_.size() < len) out_.resize(len);
      if (method == 0x10) {
        if (raw_.read(out_.data(), len) != len) return fail(truncated());
      } else {
        if (in_.size() < clen) in_.resize(clen);
        if (raw_.read(in_.data(), clen) != clen) return fail(truncated());
        int got = LZ4_decompress_safe(in_.data(), out_.data(), static_cast<int>(clen), static_cast<int>(len));
        if (got < 0 || static_cast<std::uint32_t>(got) != len) return fail("the lz4 data is corrupt (a block does not decompress)");
      }
      if ((xxh32(out_.data(), len, kLz4BlockSeed) & 0xFFFFFFFu) != check)
        return fail("the lz4 data is corrupt (a block checksum does not match)");
      out = {out_.data(), len};
      return true;
    }
  }
};

// The lz4 command's frame format (not what Spark writes, but what `lz4 app.eventlog` makes).
class Lz4FrameDecoder : public Decoder {
 public:
  explicit Lz4FrameDecoder(Raw raw) : raw_(std::move(raw)), in_buf_(64 * 1024), out_buf_(256 * 1024) {
    codec_ = "lz4-frame";
    if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx_, LZ4F_VERSION))) ctx_ = nullptr;
  }
  ~Lz4FrameDecoder() override {
    if (ctx_) LZ4F_freeDecompressionContext(ctx_);
  }
  Lz4FrameDecoder(const Lz4FrameDecoder&) = delete;
  Lz4FrameDecoder& operator=(const Lz4FrameDecoder&) = delete;

  bool next(std::string_view& out) override {
    if (!ctx_) {
      error_ = "cannot create an lz4 decoder";
      return false;
    }
    for (;;) {
      if (pos_ == size_ && !flush_) {
        size_ = raw_.read(in_buf_.data(), in_buf_.size());
        pos_ = 0;
        if (size_ == 0) {
          if (raw_.failed()) error_ = "read error";
          else if (hint_ != 0) error_ = "the lz4 data ends inside a frame (a truncated log?)";
          return false;
        }
      }
      std::size_t out_size = out_buf_.size(), in_size = size_ - pos_;
      std::size_t r = LZ4F_decompress(ctx_, out_buf_.data(), &out_size, in_buf_.data() + pos_, &in_size, nullptr);
      if (LZ4F_isError(r)) {
        error_ = std::string("the lz4 data is corrupt (") + LZ4F_getErrorName(r) + ")";
        return false;
      }
      pos_ += in_size;
      hint_ = r;
      flush_ = out_size == out_buf_.size() && r != 0;  // r == 0: the frame ended, nothing is held
      if (out_size > 0) {
        out = {out_buf_.data(), out_size};
        return true;
      }
    }
  }

 private:
  Raw raw_;
  LZ4F_dctx* ctx_ = nullptr;
  std::vector<char> in_buf_, out_buf_;
  std::size_t pos_ = 0, size_ = 0, hint_ = 0;
  bool flush_ = false;
};

// gzip (RFC 1952) through zlib: not what Spark writes, but how Databricks keeps its rolled logs
// (`eventlog-2021-06-15--15-00.gz`) and what `gzip app.eventlog` makes. Several members in a row
// (concatenated `.gz` files) are read on, as `gzip -d` does.
class GzipDecoder : public Decoder {
 public:
  explicit GzipDecoder(Raw raw) : raw_(std::move(raw)), in_buf_(64 * 1024), out_buf_(256 * 1024) {
    codec_ = "gzip";
    ok_ = inflateInit2(&zs_, 16 + MAX_WBITS) == Z_OK;
  }
  ~GzipDecoder() override {
    if (ok_) inflateEnd(&zs_);
  }
  GzipDecoder(const GzipDecoder&) = delete;
  GzipDecoder& operator=(const GzipDecoder&) = delete;

  bool next(std::string_view& out) override {
    if (!ok_) {
      error_ = "cannot create a gzip decoder";
      return false;
    }
    for (;;) {
      if (zs_.avail_in == 0) {
        std::size_t n = raw_.read(in_buf_.data(), in_buf_.size());
        if (n == 0) {
          if (raw_.failed()) error_ = "read error";
          else if (in_member_) error_ = "the gzip data ends inside a member (a truncated log?)";
          return false;
        }
        zs_.next_in = reinterpret_cast<Bytef*>(in_buf_.data());
        zs_.avail_in = static_cast<uInt>(n);
      }
      if (!in_member_) {
        // Bytes after a finished member: another member, or trailing padding (zeros) that gzip -d
        // ignores too.
        if (zs_.next_in[0] != 0x1f) {
          zs_.avail_in = 0;
          continue;
        }
        in_member_ = true;
      }
      zs_.next_out = reinterpret_cast<Bytef*>(out_buf_.data());
      zs_.avail_out = static_cast<uInt>(out_buf_.size());
      int r = inflate(&zs_, Z_NO_FLUSH);
      std::size_t produced = out_buf_.size() - zs_.avail_out;
      if (r == Z_STREAM_END) {
        in_member_ = false;
        inflateReset(&zs_);
      } else if (r != Z_OK && !(r == Z_BUF_ERROR && (produced > 0 || zs_.avail_in == 0))) {
        error_ = std::string("the gzip data is corrupt (") + (zs_.msg ? zs_.msg : "inflate failed") + ")";
        return false;
      }
      if (produced > 0) {
        out = {out_buf_.data(), produced};
        return true;
      }
    }
  }

 private:
  Raw raw_;
  z_stream zs_{};
  bool ok_ = false, in_member_ = false;
  std::vector<char> in_buf_, out_buf_;
};

// snappy-java SnappyOutputStream: "\x82SNAPPY\0", BE int32 version, BE int32 compatible version,
// then chunks of BE int32 length + one raw snappy block. A header may appear again in place of a
// length (concatenated streams), as snappy-java's reader allows.
class SnappyDecoder : public BlockDecoder {
 public:
  explicit SnappyDecoder(Raw raw) : BlockDecoder(std::move(raw), "snappy", "chunk") {}

  bool next(std::string_view& out) override {
    constexpr std::uint32_t kMaxChunk = 64u << 20;
    for (;;) {
      unsigned char h[4];
      std::size_t n = raw_.read(reinterpret_cast<char*>(h), 4);
      if (n == 0) return false;
      if (n < 4) return fail(truncated());
      if (std::memcmp(h, kSnappyMagic.data(), 4) == 0) {
        unsigned char rest[12];
        if (raw_.read(reinterpret_cast<char*>(rest), 12) != 12) return fail(truncated());
        if (std::memcmp(rest, kSnappyMagic.data() + 4, 4) != 0)
          return fail("the snappy data is corrupt (a bad stream header)");
        if (be32(rest + 8) > 1) return fail("the snappy data needs a newer snappy-java format than version 1");
        continue;
      }
      std::uint32_t clen = be32(h);
      if (clen == 0 || clen > kMaxChunk) return fail("the snappy data is corrupt (a chunk length is invalid)");
      if (in_.size() < clen) in_.resize(clen);
      if (raw_.read(in_.data(), clen) != clen) return fail(truncated());
      std::size_t len = 0;
      if (!snappy::GetUncompressedLength(in_.data(), clen, &len) || len > kMaxChunk)
        return fail("the snappy data is corrupt (a chunk length is invalid)");
      if (out_.size() < len) out_.resize(len);
      if (!snappy::RawUncompress(in_.data(), clen, out_.data())) return fail("the snappy data is corrupt (a chunk does not decompress)");
      if (len == 0) continue;
      out = {out_.data(), len};
      return true;
    }
  }
};

inline std::uint32_t rotl(std::uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

}  // namespace

std::string codec_of(std::string_view head) {
  if (head.starts_with(kZstdMagic)) return "zstd";
  if (head.starts_with(kLz4BlockMagic)) return "lz4";
  if (head.starts_with(kLz4FrameMagic)) return "lz4-frame";
  if (head.starts_with(kSnappyMagic)) return "snappy";
  if (head.starts_with(kSnappyFramedMagic)) return "snappy-framed";
  if (head.starts_with(kGzipMagic)) return "gzip";
  return "";
}

bool codec_supported(const std::string& codec) {
  return codec.empty() || codec == "zstd" || codec == "lz4" || codec == "lz4-frame" || codec == "snappy" || codec == "gzip";
}

std::uint32_t xxh32(const void* data, std::size_t len, std::uint32_t seed) {
  constexpr std::uint32_t p1 = 2654435761u, p2 = 2246822519u, p3 = 3266489917u, p4 = 668265263u, p5 = 374761393u;
  const auto* p = static_cast<const unsigned char*>(data);
  const unsigned char* end = p + len;
  std::uint32_t h;
  if (len >= 16) {
    std::uint32_t v1 = seed + p1 + p2, v2 = seed + p2, v3 = seed, v4 = seed - p1;
    auto round = [&](std::uint32_t v, const unsigned char* q) { return rotl(v + le32(q) * p2, 13) * p1; };
    for (; end - p >= 16; p += 16) {
      v1 = round(v1, p);
      v2 = round(v2, p + 4);
      v3 = round(v3, p + 8);
      v4 = round(v4, p + 12);
    }
    h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
  } else {
    h = seed + p5;
  }
  h += static_cast<std::uint32_t>(len);
  for (; end - p >= 4; p += 4) h = rotl(h + le32(p) * p3, 17) * p4;
  for (; p < end; ++p) h = rotl(h + *p * p5, 11) * p1;
  h ^= h >> 15;
  h *= p2;
  h ^= h >> 13;
  h *= p3;
  h ^= h >> 16;
  return h;
}

std::unique_ptr<Decoder> make_decoder(std::istream& in, std::string& error) {
  std::string head(16, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
  std::string codec = codec_of(head);
  Raw raw(in, head);
  if (codec.empty()) return std::make_unique<PlainDecoder>(std::move(raw));
  if (codec == "zstd") return std::make_unique<ZstdDecoder>(std::move(raw));
  if (codec == "lz4") return std::make_unique<Lz4BlockDecoder>(std::move(raw));
  if (codec == "lz4-frame") return std::make_unique<Lz4FrameDecoder>(std::move(raw));
  if (codec == "snappy") {
    if (head.size() < 16) {
      error = "the snappy data ends inside its stream header (a truncated log?)";
      return nullptr;
    }
    if (be32(reinterpret_cast<const unsigned char*>(head.data()) + 12) > 1) {
      error = "the snappy data needs a newer snappy-java format than version 1";
      return nullptr;
    }
    return std::make_unique<SnappyDecoder>(Raw(in, ""));  // the 16-byte header is read
  }
  if (codec == "gzip") return std::make_unique<GzipDecoder>(std::move(raw));
  error = "this is a " + codec + "-compressed file, a codec Spark does not write event logs with: decompress it first (" +
          "a snappy tool)";
  return nullptr;
}

}  // namespace planlint::eventlog
