// The output buffer of the commands' writers: bytes gathered into 64 KiB blocks, each full block
// handed to put() (an OutputFile for -o, descriptor 1 for standard output). A piece larger than
// the room left goes straight through after the buffered bytes. After put() fails nothing more
// is buffered: overflow() and sync() answer failure, so the stream sets its badbit.
#pragma once

#include <cstring>
#include <memory>
#include <streambuf>
#include <string_view>

namespace planlint::cli {

class BlockBuf : public std::streambuf {
 public:
  BlockBuf() : buf_(std::make_unique_for_overwrite<char[]>(kSize)) { reset(); }
  BlockBuf(const BlockBuf&) = delete;
  BlockBuf& operator=(const BlockBuf&) = delete;

 protected:
  // Writes `bytes`; false when they could not be written.
  virtual bool put(std::string_view bytes) = 0;

  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n > epptr() - pptr()) {
      if (!drain()) return 0;
      if (n >= static_cast<std::streamsize>(kSize)) return put(std::string_view(s, static_cast<std::size_t>(n))) ? n : 0;
    }
    std::memcpy(pptr(), s, static_cast<std::size_t>(n));
    pbump(static_cast<int>(n));
    return n;
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  static constexpr std::size_t kSize = std::size_t{1} << 16;
  void reset() { setp(buf_.get(), buf_.get() + kSize); }
  bool drain() {
    const bool ok = pptr() == pbase() || put(std::string_view(pbase(), static_cast<std::size_t>(pptr() - pbase())));
    reset();
    return ok;
  }
  std::unique_ptr<char[]> buf_;
};

}  // namespace planlint::cli
