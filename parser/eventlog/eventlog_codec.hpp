// The compression codecs Spark writes event logs with (spark.eventLog.compress=true), read as a
// stream: each decoder hands out the decompressed bytes one bounded piece at a time.
//
//   zstd    zstd-jni ZstdOutputStream: standard zstd frames (libzstd)           `.zstd`
//   lz4     lz4-java LZ4BlockOutputStream: "LZ4Block" blocks (liblz4 raw blocks)  `.lz4`
//   snappy  snappy-java SnappyOutputStream: "\x82SNAPPY\0" + blocks (libsnappy)  `.snappy`
//   lz4 frame (the `lz4` command's format) and gzip (zlib; Databricks keeps its rolled logs as
//   `eventlog-<date>--<hh>-<mm>.gz`) are read too; lzf and the snappy framing format are
//   recognised and refused with a message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>

namespace planlint::eventlog {

// The codec a stream starts with: "zstd", "lz4", "lz4-frame", "snappy", "gzip", or for the one
// not read "snappy-framed"; empty for anything else (plain text).
std::string codec_of(std::string_view head);
bool codec_supported(const std::string& codec);

// XXH32 (lz4-java's block checksums are XXH32 with seed 0x9747b28c, masked to 28 bits).
std::uint32_t xxh32(const void* data, std::size_t len, std::uint32_t seed);
constexpr std::uint32_t kLz4BlockSeed = 0x9747b28cu;

// One input's bytes, decompressed. next() gives the next piece (valid until the following call)
// and false at the end or on an error (error() then says what is wrong).
class Decoder {
 public:
  virtual ~Decoder() = default;
  virtual bool next(std::string_view& out) = 0;
  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] const std::string& codec() const { return codec_; }

 protected:
  std::string error_;
  std::string codec_;
};

// A decoder for `in`, chosen by its first bytes (plain text passes through). For a codec that is
// recognised but not read, returns nullptr with `error` set.
std::unique_ptr<Decoder> make_decoder(std::istream& in, std::string& error);

}  // namespace planlint::eventlog
