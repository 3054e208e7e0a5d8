// Generators of large and extreme plan inputs, for the benchmark (`planlint_bench gen`), the
// extreme-input tests (tests/parser/test_extreme.cpp) and fuzz seeds. Header-only so that both the
// bench executable and the test binary can use it without a library of their own.
//
// Every generator is deterministic for a given size and seed. The explain text follows
// docs/formats/explain-text.md (EXPLAIN FORMATTED, Spark 3.4+ shapes); the profile JSON follows
// the Databricks Query Profile export (docs/formats/query-profile.md); the event log follows
// SparkListenerSQLExecutionStart with a nested sparkPlanInfo (docs/formats/event-log.md).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace planlint::gen {

// splitmix64: small, fast, good enough for picking shapes.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ULL + 1) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }

 private:
  std::uint64_t s_;
};

namespace detail {

inline std::string join_items(const std::vector<std::string>& items, std::string_view sep = ", ") {
  std::size_t n = 0;
  for (const auto& s : items) n += s.size() + sep.size();
  std::string out;
  out.reserve(n);
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

// `Key [N]: [a, b]` or `Key: []`.
inline std::string list_field(std::string_view key, const std::vector<std::string>& items) {
  if (items.empty()) return std::string(key) + ": []";
  return std::string(key) + " [" + std::to_string(items.size()) + "]: [" + join_items(items) + "]";
}

// Strip `#id` from an attribute to get its column name.
inline std::string column_of(const std::string& attr) { return attr.substr(0, attr.find('#')); }

struct Node {
  std::string label;                 // outline label without the id
  std::string name;                  // detail-block name
  bool codegen = false;
  int codegen_id = 0;
  std::vector<std::size_t> kids;
  std::vector<std::string> fields;   // detail lines
  std::vector<std::string> out;      // output attributes
  int id = 0;
};

// Builds one EXPLAIN FORMATTED plan bottom-up out of TPC-DS-like fragments and prints it.
class FormattedPlan {
 public:
  explicit FormattedPlan(std::uint64_t seed) : rng_(seed) {}

  std::size_t size() const { return nodes_.size(); }

  // Scan -> ColumnarToRow -> Filter -> Project (4 operators).
  std::size_t scan() {
    int table = table_++;
    std::string tname = "t" + std::to_string(table);
    std::size_t ncols = 3 + rng_.below(4);
    std::vector<std::string> cols;
    std::vector<std::string> schema;
    for (std::size_t i = 0; i < ncols; ++i) {
      std::string c = tname + "_c" + std::to_string(i);
      cols.push_back(c + "#" + std::to_string(expr_++));
      schema.push_back(c + (i == 0 ? ":int" : (i % 3 == 1 ? ":string" : ":decimal(7,2)")));
    }
    int cg = codegen_++;
    const std::string bound = std::to_string(rng_.below(1000));
    Node s;
    s.label = "Scan parquet spark_catalog.tpcds." + tname;
    s.name = s.label;
    s.out = cols;
    s.fields = {list_field("Output", cols), "Batched: true",
                "Location: InMemoryFileIndex [file:/warehouse/tpcds.db/" + tname + "]",
                "PushedFilters: [IsNotNull(" + column_of(cols[0]) + "), GreaterThan(" + column_of(cols[0]) + "," + bound + ")]",
                "ReadSchema: struct<" + join_items(schema, ",") + ">"};
    std::size_t n = add(std::move(s));
    n = unary("ColumnarToRow", cg, n, {});
    std::string cond = "(isnotnull(" + cols[0] + ") AND (" + cols[0] + " > " + std::to_string(rng_.below(1000)) + "))";
    n = unary("Filter", cg, n, {"Condition : " + cond});
    std::vector<std::string> keep(cols.begin(), cols.begin() + 2 + static_cast<std::ptrdiff_t>(rng_.below(ncols - 1)));
    return project(cg, n, keep);
  }

  // Two inputs joined: a broadcast hash join (3 operators) or a sort-merge join (6), then a Project.
  std::size_t join(std::size_t left, std::size_t right) {
    const std::string lk = nodes_[left].out.front();
    const std::string rk = nodes_[right].out.front();
    int cg = codegen_++;
    std::size_t j;
    std::vector<std::string> both = nodes_[left].out;
    both.insert(both.end(), nodes_[right].out.begin(), nodes_[right].out.end());
    std::vector<std::string> keys = {"Left keys [1]: [" + lk + "]", "Right keys [1]: [" + rk + "]",
                                     "Join type: Inner", "Join condition: None"};
    if (rng_.below(3) != 0) {
      Node b;
      b.label = b.name = "BroadcastExchange";
      b.kids = {right};
      b.out = nodes_[right].out;
      b.fields = {list_field("Input", b.out),
                  "Arguments: HashedRelationBroadcastMode(List(cast(input[0, int, false] as bigint)),false), [plan_id=" +
                      std::to_string(plan_id_++) + "]"};
      std::size_t bx = add(std::move(b));
      Node n;
      n.label = "BroadcastHashJoin Inner BuildRight";
      n.name = "BroadcastHashJoin";
      n.codegen = true;
      n.codegen_id = cg;
      n.kids = {left, bx};
      n.out = both;
      n.fields = keys;
      j = add(std::move(n));
    } else {
      std::size_t l = sorted_exchange(left, lk);
      std::size_t r = sorted_exchange(right, rk);
      Node n;
      n.label = "SortMergeJoin Inner";
      n.name = "SortMergeJoin";
      n.codegen = true;
      n.codegen_id = cg;
      n.kids = {l, r};
      n.out = both;
      n.fields = keys;
      j = add(std::move(n));
    }
    std::vector<std::string> keep = {nodes_[left].out[0], nodes_[left].out[1], nodes_[right].out[0],
                                     nodes_[right].out[1]};
    return project(cg, j, keep);
  }

  // Partial HashAggregate -> Exchange -> final HashAggregate (3 operators).
  std::size_t aggregate(std::size_t child) {
    const auto in = nodes_[child].out;
    const std::string key = in[0];
    const std::string val = in[1];
    std::string sum1 = "sum#" + std::to_string(expr_++);
    std::string sum2 = "sum#" + std::to_string(expr_++);
    int cg = codegen_++;
    Node p;
    p.label = p.name = "HashAggregate";
    p.codegen = true;
    p.codegen_id = cg;
    p.kids = {child};
    p.out = {key, sum2};
    p.fields = {list_field("Input", in), list_field("Keys", {key}), "Functions [1]: [partial_count(" + val + ")]",
                "Aggregate Attributes [1]: [" + sum1 + "]", list_field("Results", p.out)};
    std::size_t pa = add(std::move(p));
    std::size_t ex = exchange(pa, key);
    std::string total = "cnt#" + std::to_string(expr_++);
    Node f;
    f.label = f.name = "HashAggregate";
    f.codegen = true;
    f.codegen_id = codegen_++;
    f.kids = {ex};
    f.out = {key, total};
    f.fields = {list_field("Input", nodes_[ex].out), list_field("Keys", {key}),
                "Functions [1]: [count(" + val + ")]", "Aggregate Attributes [1]: [count(" + val + ")#" +
                std::to_string(expr_++) + "]", list_field("Results", f.out)};
    return add(std::move(f));
  }

  std::size_t top_k(std::size_t child) {
    Node n;
    n.label = n.name = "TakeOrderedAndProject";
    n.kids = {child};
    n.out = nodes_[child].out;
    n.fields = {list_field("Input", n.out), "Arguments: 100, [" + n.out[0] + " ASC NULLS FIRST], [" +
                                                 join_items(n.out) + "]"};
    return add(std::move(n));
  }

  std::size_t filter(std::size_t child, std::string condition) {
    return unary("Filter", nodes_[child].codegen_id, child, {"Condition : " + std::move(condition)});
  }

  std::size_t project(int cg, std::size_t child, std::vector<std::string> out) {
    Node n;
    n.label = n.name = "Project";
    n.codegen = true;
    n.codegen_id = cg;
    n.kids = {child};
    n.fields = {list_field("Output", out), list_field("Input", nodes_[child].out)};
    n.out = std::move(out);
    return add(std::move(n));
  }

  // Operator ids in Spark's order (post-order, children left to right), then the text.
  void print(std::size_t root, std::string& out) {
    number(root);
    out += "== Physical Plan ==\n";
    // Outline, pre-order with an explicit stack (deep chains must not recurse).
    struct Item {
      std::size_t node;
      std::string lead;
      std::string child_prefix;
    };
    std::vector<Item> stack;
    stack.push_back({root, "", ""});
    while (!stack.empty()) {
      Item it = std::move(stack.back());
      stack.pop_back();
      const Node& n = nodes_[it.node];
      out += it.lead;
      if (n.codegen) out += "* ";
      out += n.label;
      out += " (";
      out += std::to_string(n.id);
      out += ")\n";
      for (std::size_t k = n.kids.size(); k-- > 0;) {
        bool last = k + 1 == n.kids.size();
        stack.push_back({n.kids[k], it.child_prefix + (last ? "+- " : ":- "), it.child_prefix + (last ? "   " : ":  ")});
      }
    }
    out += "\n";
    std::vector<std::size_t> by_id(nodes_.size());
    std::size_t count = 0;
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      if (nodes_[i].id > 0) by_id[static_cast<std::size_t>(nodes_[i].id - 1)] = i, ++count;
    for (std::size_t k = 0; k < count; ++k) {
      const Node& n = nodes_[by_id[k]];
      out += "\n(";
      out += std::to_string(n.id);
      out += ") ";
      out += n.name;
      if (n.codegen) out += " [codegen id : " + std::to_string(n.codegen_id) + "]";
      out += "\n";
      for (const auto& f : n.fields) {
        out += f;
        out += "\n";
      }
    }
    out += "\n";
  }

 private:
  std::size_t add(Node n) {
    nodes_.push_back(std::move(n));
    return nodes_.size() - 1;
  }

  std::size_t unary(const char* name, int cg, std::size_t child, std::vector<std::string> extra) {
    Node n;
    n.label = n.name = name;
    n.codegen = true;
    n.codegen_id = cg;
    n.kids = {child};
    n.out = nodes_[child].out;
    n.fields.push_back(list_field("Input", n.out));
    for (auto& e : extra) n.fields.push_back(std::move(e));
    return add(std::move(n));
  }

  std::size_t exchange(std::size_t child, const std::string& key) {
    Node n;
    n.label = n.name = "Exchange";
    n.kids = {child};
    n.out = nodes_[child].out;
    n.fields = {list_field("Input", n.out), "Arguments: hashpartitioning(" + key + ", 200), ENSURE_REQUIREMENTS, [plan_id=" +
                                                std::to_string(plan_id_++) + "]"};
    return add(std::move(n));
  }

  std::size_t sorted_exchange(std::size_t child, const std::string& key) {
    std::size_t ex = exchange(child, key);
    return unary("Sort", codegen_++, ex, {"Arguments: [" + key + " ASC NULLS FIRST], false, 0"});
  }

  void number(std::size_t root) {
    for (auto& n : nodes_) n.id = 0;
    int next = 1;
    // Iterative post-order.
    std::vector<std::pair<std::size_t, std::size_t>> stack;  // node, next child
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto& [node, k] = stack.back();
      if (k < nodes_[node].kids.size()) {
        std::size_t c = nodes_[node].kids[k++];
        stack.push_back({c, 0});
      } else {
        nodes_[node].id = next++;
        stack.pop_back();
      }
    }
  }

  Rng rng_;
  std::vector<Node> nodes_;
  int expr_ = 1;
  int table_ = 1;
  int codegen_ = 1;
  int plan_id_ = 1;
};

}  // namespace detail

