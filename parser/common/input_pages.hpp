// Pages of an input buffer that a reader no longer needs, given back to the system while the input
// is still held. The plans of an input view its bytes (TextStore::view_input), so the input lives
// until the last plan is linted; but not every byte is viewed. A large formatted plan prints its
// tree first, and a deep tree's lines are mostly guides (`:  :  +- `): 13.1 of the 15.5 MB outline
// of a 100,000-operator plan (35.7 MB) are guides, and its operators keep only their ids and labels
// from it. The explain reader copies those (2.4 MB) into the plan's store while it reads such an
// outline, and gives the outline's pages back once it is read.
//
// Only the owner of the buffer knows whether anything reads those bytes again, so the owner opens
// an InputPages scope around the parse (on the parsing thread), naming the bytes it owns and lets
// go of. Without a scope (the language server, Python, a caller's string, an input kept for its
// source lines) a reader gives nothing back and views the input as before. Giving back a page of
// private anonymous memory (`madvise(MADV_DONTNEED)`) is safe for the allocator: the page reads as
// zeros afterwards and is mapped again when written. So a byte given back must never be read
// again: `Mode::Overwrite` (tests) overwrites every byte of the range instead, so that a reader
// that does read one again gives a different result.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace planlint {

class InputPages {
 public:
  enum class Mode : std::uint8_t {
    Release,    // whole pages inside a range go back to the system (madvise)
    Overwrite,  // every byte of a range is overwritten (tests: nothing may read it again)
  };

  // `data`/`size`: bytes the caller owns and will not read again once a reader gives them back.
  // `min_bytes`: the smallest range a reader gives back (a smaller one is not worth its copies).
  InputPages(char* data, std::size_t size, std::size_t min_bytes, Mode mode = Mode::Release) noexcept
      : data_(data), size_(size), min_bytes_(min_bytes), mode_(mode), previous_(current_) {
    current_ = this;
  }
  ~InputPages() { current_ = previous_; }
  InputPages(const InputPages&) = delete;
  InputPages& operator=(const InputPages&) = delete;

  // The scope open on this thread, or null.
  [[nodiscard]] static const InputPages* current() noexcept { return current_; }

  // Whether `range` lies in the owner's buffer and is large enough to give back.
  [[nodiscard]] bool may_release(std::string_view range) const noexcept {
    const auto b = reinterpret_cast<std::uintptr_t>(data_);
    const auto p = reinterpret_cast<std::uintptr_t>(range.data());
    return range.size() >= min_bytes_ && p >= b && p + range.size() <= b + size_;
  }

  // Gives `range` back (may_release must hold): in Release mode its whole pages (the bytes of the
  // pages it shares with its neighbours stay), in Overwrite mode every byte. Returns the bytes
  // given back. Nothing may read a byte of `range` afterwards.
  std::size_t release(std::string_view range) const noexcept {
    if (!may_release(range) || range.empty()) return 0;
    const auto p = reinterpret_cast<std::uintptr_t>(range.data());
    if (mode_ == Mode::Overwrite) {
      std::memset(data_ + (p - reinterpret_cast<std::uintptr_t>(data_)), '~', range.size());
      return range.size();
    }
    static const std::uintptr_t page = page_size();
    const std::uintptr_t first = (p + page - 1) & ~(page - 1), last = (p + range.size()) & ~(page - 1);
    if (last <= first) return 0;
    // The range is the owner's memory (may_release): pointer arithmetic within its buffer.
    char* at = data_ + (first - reinterpret_cast<std::uintptr_t>(data_));
    if (::madvise(at, last - first, MADV_DONTNEED) != 0) return 0;  // kept: only memory is lost
    return last - first;
  }

 private:
  static std::uintptr_t page_size() noexcept {
    const long n = ::sysconf(_SC_PAGESIZE);
    // A power of two; 4 KiB when the system does not say.
    return n > 0 && (n & (n - 1)) == 0 ? static_cast<std::uintptr_t>(n) : 4096;
  }

  char* data_;
  std::size_t size_;
  std::size_t min_bytes_;
  Mode mode_;
  const InputPages* previous_;
  constinit static inline thread_local const InputPages* current_ = nullptr;
};

}  // namespace planlint
