// toml++'s compiled part (the parser, the formatters), built once here, in planlint's own objects.
//
// toml++ ships as headers plus Debian's libtomlplusplus.so; that library links the shared
// libstdc++, so linking it would load a second C++ runtime beside the static one the `planlint`
// executable carries (CMakeLists.txt, PLANLINT_STATIC_RUNTIME). Every other translation unit
// includes <toml++/toml.h> with TOML_HEADER_ONLY=0 (declarations only, the `planlint_toml` target);
// this one defines TOML_IMPLEMENTATION, which compiles the definitions.
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