// One EXPLAIN FORMATTED plan with about `ops` operators (never fewer than 6): scans joined in a
// balanced tree (so depth grows with log(ops)), an aggregate and a top-k on top.
inline std::string formatted_plan(std::size_t ops, std::uint64_t seed = 1) {
  detail::FormattedPlan p(seed);
  // Binary-counter merging keeps the join tree balanced whatever the final count.
  std::vector<std::pair<std::size_t, int>> stack;  // fragment root, rank
  const std::size_t reserve = 8;                   // aggregate + top-k
  while (stack.empty() || p.size() + 5 * stack.size() + reserve < ops) {
    stack.push_back({p.scan(), 0});
    while (stack.size() >= 2 && stack[stack.size() - 1].second == stack[stack.size() - 2].second) {
      auto r = stack.back();
      stack.pop_back();
      auto l = stack.back();
      stack.pop_back();
      stack.push_back({p.join(l.first, r.first), l.second + 1});
    }
  }
  while (stack.size() >= 2) {
    auto r = stack.back();
    stack.pop_back();
    auto l = stack.back();
    stack.pop_back();
    stack.push_back({p.join(l.first, r.first), std::max(l.second, r.second) + 1});
  }
  std::size_t root = p.top_k(p.aggregate(stack.back().first));
  std::string out;
  p.print(root, out);
  return out;
}

