#include "model/engine_regions.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

#include "model/plan_walk.hpp"

namespace planlint {

namespace {

// A native operator that does the work (not a conversion, not a transparent operator).
bool native_worker(const Operator& o, const std::vector<char>& native) {
  return native[o.index] && o.kind != OpKind::Transition && !is_transparent(o);
}

// native_below by an iterative post-order walk over children and reused targets. state: 0 not
// seen, 1 on the current path, 2 done; a reuse link pointing back up the path is not expanded
// again, so the walk ends.
std::vector<char> native_below(const Plan& plan, const std::vector<char>& native) {
  const std::size_t n = plan.ops.size();
  std::vector<char> below(n, 0), state(n, 0);
  for (std::size_t root = 0; root < n; ++root) {
    if (state[root]) continue;
    std::vector<std::pair<std::size_t, bool>> stack{{root, false}};
    while (!stack.empty()) {
      const std::size_t i = stack.back().first;
      const bool expanded = stack.back().second;
      stack.pop_back();
      const Operator& op = plan.ops[i];
      std::vector<std::size_t> kids = op.children;
      if (op.reuses && *op.reuses < n) kids.push_back(*op.reuses);
      if (!expanded) {
        if (state[i]) continue;
        state[i] = 1;
        stack.push_back({i, true});
        for (std::size_t c : kids)
          if (!state[c]) stack.push_back({c, false});
        continue;
      }
      char v = 0;
      for (std::size_t c : kids)
        if (native[c] || below[c]) v = 1;
      below[i] = v;
      state[i] = 2;
    }
  }
  return below;
}

}  // namespace

NativeFlow native_flow(const Plan& plan, const std::vector<char>& native) {
  const std::size_t n = plan.ops.size();
  NativeFlow flow;
  flow.native_below = native_below(plan, native);
  // Whether i reaches a native worker upwards through a conversion, for every operator in linear
  // time: the same upward walk, with each (operator, conversion seen) pair answered once (a long
  // chain of transparent operators would otherwise be walked again from each of its members).
  std::vector<char> reach[2] = {std::vector<char>(n, 0), std::vector<char>(n, 0)};  // 0 unknown, 1 no, 2 yes
  auto reaches_native = [&](std::size_t start) {
    std::vector<std::pair<std::size_t, int>> path;
    std::size_t x = start;
    int seen = 0;  // a row-to-columnar conversion on the way
    char answer = 1;
    for (std::size_t steps = 0; steps <= n; ++steps) {
      if (reach[seen][x]) {
        answer = reach[seen][x];
        break;
      }
      path.emplace_back(x, seen);
      const Operator& o = plan.ops[x];
      if (o.parents.size() != 1) break;
      const std::size_t p = o.parents[0];
      const Operator& po = plan.ops[p];
      if (po.facts->row_to_columnar) {
        x = p, seen = 1;
        continue;
      }
      if (native_worker(po, native)) {
        answer = seen ? 2 : 1;
        break;
      }
      if (!is_transparent(po) && !native[p]) break;
      x = p;
    }
    for (const auto& step : path) reach[step.second][step.first] = answer;
    return answer == 2;
  };
  // feeds_native by an iterative post-order walk over parents.
  flow.feeds_native.assign(n, 0);
  std::vector<char> seen(n, 0);
  for (std::size_t start = 0; start < n; ++start) {
    if (seen[start]) continue;
    std::vector<std::pair<std::size_t, bool>> stack{{start, false}};
    while (!stack.empty()) {
      const std::size_t i = stack.back().first;
      const bool expanded = stack.back().second;
      stack.pop_back();
      const Operator& op = plan.ops[i];
      if (!expanded) {
        if (seen[i]) continue;
        seen[i] = 1;
        stack.push_back({i, true});
        for (std::size_t p : op.parents)
          if (!seen[p]) stack.push_back({p, false});
        continue;
      }
      char v = reaches_native(i) ? 1 : 0;  // only through a row-to-columnar conversion
      for (std::size_t p : op.parents)
        if (!native[p] && flow.feeds_native[p]) v = 1;
      flow.feeds_native[i] = v;
    }
  }
  return flow;
}

std::size_t native_consumer(const Plan& plan, const std::vector<char>& native, std::size_t i,
                            std::size_t* transition) {
  const std::size_t n = plan.ops.size();
  std::size_t x = i, first_native = n;
  *transition = n;
  for (std::size_t steps = 0; steps <= n; ++steps) {
    const Operator& o = plan.ops[x];
    if (o.parents.size() != 1) break;
    x = o.parents[0];
    const Operator& p = plan.ops[x];
    const bool into_native = p.facts->row_to_columnar;
    if (into_native && *transition == n) *transition = x;
    if (into_native) continue;
    if (native_worker(p, native)) {
      if (*transition == n) break;  // no conversion of rows on the way: not a JVM leaf feeding it
      if (p.kind != OpKind::Other) return x;
      if (first_native == n) first_native = x;
      continue;
    }
    if (!is_transparent(p) && !native[x]) break;
  }
  return first_native;
}

EngineRegions group_engine_regions(const Plan& plan, const std::vector<char>& native, const std::vector<char>& member) {
  const std::size_t n = plan.ops.size();
  EngineRegions out;
  out.has_member_child.assign(n, 0);
  out.entry_transition.assign(n, n);
  // Union-find over members connected directly or through non-native transparent operators.
  std::vector<std::size_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](std::size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (!member[i]) continue;
    for (std::size_t c : plan.ops[i].children) {
      std::size_t x = c;
      for (std::size_t steps = 0; steps <= n; ++steps) {
        const Operator& o = plan.ops[x];
        if (o.kind == OpKind::Transition && out.entry_transition[i] == n) out.entry_transition[i] = x;
        if (!is_transparent(o) || native[x] || o.children.size() != 1) break;
        x = o.children[0];
      }
      if (member[x]) {
        parent[find(i)] = find(x);
        out.has_member_child[i] = 1;
      }
    }
  }
  std::map<std::size_t, std::vector<std::size_t>> by_root;  // root -> members (index order)
  for (std::size_t i = 0; i < n; ++i)
    if (member[i]) by_root[find(i)].push_back(i);
  for (auto& entry : by_root) out.regions.push_back(std::move(entry.second));
  std::sort(out.regions.begin(), out.regions.end(),
            [](const std::vector<std::size_t>& a, const std::vector<std::size_t>& b) { return a.front() < b.front(); });
  return out;
}

}  // namespace planlint
