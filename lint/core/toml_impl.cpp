// toml++'s compiled part (the parser, the formatters), built once here, in planlint's own objects.
//
// toml++ ships as headers plus Debian's libtomlplusplus.so; that library links the shared
// libstdc++, so linking it would load a second C++ runtime beside the static one the `planlint`
// executable carries (CMakeLists.txt, PLANLINT_STATIC_RUNTIME). Every other translation unit
// includes toml++ (through lint/core/toml.hpp, which repairs one lookup of toml++ 3.3) with
// TOML_HEADER_ONLY=0 (declarations only, the `planlint_toml` target); this one defines
// TOML_IMPLEMENTATION, which compiles the definitions.
#define TOML_IMPLEMENTATION
// toml++'s internal assertions off in every build, as in the release build: with assertions on
// (the sanitizer and fuzz builds), toml++ 3.3's parser asserts that a table header's first
// character starts a key (`[` then a NUL byte, found by tools/fuzz.sh: fuzz_regressions/config/),
// where its release build reports "expected bare key starting character" as it should.
#define TOML_ASSERT(expr) static_assert(true)
#include "lint/core/toml.hpp"