// Many plans of `ops_each` operators, one after the other, until at least `bytes` of text.
// A pool of 16 different plans is generated and repeated, so this is fast even for 1 GB.
inline std::string formatted_plans(std::size_t bytes, std::size_t ops_each = 40, std::uint64_t seed = 1) {
  std::vector<std::string> pool;
  for (std::uint64_t i = 0; i < 16; ++i) pool.push_back(formatted_plan(ops_each + i, seed + i));
  std::string out;
  out.reserve(bytes + pool[0].size() * 2);
  for (std::size_t i = 0; out.size() < bytes; ++i) out += pool[i % pool.size()];
  return out;
}

// A chain `depth` operators deep: Project over Filter over Filter ... over a scan fragment.
// The format indents each level by 3 columns, so the text grows with depth² (2,000 deep is 6 MB,
// 20,000 deep is 600 MB): use the profile or event-log generators for very deep trees.
inline std::string deep_text_plan(std::size_t depth) {
  detail::FormattedPlan p(7);
  std::size_t n = p.scan();
  while (p.size() < depth) n = p.filter(n, "(t1_c0#1 > " + std::to_string(p.size()) + ")");
  std::string out;
  p.print(n, out);
  return out;
}

// A small valid plan whose Filter condition is `depth` nested parentheses around a comparison.
inline std::string nested_parens_plan(std::size_t depth) {
  detail::FormattedPlan p(3);
  std::size_t n = p.scan();
  std::string cond(depth, '(');
  cond += "t1_c0#1 > 5";
  cond.append(depth, ')');
  n = p.filter(n, std::move(cond));
  std::string out;
  p.print(n, out);
  return out;
}

