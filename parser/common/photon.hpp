// The text of Databricks' `== Photon Explanation ==`, wherever a reader finds it: a trailer of
// explain text (parser/explain/) or the `photonExplain` strings of a Query Profile
// (parser/profile/). One parser for both.
#pragma once

#include <string_view>

#include "model/plan.hpp"

namespace planlint {

// Adds what `text` says to `out` (present, fully_supported, reasons, reference_nodes); `loc` is the
// caller's. The layout Databricks prints:
//   Photon does not fully support the query because:      (or: The query is fully supported by Photon.)
//           UDF(name#2964) is not supported:              a reason (indented one tab)
//                   The expression `scalaudf` is ...      its continuation (indented deeper)
//   Reference node:
//           Project [id#2963L, UDF(name#2964) AS ...]     a reference node (indented)
// Leading tabs count to the next multiple of 8 columns, as explain-text repair expands them.
void parse_photon_explanation(std::string_view text, PhotonExplanation& out);

}  // namespace planlint
