// The Query Profile reader's entry point.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/plan.hpp"

namespace planlint {

// What the reader says about Query Profiles (model/plan.hpp): JSON, each operator at its node object.
inline constexpr InputTraits kQueryProfileTraits{
    .display_name = "Query Profile", .json = true, .operator_at_node_start = true};

// How the reader reads the JSON: its own scanner (nodes and edges read one at a time without a DOM,
// parser/profile/profile_json_scan.hpp) falling back to nlohmann's parser for any text the scanner
// does not accept (so damaged exports get nlohmann's messages), or nlohmann's parser alone (the
// reference the tests compare the scanner with). Both give the same result.
enum class ProfileJsonParser { Scanner, Nlohmann };

// Databricks Query Profile JSON export. `scanned`, when given, says whether the scanner read it.
// `input`, when given, owns `text` (ReadOptions::input): the plans then keep the string values the
// scanner finds unescaped in it (field values) as views of it, not copies, and keep it alive.
ParseResult parse_query_profile(std::string_view text, const std::string& path,
                                ProfileJsonParser how = ProfileJsonParser::Scanner, bool* scanned = nullptr,
                                std::shared_ptr<const std::string> input = nullptr);

// The same export read from a regular file open as `fd` (from its first byte; the descriptor stays
// the caller's) in pieces of `piece` bytes, never held whole: one pass counts its lines and finds
// the positions, a second reads it with the scanner, and the plans copy what they keep. The result
// is parse_query_profile's of the file's bytes; nullopt when the scanner does not vouch for them
// (invalid JSON, nesting deeper than the reader allows, a JSON text that is no export), on a read
// error, past `max_bytes`, or when the file changed between the passes: then the caller reads the
// file whole and calls parse_query_profile, which reports what is wrong.
std::optional<ParseResult> parse_query_profile_file(int fd, const std::string& path, double max_bytes,
                                                    std::size_t piece = std::size_t{1} << 16);

}  // namespace planlint
