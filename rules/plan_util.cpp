#include "rules/plan_util.hpp"

#include <cctype>
#include <cstdio>

#include "model/expr_util.hpp"
#include "model/plan_walk.hpp"
#include "support/strings.hpp"

namespace planlint {

// ---- join sides ----------------------------------------------------------------------------

std::set<std::string> side_names(const Plan& plan, const Operator& join, std::size_t child_pos) {
  std::set<std::string> out;
  const auto& keys = child_pos == 0 ? join.left_keys() : join.right_keys();
  for (const auto& k : keys) {
    if (!k.root) continue;
    for (const Expr* a : attributes_in(*k.root)) {
      std::string_view n = a->name;
      if (auto d = n.rfind('.'); d != std::string_view::npos) out.insert(lower(n.substr(0, d)));
    }
  }
  if (child_pos < join.children.size()) {
    if (const Operator* scan = single_scan_under(plan, join.children[child_pos])) {
      std::string t(scan->table());
      if (t.empty())
        if (const Field* f = scan->field(FieldRole::TableIdentifier)) t = f->value;
      if (!t.empty()) {
        out.insert(lower(t));
        if (auto d = t.rfind('.'); d != std::string::npos) out.insert(lower(t.substr(d + 1)));
      }
    }
  }
  return out;
}

TableKind table_kind(const Operator& scan) {
  if (!scan.scan) return TableKind::Unknown;
  switch (scan.scan->source) {
    case ScanSource::Delta: return TableKind::Delta;
    case ScanSource::Iceberg: return TableKind::Iceberg;
    case ScanSource::File:
    case ScanSource::Hive: return TableKind::Files;
    default: return TableKind::Unknown;
  }
}

std::string iceberg_rewrite_call(std::string_view table, std::string_view args) {
  // cat.db.t: the procedure lives in the catalog's `system` namespace, the table is named without it.
  std::string catalog = "<catalog>", name(table);
  std::size_t first = table.find('.');
  if (first != std::string_view::npos && table.find('.', first + 1) != std::string_view::npos) {
    catalog = std::string(table.substr(0, first));
    name = std::string(table.substr(first + 1));
  }
  return "CALL " + catalog + ".system.rewrite_data_files(table => '" + name + "'" +
         (args.empty() ? "" : ", " + std::string(args)) + ")";
}

}  // namespace planlint
