#include "parser/common/photon.hpp"

#include <cctype>

#include "support/strings.hpp"

namespace planlint {

namespace {


}  // namespace

void parse_photon_explanation(std::string_view text, PhotonExplanation& out) {
  out.present = true;
  bool refs = false;       // inside a "Reference node:" block
  bool fully = false;      // "... fully supported by Photon"
  bool not_fully = false;  // "Photon does not fully support ..."
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    std::size_t indent = 0;  // columns
    std::size_t i = 0;
    for (; i < line.size() && (line[i] == ' ' || line[i] == '\t'); ++i) indent = line[i] == '\t' ? indent + 8 - indent % 8 : indent + 1;
    std::string_view body = line.substr(i);
    if (body.empty() || body.starts_with("== Photon Explanation")) continue;
    if (body.find("does not fully support") != std::string_view::npos) not_fully = true;
    if (body.find("fully supported by Photon") != std::string_view::npos) {
      fully = true;
    } else if (istarts_with(body, "reference node")) {
      refs = true;
    } else if (indent > 0 && refs) {
      out.reference_nodes.emplace_back(body);
    } else if (indent > 0 && indent <= 8) {
      out.reasons.emplace_back(body);
    } else if (indent > 8 && !out.reasons.empty()) {
      out.reasons.back() += '\n';
      out.reasons.back() += body;
    } else if (indent == 0 && !body.starts_with("Photon does not fully support")) {
      refs = false;
    }
  }
  // Driver-side result operators: the rows they handle are the few returned to the driver.
  out.driver_side_only = !out.reference_nodes.empty();
  for (const std::string& r : out.reference_nodes) {
    const std::string_view name = std::string_view(r).substr(0, r.find_first_of(" [("));
    if (name != "CollectLimit" && name != "CollectTail") out.driver_side_only = false;
  }
  if (not_fully) out.fully_supported = false;
  else if (fully) out.fully_supported = true;
}

}  // namespace planlint
