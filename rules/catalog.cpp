#include "rules/catalog.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <stdexcept>

namespace planlint {

void RuleCatalog::add(RuleGroup family) {
  if (this->family(family.name)) throw std::logic_error("rule family registered twice: " + family.name);
  std::set<std::string_view> seen;
  for (const RuleDoc* d : docs_) {
    seen.insert({d->name, d->code});
    seen.insert(d->aliases.begin(), d->aliases.end());
  }
  for (const RuleDoc* d : family.docs) {
    if (!d) throw std::logic_error("rule family " + family.name + " registers a null RuleDoc");
    std::vector<std::string_view> keys{d->name, d->code};
    keys.insert(keys.end(), d->aliases.begin(), d->aliases.end());
    for (std::string_view key : keys)
      if (!key.empty() && !seen.insert(key).second)
        throw std::logic_error("rule name or code registered twice: " + std::string(key));
    docs_.push_back(d);
  }
  families_.push_back(std::move(family));
}

const RuleGroup* RuleCatalog::family(std::string_view name) const {
  for (const auto& f : families_)
    if (f.name == name) return &f;
  return nullptr;
}

const RuleDoc* RuleCatalog::find(std::string_view name_or_code) const {
  for (const RuleDoc* d : docs_) {
    if (d->name == name_or_code || d->code == name_or_code) return d;
    for (const auto& a : d->also_reports)
      if (a.name == name_or_code || a.code == name_or_code) return d;
    for (const auto& a : d->aliases)
      if (a == name_or_code) return d;
  }
  return nullptr;
}

const RuleGroup* RuleCatalog::family_of(const RuleDoc& doc) const {
  for (const auto& f : families_)
    for (const RuleDoc* d : f.docs)
      if (d == &doc) return &f;
  return nullptr;
}

void register_plan_rules(RuleCatalog& catalog) {
  RuleGroup plan{"plan", {}};
  for (const auto& r : all_rules()) plan.docs.push_back(&r->doc());
  catalog.add(std::move(plan));
}

namespace {
// Written once at start-up, before any thread reads it; read-only afterwards.
std::atomic<const RuleCatalog*> g_catalog{nullptr};
}  // namespace

void install_rule_catalog(RuleCatalog catalog) {
  static std::unique_ptr<const RuleCatalog> owned;
  if (owned) throw std::logic_error("the rule catalogue is installed once");
  owned = std::make_unique<const RuleCatalog>(std::move(catalog));
  g_catalog.store(owned.get(), std::memory_order_release);
}

bool rule_catalog_installed() { return g_catalog.load(std::memory_order_acquire) != nullptr; }

const RuleCatalog& rule_catalog() {
  const RuleCatalog* c = g_catalog.load(std::memory_order_acquire);
  if (!c) {
    std::fputs("planlint: internal error: the rule catalogue was read before register_all_rules() "
               "(lint/catalog/all_rules.hpp) was called\n",
               stderr);
    std::abort();
  }
  return *c;
}

std::vector<std::string> names_for_selector(std::string_view name_or_code) {
  const RuleDoc* doc = find_rule_doc(name_or_code);
  if (!doc) return {};
  if (doc->code == name_or_code) return {doc->name};
  for (const auto& a : doc->also_reports)
    if (a.code == name_or_code) return {a.name};
  return {std::string(reported_name(name_or_code))};
}

std::string_view reported_name(std::string_view name) {
  if (const RuleDoc* doc = find_rule_doc(name))
    for (const auto& a : doc->aliases)
      if (a == name) return doc->name;
  return name;
}

}  // namespace planlint
