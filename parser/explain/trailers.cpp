// Trailers: the `== Title ==` sections that are not a plan (Photon Explanation, Optimizer
// Statistics, Extended Information, a custom optimizer's section, anything else). Their text is
// kept as it is; the Photon Explanation and the optimizer statistics are read when the plan ends.
#include <string>

#include "parser/common/photon.hpp"
#include "parser/explain/explain_state.hpp"
#include "support/strings.hpp"

namespace planlint::explain {

void open_trailer(ExplainState& s, std::size_t i, std::string_view title) {
  Trailer tr;
  tr.title = std::string(title);
  tr.loc = s.n.range(i, 0, s.n.text(i).size());
  s.plan().trailers.push_back(std::move(tr));
  s.trailer = s.plan().trailers.size() - 1;
  if (title == "Photon Explanation") s.plan().photon.present = true;
}

bool has_trailer(const Plan& p, std::string_view title) {
  for (const auto& t : p.trailers)
    if (t.title == title) return true;
  return false;
}

void trailer_line(ExplainState& s, std::size_t i) {
  if (!s.trailer) return;
  Trailer& tr = s.plan().trailers[*s.trailer];
  if (!tr.text.empty() || !s.n.text(i).empty()) {
    if (!tr.text.empty()) tr.text += '\n';
    tr.text += s.n.text(i);
    tr.loc.end_line = s.n.line_number(i);
    tr.loc.end_column = s.n.column(i, s.n.text(i).size());
  }
}

void finish_trailers(Plan& p) {
  for (auto& tr : p.trailers)
    while (!tr.text.empty() && tr.text.back() == '\n') tr.text.pop_back();
  for (const auto& tr : p.trailers) {
    if (tr.title == "Photon Explanation") {
      parse_photon_explanation(tr.text, p.photon);
      p.photon.loc = tr.loc;
    } else if (tr.title.starts_with("Optimizer Statistics")) {
      std::string_view text = tr.text;
      std::size_t pos = 0;
      while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos) nl = text.size();
        std::string_view l = trim_spaces(text.substr(pos, nl - pos));
        if (!l.empty()) p.optimizer_statistics.emplace_back(l);
        pos = nl + 1;
      }
    }
  }
}

}  // namespace planlint::explain