// A small plan with one detail line of at least `bytes` bytes: a Project whose Output list
// (and therefore the Input list of the operator above it) has thousands of columns.
inline std::string long_line_plan(std::size_t bytes) {
  std::string out;
  std::size_t cols = bytes / 14 + 1;
  out.reserve(bytes * 3 + 1024);
  std::vector<std::string> attrs;
  attrs.reserve(cols);
  for (std::size_t i = 0; i < cols; ++i) attrs.push_back("col" + std::to_string(i) + "#" + std::to_string(i + 1));
  std::string list = detail::join_items(attrs);
  std::string n = std::to_string(cols);
  out += "== Physical Plan ==\n* Project (2)\n+- * Range (1)\n\n\n(1) Range [codegen id : 1]\n";
  out += "Output [" + n + "]: [" + list + "]\nArguments: Range (0, 100, step=1, splits=Some(2))\n\n";
  out += "(2) Project [codegen id : 1]\nOutput [" + n + "]: [" + list + "]\nInput [" + n + "]: [" + list + "]\n\n";
  return out;
}

// A Databricks Query Profile export with `nodes` operators. `chain` makes one path (a tree as
// deep as it has nodes, e.g. 20,000) instead of a balanced binary join tree.
inline std::string profile_json(std::size_t nodes, bool chain = false) {
  std::string out;
  out.reserve(nodes * 700 + 1024);
  out +=
      "{\"version\":\"1.2\",\"query\":{\"id\":\"01f0-generated\",\"status\":\"FINISHED\",\"queryText\":\"select 1\","
      "\"statementType\":\"SELECT\",\"metrics\":{\"totalTimeMs\":12321,\"compilationTimeMs\":509,\"executionTimeMs\":11743,"
      "\"readBytes\":2638782317,\"rowsProducedCount\":100,\"taskTotalTimeMs\":184521,\"photonTotalTimeMs\":175000,"
      "\"spillToDiskBytes\":0,\"resultFromCache\":false}},\"planMetadatas\":[{\"id\":\"p1\",\"queryId\":\"01f0-generated\"}],"
      "\"graphs\":[{\"nodes\":[";
  Rng rng(nodes);
  for (std::size_t i = 0; i < nodes; ++i) {
    // Node i's children: chain -> i+1; tree -> 2i+1, 2i+2 (leaves are scans).
    std::size_t c1 = chain ? i + 1 : 2 * i + 1;
    bool leaf = c1 >= nodes;
    bool join = !chain && 2 * i + 2 < nodes;
    const char* tag = leaf ? "UNKNOWN_DATA_SOURCE_SCAN_EXEC"
                           : join ? "PHOTON_BROADCAST_HASH_JOIN_EXEC"
                                  : (i % 3 == 0 ? "PHOTON_FILTER_EXEC" : "PHOTON_PROJECT_EXEC");
    const char* name = leaf ? "Scan tpcds.sf1.store_sales" : join ? "Inner Join" : (i % 3 == 0 ? "Filter" : "Project");
    if (i) out += ',';
    out += "{\"id\":\"" + std::to_string(i + 1) + "\",\"name\":\"" + name + "\",\"tag\":\"" + tag + "\",\"metadata\":[";
    out += "{\"key\":\"IS_PHOTON\",\"label\":\"Photonized\",\"value\":\"true\",\"values\":[]}";
    out += ",{\"key\":\"CHILD_TAG\",\"label\":\"Child tag\",\"value\":\"";
    out += (!chain && i % 2 == 0) ? "Right" : (!chain && i > 0 ? "Left" : "Child");
    out += "\",\"values\":[],\"hidden\":true}";
    if (join)
      out += ",{\"key\":\"JOIN_TYPE\",\"label\":\"Join type\",\"value\":\"Inner\",\"values\":[]},"
             "{\"key\":\"JOIN_ALGORITHM\",\"label\":\"Join algorithm\",\"value\":\"Photon Broadcast Hash\",\"values\":[]},"
             "{\"key\":\"LEFT_KEYS\",\"label\":\"Left keys\",\"values\":[\"ss_item_sk\"]},"
             "{\"key\":\"RIGHT_KEYS\",\"label\":\"Right keys\",\"values\":[\"i_item_sk\"]}";
    if (leaf)
      out += ",{\"key\":\"SCAN_IDENTIFIER\",\"label\":\"Table\",\"value\":\"tpcds.sf1.store_sales\",\"values\":[]},"
             "{\"key\":\"FILTERS\",\"label\":\"Filters\",\"values\":[\"(ss_item_sk IS NOT NULL)\"]}";
    std::uint64_t rows = 1000 + rng.below(1000000);
    out += "],\"metrics\":[{\"label\":\"Number of output rows\",\"key\":\"NUMBER_OUTPUT_ROWS\",\"metricType\":\"UNKNOWN_TYPE\",\"value\":" +
           std::to_string(rows) +
           "},{\"label\":\"Cumulative time\",\"key\":\"CUMULATIVE_TIME\",\"metricType\":\"TIMING_METRIC_NS\",\"value\":" +
           std::to_string(rng.below(1000000000)) +
           ",\"hidden\":true},{\"label\":\"Peak memory usage\",\"key\":\"PEAK_MEMORY_USAGE\",\"metricType\":\"SIZE_METRIC_BYTES\",\"value\":" +
           std::to_string(rng.below(100000000)) + "}],\"hidden\":false,\"collapsed\":false,\"keyMetrics\":{\"rowsNum\":" +
           std::to_string(rows) + ",\"durationMs\":" + std::to_string(rng.below(5000)) + ",\"peakMemoryBytes\":" +
           std::to_string(rng.below(100000000)) + "}}";
  }
  out += "],\"edges\":[";
  bool first = true;
  for (std::size_t i = 0; i < nodes; ++i) {
    std::size_t kids[2] = {chain ? i + 1 : 2 * i + 1, chain ? nodes : 2 * i + 2};
    for (std::size_t c : kids) {
      if (c >= nodes) continue;
      if (!first) out += ',';
      first = false;
      out += "{\"fromId\":\"" + std::to_string(i + 1) + "\",\"toId\":\"" + std::to_string(c + 1) + "\"}";
    }
  }
  out += "],\"stageData\":[],\"executionId\":\"1\",\"photonExplain\":[]}],\"activePlanId\":\"p1\"}\n";
  return out;
}

