#pragma once
// Reading one LSP message body into JSON, with the long strings (the document text of didOpen and
// of a full didChange) unescaped in runs rather than by nlohmann's byte-at-a-time lexer.
#include <string_view>

#include <nlohmann/json.hpp>

namespace planlint::lsp {

// The body as JSON; a discarded value (is_discarded()) when it is not valid JSON. The same value
// and the same validity as nlohmann::json::parse(body, nullptr, false): each string value of at
// least kLongString bytes that is valid (UTF-8, escapes, no raw control characters) is read here
// and the rest of the body by nlohmann, with that string standing in as a short placeholder; a
// string this reader does not accept is left to nlohmann, which says why.
nlohmann::json parse_message(std::string_view body);

inline constexpr std::size_t kLongString = 4096;

}  // namespace planlint::lsp
