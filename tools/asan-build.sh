# shellcheck shell=bash
# The ASan+UBSan build (build-asan/), sourced by tools/test.sh --sanitize (which runs the test suite
# on it) and tools/fuzz.sh (which fuzzes the libFuzzer targets of the same objects): one build
# of the libraries serves both, where the fuzz stage used to compile them a second time.
#  - clang: libFuzzer is clang's; clang also compiled the instrumented sources 22 % faster than GCC
#    (a batch of tests: 82 s against 104 s of CPU).
#  - -fsanitize=fuzzer-no-link: the coverage the fuzz targets need, compiled into every object; the
#    CLI and the tests link the sanitizer runtime's no-op callbacks for it.
#  - Debug at -O1 with line tables: assertions on, as ASan advises -O1 (-O0 ran the suite three
#    times slower); the libraries in unity batches (PLANLINT_UNITY, see CMakeLists.txt).
# Usage: . tools/asan-build.sh; tools/setup-deps.sh --build-only "${asan_packages[@]}"; asan_configure
#        (from the source root)
asan_build=build-asan
asan_flags=(-DCMAKE_CXX_COMPILER=clang++ -DPLANLINT_SANITIZE=ON -DPLANLINT_UNITY=ON -DPLANLINT_FUZZ=ON
            -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" -DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link)

# The Debian packages it needs beyond the build's own (tools/setup-deps.sh installs them when
# missing): clang and its libFuzzer and sanitizer runtimes.
asan_packages=(clang libclang-rt-14-dev)

asan_configure() {
  cmake -S . -B "$asan_build" -G Ninja "${asan_flags[@]}" >/dev/null
}
