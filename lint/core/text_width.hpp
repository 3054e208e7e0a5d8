// Display widths of UTF-8 text in a terminal, for output that aligns or cuts lines: the caret under
// an operator name (lint/output/output_text.cpp), `show`'s tree cut to --width (lint/visual).
// utf8proc (Debian's libutf8proc-dev, the Unicode library of Julia and PostgreSQL's successor
// tables) gives each code point's width from Unicode's own tables: East Asian wide and fullwidth
// characters take 2 columns, combining marks and zero-width characters 0. Counting bytes (or
// code points) put carets under the wrong characters of a plan with a Chinese table name.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace planlint {

// Columns `s` takes in a terminal. Bytes that are not UTF-8 count one column each (as `visible`
// shows them escaped or replaced, never as nothing); a tab counts one (callers keep tabs as tabs).
std::size_t display_width(std::string_view s);

// `s` cut to at most `width` columns, the cut marked with `ellipsis` (counted in the width);
// never splits a code point, and keeps combining marks with their base character.
std::string fit_columns(std::string_view s, std::size_t width, std::string_view ellipsis = "…");

}  // namespace planlint