// A History Server `/sql?details=true&planDescription=true` answer with `executions` executions,
// one a line, each with a small formatted plan (H3 of the December 2026 reliability probe: locating
// each execution counted from byte 0 and was quadratic).
inline std::string history_server_json(std::size_t executions) {
  std::string out = "[";
  out.reserve(executions * 170 + 2);
  for (std::size_t i = 0; i < executions; ++i) {
    if (i) out += ",\n";
    out += "{\"id\":" + std::to_string(i) +
           ",\"status\":\"COMPLETED\",\"planDescription\":\"== Physical Plan ==\\n* Project (2)\\n+- * Filter (1)"
           "\\n\\n(1) Filter\\nCondition : (a#1 > 1)\\n\"}";
  }
  out += "]";
  return out;
}

// A profile-shaped JSON document whose first node's metadata value is `depth` nested arrays.
inline std::string deep_json(std::size_t depth) {
  std::string out = "{\"version\":\"1.2\",\"query\":{\"id\":\"q\"},\"graphs\":[{\"nodes\":[{\"id\":\"1\",\"name\":\"Project\","
                    "\"tag\":\"PROJECT_EXEC\",\"metadata\":[{\"key\":\"OUTPUT\",\"label\":\"Output\",\"values\":";
  out.append(depth, '[');
  out += "\"a\"";
  out.append(depth, ']');
  out += "}],\"metrics\":[]}],\"edges\":[]}]}\n";
  return out;
}

// A Spark event log whose one SQL execution has a sparkPlanInfo tree `depth` levels deep
// (nested JSON objects, so the text stays linear in the depth).
inline std::string eventlog_deep(std::size_t depth) {
  std::string out =
      "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.0\"}\n"
      "{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart\",\"executionId\":0,"
      "\"description\":\"generated\",\"details\":\"\",\"physicalPlanDescription\":\"== Physical Plan ==\\n* Filter (1)\\n\","
      "\"sparkPlanInfo\":";
  out.reserve(out.size() + depth * 110 + 256);
  for (std::size_t i = 0; i < depth; ++i)
    out += "{\"nodeName\":\"Filter\",\"simpleString\":\"Filter (isnotnull(a#1))\",\"metadata\":{},\"metrics\":[],\"children\":[";
  out += "{\"nodeName\":\"Range\",\"simpleString\":\"Range (0, 10, step=1, splits=2)\",\"children\":[],\"metadata\":{},\"metrics\":[]}";
  for (std::size_t i = 0; i < depth; ++i) out += "]}";
  out += ",\"time\":1}\n";
  return out;
}

}  // namespace planlint::gen
