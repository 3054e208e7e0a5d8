// Stable identities for findings, shared by the SARIF partialFingerprints and the baseline.
// A fingerprint must survive capturing the same plan again: Spark renumbers expression ids
// (`#123`), `plan_id=`, operator ids and moves lines, and measured numbers change from run to run.
// So it is built from the rule, the message, the fix, the operator name and the textual evidence,
// with all of those normalised away, never from line numbers or ids.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rules/rule.hpp"

namespace planlint {

// `customer_id#12L` -> `customer_id`, `plan_id=42` -> `plan_id=`, free-standing numbers with their
// unit (`1,234 B`, `2.1 GiB`, `3 min 20 s`, `1.5E+8`) -> `N`, runs of blanks -> one space.
std::string normalise_plan_text(std::string_view text);

// 16 hex digits (FNV-1a 64 over the normalised identity).
std::string fingerprint(const Diagnostic& d);

// fingerprint(d) + ":" + occurrence (1-based count of the same fingerprint earlier in the list),
// so identical findings on twin operators stay distinct, as GitHub's own line hashes do.
std::vector<std::string> fingerprints_with_occurrence(const std::vector<Diagnostic>& diags);

}  // namespace planlint
