#include "lint/core/input_kind.hpp"

namespace planlint {

std::string_view input_kind(InputFormat format) {
  switch (format) {
    case InputFormat::QueryProfile: return "Query Profile";
    case InputFormat::EventLog: return "event log";
    case InputFormat::HistoryServer: return "History Server answer";
    case InputFormat::ExplainFormatted:
    case InputFormat::ExplainDefault:
    case InputFormat::ExplainExtended:
    case InputFormat::ExplainCost:
    case InputFormat::PhotonExplanation:
    case InputFormat::Unknown: break;
  }
  return "explain text";
}

}  // namespace planlint
