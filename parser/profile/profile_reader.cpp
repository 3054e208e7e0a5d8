// Databricks SQL Query Profile JSON (the "Download" export) -> the shared plan model.
//
// The export (docs/formats/query-profile.md) holds `query` (statement header and
// query-level metrics), `planMetadatas` (or `planMetadata`), and `graphs[]`, each a DAG of
// `nodes[]` joined by `edges[]` whose `fromId` is the CONSUMER and `toId` the producer. Every graph
// becomes one Plan; the graph with the most nodes (the query itself; a write adds a 1-node graph
// for the command) comes first. Keys are accepted in camelCase and snake_case.
//
// How rules should read what this reader builds:
//  - Operator::engine is Photon when the node carries IS_PHOTON=true. Scans always do, even when a
//    COLUMNAR_TO_ROW_EXEC above them feeds JVM operators: JVM fallback is a Transition operator
//    with Spark operators above it, not a Spark scan.
//  - Stage containers (WHOLE_STAGE_CODEGEN_EXEC, PHOTON_RESULT_STAGE_EXEC,
//    PHOTON_SHUFFLE_MAP_STAGE_EXEC, PHOTON_WRITE_STAGE_EXEC) have no edges; operators inside them
//    point at them through Operator::stage_parent. They are never roots.
//  - A Photon shuffle is three things: the map-stage container (kind Exchange, name
//    PhotonShuffleMapStage, metric "Marked for OOM fallback", "Stage duration"), the
//    sink node (kind Exchange, name PhotonShuffleExchangeSink) that is the edge between the
//    producing and the consuming side, and no separate source / AQE read node. The sink carries the
//    writer metrics with a "Sink - " prefix ("Sink - Num bytes written", "Sink - Num bytes spilled
//    to disk due to memory pressure"), the reader metrics with "Source - " ("Source - Num bytes
//    read", "Source - Remote bytes read") and the AQE read with "AQEShuffleRead - " ("Number of
//    skewed partitions", "Number of skewed partition splits", "Number of coalesced partitions",
//    "Number of partitions", "Partition data size"). JVM exchanges (SHUFFLE_EXCHANGE_EXEC) use
//    "Exchange - " / "AQEShuffleRead - " the same way. So skew is
//    `op.metric_value("AQEShuffleRead - Number of skewed partitions") > 0` on kind Exchange.
//  - Operator::rows / duration_ms / peak_memory_bytes are the node's keyMetrics (the numbers on
//    the DAG box); Metric values are normalised to ms, Bytes or counts (ns timings divided by 1e6).
//  - StageInfo::operators lists the operators linked to the stage through stageLinks (an
//    operator without stageLinks inherits those of its stage container).
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "parser/common/classify.hpp"
#include "parser/common/photon.hpp"
#include "parser/profile/profile.hpp"
#include "parser/registry/detect.hpp"
#include "parser/profile/profile_internal.hpp"
#include "parser/profile/profile_positions.hpp"
#include "parser/common/facts_fill.hpp"
#include "support/strings.hpp"

namespace planlint {

namespace {

using profile::json;
using profile::kNoOffset;
using profile::member;
using profile::number;
using profile::text;

// Real exports nest about 8 levels; anything far deeper is not a profile and would only cost memory.
constexpr std::size_t kMaxDepth = 256;

// Reads the graphs of one Query Profile export (nodes, edges, metrics) into plans.
struct ProfileGraphReader {
  std::string_view input;
  ParseResult& result;
  profile::LineTable lines;
  profile::Positions pos;
  // The bytes of the operators' texts: nodes are read before their plan exists; every plan of the
  // input shares this store.
  std::shared_ptr<TextStore> store = std::make_shared<TextStore>();
  // The metrics' labels and keys, the nodes' names, display names and tags and the metadata keys,
  // each distinct one kept once in `store` (a profile repeats a few hundred of them over all its
  // nodes).
  MetricNames metric_names{*store};

  ProfileGraphReader(std::string_view text, ParseResult& r) : input(text), result(r), lines(text) {}
  // A file read in pieces (parse_query_profile_file): no input in hand, its lines counted already.
  ProfileGraphReader(profile::LineTable counted, ParseResult& r) : result(r), lines(std::move(counted)) {}

  SourceRange at(std::size_t off) const { return lines.at(off); }

  void message(MessageSeverity sev, SourceRange loc, std::string msg) {
    result.messages.push_back({sev, loc, std::move(msg)});
  }

  // A node read while the JSON was parsed (its DOM is then dropped: a profile's nodes are most of
  // its bytes, and holding them all as JSON as well as the model took 10x the input).
  // 24 bytes a node: what read_node said is kept beside the nodes, for the few that said anything.
  struct ReadNode {
    bool object = false;                  // not an object: only its position in `nodes` is kept
    std::string_view subgraph_parent;     // its subgraphParent (an id view), resolved once all nodes are read
  };
  // The nodes of one `nodes` array. ops[i] is nodes[i]'s operator (a default one for an element
  // that is no object), kept apart so that a graph whose nodes are all objects hands the whole
  // vector to its plan instead of moving each operator into a second one.
  struct ReadNodes {
    std::vector<ReadNode> nodes;
    std::vector<Operator> ops;
    // (node, what read_node said of it), replayed in reading order; nodes in ascending order.
    std::vector<std::pair<std::size_t, std::vector<ParseMessage>>> messages;
    void clear() {
      nodes.clear();
      ops.clear();
      messages.clear();
    }
    // The messages read_node added to `all` past `before`, moved here as node `ni`'s.
    void take_messages(std::size_t ni, std::vector<ParseMessage>& all, std::size_t before) {
      if (all.size() == before) return;
      messages.emplace_back(ni, std::vector<ParseMessage>(std::make_move_iterator(all.begin() + static_cast<std::ptrdiff_t>(before)),
                                                          std::make_move_iterator(all.end())));
      all.resize(before);
    }
    [[nodiscard]] std::size_t size() const { return nodes.size(); }
  };
  // Nodes of graphs[i] (key "graphs") or of the single `graph` object (key "graph", index 0), in
  // the order of their `nodes` array; present only when that `nodes` was an array.
  std::map<std::pair<std::string, std::size_t>, ReadNodes> read_nodes;
  // The positions of graph `g`'s objects, when the position scan found the graph.
  const profile::GraphPositions* positions_of(const std::pair<std::string, std::size_t>& g) const {
    return g.first == "graphs" ? (g.second < pos.graphs.size() ? &pos.graphs[g.second] : nullptr)
                               : (!pos.graphs.empty() ? &pos.graphs[0] : nullptr);
  }
  // The edges of the same graphs, read the same way (the DOM of 10,000 edges is several MB):
  // fromId and toId as text() gives them ("" for an element that is no object).
  // The ids are views (16 bytes each, not 32): of the input when they lie in it unescaped (the
  // usual case), else of a copy in `edge_ids` (the nodes' subgraphParent ids too; every id of a
  // file read in pieces). Edges come after the nodes, when the model is whole: what they take
  // while read adds to the reader's peak.
  struct ReadEdge {
    std::string_view from, to;
  };
  // Ids not in the input as such (decoded, numbers, read in pieces): packed in blocks, no string
  // header each.
  std::unique_ptr<TextStore> edge_ids = std::make_unique<TextStore>();
  std::string_view edge_id(const std::string& id) {
    return edge_ids->keep(id).view();  // an absent id (most nodes have no subgraphParent) keeps nothing
  }
  std::string_view edge_id(const std::optional<profile::LiteRef>& v) {
    if (v && v->is_string() && lies_within(v->str(), input)) return v->str();
    return edge_id(text(v));
  }
  std::map<std::pair<std::string, std::size_t>, std::vector<ReadEdge>> read_edges;

  // The JSON parser's callback that reads each element of graphs[i].nodes / graph.nodes as soon
  // as it is complete and drops it from the DOM.
  json::parser_callback_t node_reader() {
    return [this, kinds = std::vector<json::parse_event_t>(), keys = std::vector<std::string>(),
            counts = std::vector<std::size_t>()](int d, json::parse_event_t ev, json& parsed) mutable {
      using E = json::parse_event_t;
      const auto depth = static_cast<std::size_t>(d);
      if (depth > 5) return true;  // nodes are at depth 3 or 4; below them nothing to track
      if (kinds.size() < 6) kinds.resize(6, E::value), keys.resize(6), counts.resize(6, 0);
      auto is = [&](std::size_t at, E kind) { return kinds[at] == kind; };
      // Which graph a `nodes` array at this depth belongs to: {"graphs", i} or {"graph", 0}.
      // (or, with `what` = "edges", an `edges` array)
      auto graph_of = [&](std::size_t nodes_depth,
                          std::string_view what = "nodes") -> std::optional<std::pair<std::string, std::size_t>> {
        if (nodes_depth == 3 && is(0, E::object_start) && keys[1] == "graphs" && is(1, E::array_start) &&
            is(2, E::object_start) && keys[3] == what && counts[2] > 0)
          return std::pair<std::string, std::size_t>{"graphs", counts[2] - 1};
        if (nodes_depth == 2 && is(0, E::object_start) && keys[1] == "graph" && is(1, E::object_start) &&
            keys[2] == what)
          return std::pair<std::string, std::size_t>{"graph", 0};
        return std::nullopt;
      };
      const bool starts = ev == E::object_start || ev == E::array_start || ev == E::value;
      if (starts && depth > 0 && is(depth - 1, E::array_start)) ++counts[depth];  // an array element begins
      if (ev == E::object_start || ev == E::array_start) {
        kinds[depth] = ev;
        if (depth + 1 < counts.size()) counts[depth + 1] = 0;
        if (ev == E::array_start) {
          if (auto g = graph_of(depth)) {
            ReadNodes& rn = read_nodes[*g];
            rn.clear();  // a repeated `nodes` key replaces the first
            // The position scan counted the nodes: room for them once, not doubling as they come.
            if (const profile::GraphPositions* gp = positions_of(*g)) {
              rn.nodes.reserve(gp->nodes.size());
              rn.ops.reserve(gp->nodes.size());
            }
          }
          if (auto g = graph_of(depth, "edges")) read_edges[*g].clear();
        }
        if (depth + 1 < keys.size()) keys[depth + 1].clear();
        return true;
      }
      if (ev == E::key) {
        keys[depth] = parsed.is_string() ? parsed.get<std::string>() : std::string();
        if (depth == 1 && (keys[1] == "graphs" || keys[1] == "graph")) {  // a repeated key replaces the first
          for (auto it = read_nodes.begin(); it != read_nodes.end();)
            it = it->first.first == keys[1] ? read_nodes.erase(it) : std::next(it);
          for (auto it = read_edges.begin(); it != read_edges.end();)
            it = it->first.first == keys[1] ? read_edges.erase(it) : std::next(it);
        }
        if (auto g = graph_of(depth)) read_nodes.erase(*g);  // `nodes` again: only the last counts
        if (auto g = graph_of(depth, "edges")) read_edges.erase(*g);
        return true;
      }
      // An element completes: object_end / array_end / value at `depth`.
      if (depth == 0) return true;
      if (!is(depth - 1, E::array_start)) return true;
      if (auto ge = graph_of(depth - 1, "edges")) {
        ReadEdge re;
        if (ev == E::object_end && parsed.is_object()) {
          re.from = edge_id(text(member(parsed, "fromId")));
          re.to = edge_id(text(member(parsed, "toId")));
        }
        read_edges[*ge].push_back(std::move(re));
        return false;  // dropped from the DOM: read_graph takes it from read_edges
      }
      auto g = graph_of(depth - 1);
      if (!g) return true;
      ReadNodes& nodes = read_nodes[*g];
      ReadNode rn;
      Operator& op = nodes.ops.emplace_back();
      const std::size_t ni = nodes.size();
      if (ev == E::object_end && parsed.is_object()) {
        rn.object = true;
        const profile::GraphPositions* gp = positions_of(*g);
        const std::size_t before = result.messages.size();
        read_node(parsed, op, gp, ni);
        rn.subgraph_parent = edge_id(text(member(parsed, "subgraphParent")));
        nodes.take_messages(ni, result.messages, before);
      }
      nodes.nodes.push_back(std::move(rn));
      return false;  // dropped from the DOM: read_graph takes it from read_nodes
    };
  }

  QueryInfo read_query(const json& root);
  Plan read_graph(const json& g, std::size_t gi, const QueryInfo& query, ReadNodes* pre_read,
                  std::vector<ReadEdge>* pre_edges);
  // The steps of read_graph, in order.
  // Node ids -> operator index: open addressing over the operators' own ids (views of their texts
  // in the store), 4 bytes a slot, instead of a hash node holding a copy of each id (0.6 MB for
  // 10,000 nodes, beside the plan at the reader's peak).
  class NodeIds {
   public:
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
    explicit NodeIds(const Plan& plan) : plan_(&plan) {}
    // Adds `id` as operator `index`'s (plan.ops[index] may not be in place yet; every index added
    // before it must be). False when the id is there already: the first keeps it.
    bool emplace(std::string_view id, std::size_t index) {
      if (2 * (count_ + 1) > slots_.size()) rehash(std::max<std::size_t>(16, 2 * slots_.size()));
      std::size_t s = std::hash<std::string_view>{}(id) & (slots_.size() - 1);
      for (; slots_[s] != 0; s = (s + 1) & (slots_.size() - 1))
        if (plan_->ops[slots_[s] - 1].id == id) return false;
      slots_[s] = static_cast<std::uint32_t>(index + 1);
      ++count_;
      return true;
    }
    // The operator with that id, or npos.
    [[nodiscard]] std::size_t find(std::string_view id) const {
      if (slots_.empty()) return npos;
      for (std::size_t s = std::hash<std::string_view>{}(id) & (slots_.size() - 1); slots_[s] != 0;
           s = (s + 1) & (slots_.size() - 1))
        if (plan_->ops[slots_[s] - 1].id == id) return slots_[s] - 1;
      return npos;
    }

   private:
    void rehash(std::size_t size) {  // (a power of two)
      std::vector<std::uint32_t> old(size, 0);
      old.swap(slots_);
      for (std::uint32_t v : old) {
        if (v == 0) continue;
        std::size_t s = std::hash<std::string_view>{}(plan_->ops[v - 1].id.view()) & (size - 1);
        while (slots_[s] != 0) s = (s + 1) & (size - 1);
        slots_[s] = v;
      }
    }
    const Plan* plan_;
    std::vector<std::uint32_t> slots_;  // operator index + 1; 0: empty
    std::size_t count_ = 0;
  };
  // Each `edges` element's (consumer, producer) operators -> its offset (kNoOffset: unknown), the
  // first of repeated edges; 24 bytes an edge in one sorted array instead of a tree node each.
  class EdgeOffsets {
   public:
    struct Edge {
      std::uint32_t from = 0, to = 0;
      std::size_t offset = kNoOffset;
    };
    // The edges as read (repeats included), sorted and rid of repeats (the first kept).
    explicit EdgeOffsets(std::vector<Edge> edges) : edges_(std::move(edges)) {
      std::stable_sort(edges_.begin(), edges_.end(), less);
      edges_.erase(std::unique(edges_.begin(), edges_.end(),
                               [](const Edge& a, const Edge& b) { return a.from == b.from && a.to == b.to; }),
                   edges_.end());
    }
    // The offset of edge (from, to), nullptr when there is none.
    [[nodiscard]] const std::size_t* find(std::size_t from, std::size_t to) const {
      const Edge key{static_cast<std::uint32_t>(from), static_cast<std::uint32_t>(to), 0};
      auto it = std::lower_bound(edges_.begin(), edges_.end(), key, less);
      return it != edges_.end() && it->from == key.from && it->to == key.to ? &it->offset : nullptr;
    }

   private:
    static bool less(const Edge& a, const Edge& b) { return a.from != b.from ? a.from < b.from : a.to < b.to; }
    std::vector<Edge> edges_;
  };
  void read_graph_nodes(Plan& plan, const json& g, std::size_t gi, const profile::GraphPositions* gp,
                        ReadNodes* pre_read, NodeIds& by_id, std::vector<std::string_view>& subgraph_parents);
  EdgeOffsets read_graph_edges(Plan& plan, const json& g, const profile::GraphPositions* gp,
                               std::vector<ReadEdge>* pre_edges, const NodeIds& by_id);
  std::vector<bool> link_stage_containers(Plan& plan, const std::vector<std::string_view>& subgraph_parents,
                                          const NodeIds& by_id);
  void read_stage_data(Plan& plan, const json& g);
  void read_photon_explain(Plan& plan, const json& g);
  // J: json (nlohmann's document) or profile::LiteRef (the scanner's, profile_json_scan.hpp).
  template <class J>
  void read_node(const J& n, Operator& op, const profile::GraphPositions* gp, std::size_t ni);
  void break_cycles(Plan& plan, const EdgeOffsets& edge_at);
};

// Reads the export with profile::JsonScanner (profile_json_scan.hpp) instead of nlohmann's callback
// parser, with node_reader()'s bookkeeping: the elements of each graph's `nodes` and `edges`
// arrays go one at a time through a LiteDoc into read_node / the edge list, exactly where
// node_reader() reads them from the DOM; every other value becomes the same nlohmann document the
// callback parser builds (those arrays left empty, as the callback's `false` leaves them). A text
// the scanner does not accept is left to parse_profile_root (nlohmann), which reports the error.
class ScanRouter {
 public:
  using GraphKey = std::pair<std::string, std::size_t>;
  // `copy`: the scanner reads a file in pieces, whose bytes do not stay: every text kept is copied.
  ScanRouter(ProfileGraphReader& r, const char* input, bool copy = false) : r_(r), input_(input), copy_(copy) {
    kinds_.resize(6, Kind::Value);
    keys_.resize(6);
    counts_.resize(6, 0);
  }

  json root;

  [[nodiscard]] bool wants_value() const { return true; }  // every value is kept, in the DOM or a LiteDoc
  bool start_object() { return start(true); }
  bool start_array() { return start(false); }
  bool end_object() { return end(); }
  bool end_array() { return end(); }

  bool key(std::string_view k, bool in_input) {
    const std::size_t d = depth_;
    if (cap_ != Capture::None && d >= cap_depth_) {
      lite_.key(k, in_input && !copy_);
      return true;
    }
    if (d <= 5) {
      keys_[d].assign(k);
      if (d == 1 && (keys_[1] == "graphs" || keys_[1] == "graph")) {  // a repeated key replaces the first
        for (auto it = r_.read_nodes.begin(); it != r_.read_nodes.end();)
          it = it->first.first == keys_[1] ? r_.read_nodes.erase(it) : std::next(it);
        for (auto it = r_.read_edges.begin(); it != r_.read_edges.end();)
          it = it->first.first == keys_[1] ? r_.read_edges.erase(it) : std::next(it);
      }
      if (auto g = graph_of(d)) r_.read_nodes.erase(*g);  // `nodes` again: only the last counts
      if (auto g = graph_of(d, "edges")) r_.read_edges.erase(*g);
    }
    pending_key_.assign(k);
    return true;
  }

  bool string(std::string_view s, bool in_input) {
    if (captured_scalar(profile::LiteDoc::Type::String, false, s, in_input && !copy_)) return true;
    return dom_value(json(std::string(s)));
  }
  bool number(std::string_view tok, profile::NumKind kind) {
    if (captured_scalar(profile::LiteDoc::Type::Number, false, tok, !copy_, kind)) return true;
    switch (kind) {
      case profile::NumKind::Unsigned: return dom_value(json(profile::unsigned_value(tok)));
      case profile::NumKind::Integer: return dom_value(json(profile::integer_value(tok)));
      case profile::NumKind::Float: break;
    }
    return dom_value(json(profile::float_value(tok)));
  }
  bool boolean(bool b) {
    if (captured_scalar(profile::LiteDoc::Type::Bool, b, {}, true)) return true;
    return dom_value(json(b));
  }
  bool null() {
    if (captured_scalar(profile::LiteDoc::Type::Null, false, {}, true)) return true;
    return dom_value(json(nullptr));
  }

 private:
  enum class Kind : std::uint8_t { Value, Object, Array };
  enum class Capture : std::uint8_t { None, Nodes, Edges };

  bool is(std::size_t at, Kind k) const { return kinds_[at] == k; }
  // node_reader()'s graph_of: which graph a `nodes` (or `edges`) array at this depth belongs to.
  std::optional<GraphKey> graph_of(std::size_t d, std::string_view what = "nodes") const {
    if (d == 3 && is(0, Kind::Object) && keys_[1] == "graphs" && is(1, Kind::Array) && is(2, Kind::Object) &&
        keys_[3] == what && counts_[2] > 0)
      return GraphKey{"graphs", counts_[2] - 1};
    if (d == 2 && is(0, Kind::Object) && keys_[1] == "graph" && is(1, Kind::Object) && keys_[2] == what)
      return GraphKey{"graph", 0};
    return std::nullopt;
  }
  // An element begins at depth d (node_reader() counts the elements of arrays).
  void count_element(std::size_t d) {
    if (d > 0 && d <= 5 && is(d - 1, Kind::Array)) ++counts_[d];
  }

  bool start(bool object) {
    const std::size_t d = depth_++;
    if (cap_ != Capture::None && d >= cap_depth_) {
      if (d == cap_depth_) lite_.reset(input_);
      lite_.start(object ? profile::LiteDoc::Type::Object : profile::LiteDoc::Type::Array);
      return true;
    }
    if (d <= 5) {
      count_element(d);
      kinds_[d] = object ? Kind::Object : Kind::Array;
      if (d + 1 < 6) counts_[d + 1] = 0;
      if (!object) {
        if (auto g = graph_of(d)) {
          ProfileGraphReader::ReadNodes& rn = r_.read_nodes[*g];
          rn.clear();  // a repeated `nodes` key replaces the first
          if (const profile::GraphPositions* gp = r_.positions_of(*g)) {
            rn.nodes.reserve(gp->nodes.size());
            rn.ops.reserve(gp->nodes.size());
          }
          cap_ = Capture::Nodes, cap_depth_ = d + 1, cap_nodes_ = &rn, cap_graph_ = *g;
        } else if (auto ge = graph_of(d, "edges")) {
          cap_edges_ = &r_.read_edges[*ge];
          cap_edges_->clear();
          // One block at the count the position scan found, not doubling from one (16,384 slots
          // of 64 bytes for 10,000 edges).
          if (const profile::GraphPositions* gp = r_.positions_of(*ge)) cap_edges_->reserve(gp->edges.size());
          cap_ = Capture::Edges, cap_depth_ = d + 1;
        }
      }
      if (d + 1 < 6) keys_[d + 1].clear();
    }
    json* slot = dom_slot();
    *slot = object ? json::object() : json::array();
    dom_.push_back(slot);
    return true;
  }

  bool end() {
    const std::size_t d = --depth_;
    if (cap_ != Capture::None) {
      if (d > cap_depth_) {
        lite_.finish();
        return true;
      }
      if (d == cap_depth_) {
        lite_.finish();
        element(profile::LiteRef(lite_, 0).is_object());
        return true;
      }
      cap_ = Capture::None;  // the `nodes` / `edges` array itself ends
    }
    dom_.pop_back();
    return true;
  }

  // A scalar inside a captured array: an element of its own, or part of one.
  bool captured_scalar(profile::LiteDoc::Type t, bool flag, std::string_view text, bool in_input,
                       profile::NumKind kind = profile::NumKind::Unsigned) {
    if (cap_ == Capture::None || depth_ < cap_depth_) return false;
    if (depth_ == cap_depth_) element(false);  // an element that is no object
    else lite_.scalar(t, flag, text, in_input, kind);
    return true;
  }

  // An element of a captured array is complete (lite_ holds it when `object`).
  void element(bool object) {
    if (cap_ == Capture::Edges) {
      ProfileGraphReader::ReadEdge re;
      if (object) {
        profile::LiteRef e(lite_, 0);
        re.from = r_.edge_id(member(e, "fromId"));
        re.to = r_.edge_id(member(e, "toId"));
      }
      cap_edges_->push_back(std::move(re));
      return;
    }
    ProfileGraphReader::ReadNodes& nodes = *cap_nodes_;
    ProfileGraphReader::ReadNode rn;
    Operator& op = nodes.ops.emplace_back();
    const std::size_t ni = nodes.size();
    if (object) {
      rn.object = true;
      profile::LiteRef n(lite_, 0);
      const profile::GraphPositions* gp = r_.positions_of(cap_graph_);
      std::vector<ParseMessage>& messages = r_.result.messages;
      const std::size_t before = messages.size();
      r_.read_node(n, op, gp, ni);
      rn.subgraph_parent = r_.edge_id(member(n, "subgraphParent"));
      nodes.take_messages(ni, messages, before);
    }
    nodes.nodes.push_back(std::move(rn));
  }

  // Where the next value of the DOM goes.
  json* dom_slot() {
    if (dom_.empty()) return &root;
    json& parent = *dom_.back();
    if (parent.is_array()) {
      parent.push_back(json());
      return &parent.back();
    }
    return &parent[pending_key_];
  }
  bool dom_value(json v) {
    count_element(depth_);
    *dom_slot() = std::move(v);
    return true;
  }

  ProfileGraphReader& r_;
  const char* input_;
  bool copy_;
  std::size_t depth_ = 0;  // open containers
  std::vector<Kind> kinds_;
  std::vector<std::string> keys_;
  std::vector<std::size_t> counts_;
  std::vector<json*> dom_;
  std::string pending_key_;
  Capture cap_ = Capture::None;
  std::size_t cap_depth_ = 0;  // the depth of the captured array's elements
  ProfileGraphReader::ReadNodes* cap_nodes_ = nullptr;
  std::vector<ProfileGraphReader::ReadEdge>* cap_edges_ = nullptr;
  GraphKey cap_graph_;
  profile::LiteDoc lite_;
};

// A Spark stage id: a whole number that fits an int (anything else is not a stage id).
std::optional<int> stage_number(std::optional<double> v) {
  if (!v || !(*v >= 0 && *v <= 2147483647.0) || *v != static_cast<double>(static_cast<long long>(*v))) return std::nullopt;
  return static_cast<int>(*v);
}

bool is_true(std::string_view s) {
  return s.size() == 4 && (s[0] == 't' || s[0] == 'T') && (s[1] == 'r' || s[1] == 'R') &&
         (s[2] == 'u' || s[2] == 'U') && (s[3] == 'e' || s[3] == 'E');
}

// snake_case -> camelCase ("total_time_ms" -> "totalTimeMs"); camelCase stays as it is.
std::string camel_case(std::string_view name) {
  std::string out;
  bool up = false;
  for (char c : name) {
    if (c == '_') {
      up = !out.empty();
      continue;
    }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return out;
}

// The query-level metrics worth normalising; every other number in `query.metrics` is kept too,
// as a Count unless its name says Ms / Bytes. Timestamps are points in time, not measures: skipped.
MetricUnit query_metric_unit(std::string_view name) {
  auto ends = [&](std::string_view s) { return name.size() >= s.size() && name.substr(name.size() - s.size()) == s; };
  if (ends("Ms")) return MetricUnit::Millis;
  if (ends("Bytes")) return MetricUnit::Bytes;
  return MetricUnit::Count;
}

QueryInfo ProfileGraphReader::read_query(const json& root) {
  QueryInfo q;
  const json* qo = member(root, "query");
  if (!qo || !qo->is_object()) return q;
  q.statement_id = text(member(*qo, "id"));
  if (q.statement_id.empty()) q.statement_id = text(member(*qo, "statementId"));
  q.sql_text = text(member(*qo, "queryText"));
  if (pos.query_text != kNoOffset) q.sql_loc = lines.span(pos.query_text + 1, pos.query_text_end);
  q.status = text(member(*qo, "status"));
  q.statement_type = text(member(*qo, "statementType"));
  if (const json* m = member(*qo, "metrics"); m && m->is_object()) {
    for (auto it = m->begin(); it != m->end(); ++it) {
      const std::string& name = it.key();
      if (name == "__typename" || name.find("Timestamp") != std::string::npos ||
          name.find("timestamp") != std::string::npos)
        continue;
      const json& v = it.value();
      if (v.is_boolean()) {
        if (camel_case(name) == "resultFromCache") q.result_from_cache = v.get<bool>();
        continue;
      }
      if (!v.is_number() && !v.is_null() && !v.is_string()) continue;  // planningPhases[] and other lists
      std::optional<double> value = number(&v);
      if (v.is_string() && !value) continue;
      Metric metric;
      metric.label = metric_names(camel_case(name));  // total_time_ms -> totalTimeMs: one spelling for rules
      metric.value = value;
      metric.unit = query_metric_unit(metric.label);
      q.metrics.push_back(std::move(metric));
    }
  }
  return q;
}

template <class J>
void ProfileGraphReader::read_node(const J& n, Operator& op, const profile::GraphPositions* gp, std::size_t ni) {
  if (gp && ni < gp->nodes.size()) op.loc = at(gp->nodes[ni]);
  TextStore& st = *store;
  // The node's lists (fields, their items and parsed expressions, metrics) take their blocks from
  // the store every plan of the input shares, as the explain reader's do: 10,000 nodes otherwise
  // cost tens of thousands of heap blocks, each with its header and rounding.
  const BlockScope blocks(st);
  op.id = st.keep(text(member(n, "id")));
  op.label = metric_names(text(member(n, "name")));  // display names and node names repeat: each kept once
  auto tn = profile::tag_and_name(text(member(n, "tag")), op.label);
  op.edit_runtime().extra.edit().tag = metric_names(tn.tag);  // a profile repeats a few dozen tags over its nodes: each kept once
  op.name = metric_names(tn.name);
  op.section = Section::Profile;
  Classification c = classify_operator(op.name);
  op.kind = c.kind;
  if (c.strategy != JoinStrategy::None) op.join.edit().strategy = c.strategy;

  if (auto h = member(n, "hidden"); h && h->is_boolean()) op.hidden = profile::as_bool(*h);

  if (auto km = member(n, "keyMetrics"); km && km->is_object()) {
    op.edit_runtime().rows = number(member(*km, "rowsNum"));
    op.edit_runtime().duration_ms = number(member(*km, "durationMs"));
    op.edit_runtime().extra.edit().peak_memory_bytes = number(member(*km, "peakMemoryBytes"));
  }

  if (auto links = member(n, "stageLinks"); links && links->is_array()) {
    for (const auto& l : *links)
      if (auto v = stage_number(number(&l))) op.edit_runtime().extra.edit().spark_stages.push_back(*v);
  }

  // Metadata -> fields.
  std::optional<bool> photon;
  auto md = member(n, "metadata");
  if (md && md->is_array()) {
    op.fields.reserve(md->size());  // one block, not one per growth step
    std::size_t k = 0;
    for (const auto& e : *md) {
      std::size_t idx = k++;
      if (!e.is_object()) continue;
      Field f = profile::read_field(st, metric_names, e);
      const SourceRange field_at = gp ? at(gp->metadata_at(ni, idx)) : SourceRange{};  // kNoOffset: no place
      f.loc = field_at;
      // Like the explain reader: one warning per field whose expression did not parse (kept raw).
      for (const auto& x : f.exprs)
        if (!x.root && !x.error.empty() && x.error != "expression parser not available") {
          message(MessageSeverity::Warning, field_at, "could not parse expression in '" + f.key + "': " + x.error);
          break;
        }
      if (f.key == "IS_PHOTON") photon = is_true(f.value);
      else if (f.key == "CHILD_TAG") op.edit_runtime().extra.edit().child_side = f.value;
      op.fields.push_back(std::move(f));
    }
  }
  op.engine = photon ? (*photon ? Engine::Photon : Engine::Spark) : c.engine;

  if (const Field* f = op.field("SCAN_IDENTIFIER")) op.set_table(f->value);
  if (op.table().empty()) {
    const Field* db = op.field("SCAN_DATABASE");
    const Field* t = op.field("SCAN_TABLE");
    if (t && !t->value.empty())
      op.set_table(db && !db->value.empty() ? st.concat({db->value, ".", t->value}) : t->value);
  }
  if (const Field* f = op.field("SCAN_RELATION_DESC")) op.set_scan_format(f->value);

  // Joins.
  if (const Field* f = op.field("JOIN_ALGORITHM"); f && !f->value.empty()) {
    std::string camel;
    bool up = true;
    for (char ch : f->value) {
      if (ch == ' ' || ch == '_' || ch == '-') {
        up = true;
        continue;
      }
      camel += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
      up = false;
    }
    if (camel.rfind("Join") != camel.size() - 4 || camel.size() < 4) camel += "Join";
    Classification jc = classify_operator(camel);
    if (jc.kind == OpKind::Join && jc.strategy != JoinStrategy::Unknown) op.join.edit().strategy = jc.strategy;
    if (op.kind == OpKind::Unknown || op.kind == OpKind::Other) op.kind = OpKind::Join;
  }
  if (op.kind == OpKind::Join) {
    if (const Field* f = op.field("JOIN_TYPE")) {
      op.join.edit().type_text = f->value;
      op.join.edit().type = parse_join_type(f->value);
    }
    if (const Field* f = op.field("JOIN_BUILD_SIDE")) {
      std::string s;
      for (char ch : f->value) s += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (s.find("left") != std::string::npos) op.join.edit().build = BuildSide::Left;
      else if (s.find("right") != std::string::npos) op.join.edit().build = BuildSide::Right;
    }
    // The keys and the condition stay in their fields: the join names them (the first of each).
    auto index_of = [&](const Field* f) { return static_cast<std::uint32_t>(f - op.fields.data()); };
    if (const Field* f = op.field("LEFT_KEYS")) op.join.edit().left_keys_field = index_of(f);
    if (const Field* f = op.field("RIGHT_KEYS")) op.join.edit().right_keys_field = index_of(f);
    if (const Field* f = op.field("CONDITION"); f && !f->exprs.empty() && f->value != "None")
      op.join.edit().condition_field = index_of(f);
  }

  if (auto ms = member(n, "metrics"); ms && ms->is_array()) {
    op.edit_runtime().metrics.reserve(ms->size());
    for (const auto& m : *ms)
      if (m.is_object()) op.edit_runtime().metrics.push_back(profile::read_metric(metric_names, m));
  }
  if (!op.rows()) op.edit_runtime().rows = op.metric_value("Number of output rows");
}

// Remove edges that close a cycle (iterative DFS, linear), reporting each at its edge object.
void ProfileGraphReader::break_cycles(Plan& plan, const EdgeOffsets& edge_at) {
  const std::size_t n = plan.ops.size();
  std::vector<std::uint8_t> state(n, 0);  // 0 new, 1 on the DFS path, 2 done
  std::vector<std::pair<std::size_t, std::size_t>> stack;
  for (std::size_t s = 0; s < n; ++s) {
    if (state[s]) continue;
    stack.push_back({s, 0});
    state[s] = 1;
    while (!stack.empty()) {
      auto& [v, k] = stack.back();
      auto& ch = plan.ops[v].children;
      if (k == ch.size()) {
        state[v] = 2;
        stack.pop_back();
        continue;
      }
      std::size_t c = ch[k];
      if (state[c] == 1) {
        const std::size_t* e = edge_at.find(v, c);
        message(MessageSeverity::Warning, e == nullptr ? plan.ops[v].loc : at(*e),
                "edge from node '" + plan.ops[v].id + "' to node '" + plan.ops[c].id +
                    "' closes a cycle; the edge is ignored");
        ch.erase(ch.begin() + static_cast<std::ptrdiff_t>(k));
        continue;
      }
      ++k;
      if (state[c] == 0) {
        state[c] = 1;
        stack.push_back({c, 0});  // invalidates v/k references: they are not used after this
      }
    }
  }
}

Plan ProfileGraphReader::read_graph(const json& g, std::size_t gi, const QueryInfo& query, ReadNodes* pre_read,
                                    std::vector<ReadEdge>* pre_edges) {
  Plan plan;
  plan.share_text_store(store);
  plan.format = InputFormat::QueryProfile;
  plan.name = "graph " + std::to_string(gi);
  plan.query = query;
  const profile::GraphPositions* gp = gi < pos.graphs.size() ? &pos.graphs[gi] : nullptr;
  if (gp) plan.loc = at(gp->offset);

  NodeIds by_id(plan);
  std::vector<std::string_view> subgraph_parents;  // per operator (views as edge_id keeps them)
  read_graph_nodes(plan, g, gi, gp, pre_read, by_id, subgraph_parents);
  EdgeOffsets edge_at = read_graph_edges(plan, g, gp, pre_edges, by_id);

  // Children: Left before Right (CHILD_TAG), the rest in edge order between them.
  auto rank = [&](std::size_t c) {
    const std::string_view side = plan.ops[c].extra()->child_side.view();
    return side == "Left" ? 0 : side == "Right" ? 2 : 1;
  };
  for (auto& op : plan.ops)
    std::stable_sort(op.children.begin(), op.children.end(),
                     [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });

  break_cycles(plan, edge_at);
  plan.link();

  std::vector<bool> is_container = link_stage_containers(plan, subgraph_parents, by_id);
  for (const auto& op : plan.ops) {
    if (op.kind == OpKind::AdaptivePlan) plan.adaptive = true;
    if (op.parents.empty() && !(is_container[op.index] && op.children.empty())) plan.roots.push_back(op.index);
  }

  read_stage_data(plan, g);
  read_photon_explain(plan, g);
  return plan;
}

// `nodes` into plan.ops (taken from `pre_read` when the parse read them): the id of each node
// into `by_id`, its subgraphParent into `subgraph_parents`.
void ProfileGraphReader::read_graph_nodes(Plan& plan, const json& g, std::size_t gi, const profile::GraphPositions* gp,
                                          ReadNodes* pre_read, NodeIds& by_id,
                                          std::vector<std::string_view>& subgraph_parents) {
  const json* nodes = member(g, "nodes");
  if (nodes && !nodes->is_array()) {
    message(MessageSeverity::Warning, plan.loc, "graph " + std::to_string(gi) + ": `nodes` is not an array");
    return;
  }
  if (!nodes) return;
  const std::size_t count = pre_read ? pre_read->size() : nodes->size();
  // Every node an object (the usual case): the operators read while parsing become the plan's.
  const bool whole = pre_read && std::all_of(pre_read->nodes.begin(), pre_read->nodes.end(),
                                             [](const ReadNode& rn) { return rn.object; });
  if (whole) plan.ops = std::move(pre_read->ops);
  else plan.ops.reserve(count);
  subgraph_parents.reserve(count);
  std::size_t said = 0;  // the next entry of pre_read->messages
  for (std::size_t this_ni = 0; this_ni < count; ++this_ni) {
    const bool object = pre_read ? pre_read->nodes[this_ni].object : (*nodes)[this_ni].is_object();
    if (!object) {
      SourceRange loc = plan.loc;
      message(MessageSeverity::Warning, loc, "graph " + std::to_string(gi) + ": nodes[" + std::to_string(this_ni) +
                                                 "] is not an object; ignored");
      continue;
    }
    Operator moved;
    if (pre_read) {
      ReadNode& rn = pre_read->nodes[this_ni];
      if (!whole) moved = std::move(pre_read->ops[this_ni]);
      if (said < pre_read->messages.size() && pre_read->messages[said].first == this_ni)
        for (auto& m : pre_read->messages[said++].second) result.messages.push_back(std::move(m));
      subgraph_parents.push_back(rn.subgraph_parent);
    } else {
      read_node((*nodes)[this_ni], moved, gp, this_ni);
      subgraph_parents.push_back(edge_id(text(member((*nodes)[this_ni], "subgraphParent"))));
    }
    Operator& op = whole ? plan.ops[this_ni] : moved;
    op.index = whole ? this_ni : plan.ops.size();
    if (op.id.empty()) {
      message(MessageSeverity::Warning, op.loc, "node without an id; edges cannot reach it");
    } else if (!by_id.emplace(op.id, op.index)) {
      message(MessageSeverity::Warning, op.loc, "node id '" + op.id + "' appears twice in the graph; edges use the first");
    }
    if (!whole) plan.ops.push_back(std::move(moved));
  }
  if (pre_read) *pre_read = ReadNodes{};  // read: give the memory back
}

// Edges: fromId is the consumer, toId the producer. Taken from `pre_edges` when the parse read them.
ProfileGraphReader::EdgeOffsets ProfileGraphReader::read_graph_edges(Plan& plan, const json& g,
                                                                     const profile::GraphPositions* gp,
                                                                     std::vector<ReadEdge>* pre_edges,
                                                                     const NodeIds& by_id) {
  std::vector<EdgeOffsets::Edge> edges_read;
  edges_read.reserve(pre_edges ? pre_edges->size() : gp ? gp->edges.size() : 0);
  auto add_edge = [&](std::size_t ei, std::string_view from, std::string_view to) {
    std::size_t off = (gp && ei < gp->edges.size()) ? gp->edges[ei] : kNoOffset;
    const std::size_t f = by_id.find(from);
    const std::size_t t = by_id.find(to);
    if (f == NodeIds::npos || t == NodeIds::npos) {
      const std::string_view missing = f == NodeIds::npos ? from : to;
      message(MessageSeverity::Warning, off == kNoOffset ? plan.loc : at(off),
              "edge refers to node id '" + std::string(missing) + "', which is not in the graph; the edge is ignored");
      return;
    }
    if (f == t) {
      message(MessageSeverity::Warning, off == kNoOffset ? plan.loc : at(off),
              "edge from node '" + std::string(from) + "' to itself; the edge is ignored");
      return;
    }
    edges_read.push_back({static_cast<std::uint32_t>(f), static_cast<std::uint32_t>(t), off});
  };
  if (pre_edges) {  // read while parsing (the usual case: `edges` was an array)
    for (std::size_t ei = 0; ei < pre_edges->size(); ++ei) add_edge(ei, (*pre_edges)[ei].from, (*pre_edges)[ei].to);
    std::vector<ReadEdge>().swap(*pre_edges);  // read: give the memory back (`= {}` would keep it)
  } else if (const json* edges = member(g, "edges"); edges && edges->is_array()) {
    std::size_t ei = 0;
    for (const auto& e : *edges) add_edge(ei++, text(member(e, "fromId")), text(member(e, "toId")));
  }
  // Each operator's children in edge order, a repeated edge once: an edge is new when no earlier
  // edge joins the same two operators (edges_read is in edge order).
  {
    std::vector<std::uint32_t> order(edges_read.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
    std::stable_sort(order.begin(), order.end(), [&edges_read](std::uint32_t a, std::uint32_t b) {
      const EdgeOffsets::Edge &x = edges_read[a], &y = edges_read[b];
      return x.from != y.from ? x.from < y.from : x.to < y.to;
    });
    std::vector<bool> repeat(edges_read.size(), false);
    for (std::size_t i = 1; i < order.size(); ++i)
      if (edges_read[order[i]].from == edges_read[order[i - 1]].from && edges_read[order[i]].to == edges_read[order[i - 1]].to)
        repeat[order[i]] = true;
    for (std::size_t i = 0; i < edges_read.size(); ++i)
      if (!repeat[i]) plan.ops[edges_read[i].from].children.push_back(edges_read[i].to);
  }
  return EdgeOffsets(std::move(edges_read));
}

// Stage containers: each operator's subgraphParent (a chain of them must not loop), and the
// operators inside a WholeStageCodegen marked as codegen. Which operators are containers.
std::vector<bool> ProfileGraphReader::link_stage_containers(Plan& plan, const std::vector<std::string_view>& subgraph_parents,
                                                            const NodeIds& by_id) {
  std::vector<bool> is_container(plan.ops.size(), false);
  for (std::size_t oi = 0; oi < subgraph_parents.size() && oi < plan.ops.size(); ++oi) {
    Operator& op = plan.ops[oi];
    const std::string_view parent = subgraph_parents[oi];
    if (parent.empty()) continue;
    const std::size_t it = by_id.find(parent);
    if (it == NodeIds::npos || it == op.index) {
      message(MessageSeverity::Warning, op.loc, "subgraphParent '" + std::string(parent) + "' is not another node of the graph; ignored");
      continue;
    }
    op.edit_runtime().extra.edit().stage_parent = it;
    is_container[it] = true;
  }
  std::vector<std::uint8_t> state(plan.ops.size(), 0);
  std::vector<std::size_t> path;
  for (std::size_t s = 0; s < plan.ops.size(); ++s) {
    std::size_t v = s;
    path.clear();
    while (state[v] == 0) {
      state[v] = 1;
      path.push_back(v);
      if (!plan.ops[v].extra()->stage_parent) break;
      std::size_t p = *plan.ops[v].extra()->stage_parent;
      if (state[p] == 1) {
        message(MessageSeverity::Warning, plan.ops[v].loc,
                "subgraphParent of node '" + plan.ops[v].id + "' closes a loop; ignored");
        plan.ops[v].edit_runtime().extra.edit().stage_parent.reset();
        break;
      }
      v = p;
    }
    for (std::size_t x : path) state[x] = 2;
  }
  for (auto& op : plan.ops)
    if (op.extra()->stage_parent && plan.ops[*op.extra()->stage_parent].name == "WholeStageCodegen") op.codegen = true;
  return is_container;
}

// A `stageData[].status` as Spark's StageStatus names it (any case; COMPLETED / SUCCEEDED and
// RUNNING as the same), Unknown for anything else.
StageStatus stage_status(std::string_view s) {
  static constexpr std::pair<std::string_view, StageStatus> kNames[] = {
      {"COMPLETE", StageStatus::Complete}, {"COMPLETED", StageStatus::Complete}, {"SUCCEEDED", StageStatus::Complete},
      {"FAILED", StageStatus::Failed},     {"ACTIVE", StageStatus::Active},      {"RUNNING", StageStatus::Active},
      {"PENDING", StageStatus::Pending},   {"SKIPPED", StageStatus::Skipped},
  };
  for (const auto& [name, status] : kNames)
    if (iequals(s, name)) return status;
  return StageStatus::Unknown;
}

// Stages (`stageData`), and the operators linked to each (an operator without stageLinks takes
// those of its stage container).
void ProfileGraphReader::read_stage_data(Plan& plan, const json& g) {
  const json* sd = member(g, "stageData");
  if (!sd || !sd->is_array()) return;
  std::unordered_map<int, std::size_t> stage_index;
  for (const auto& s : *sd) {
    if (!s.is_object()) continue;
    StageInfo st;
    st.id = text(member(s, "stageId"));
    st.status = stage_status(text(member(s, "status")));
    st.num_tasks = number(member(s, "numTasks"));
    if (const json* km = member(s, "keyMetrics"); km && km->is_object()) {
      st.duration_ms = number(member(*km, "durationMs"));
      st.peak_memory_bytes = number(member(*km, "peakMemoryBytes"));
    }
    if (auto idn = stage_number(number(member(s, "stageId")))) stage_index.emplace(*idn, plan.stages.size());
    plan.stages.push_back(std::move(st));
  }
  for (const auto& op : plan.ops) {
    const std::vector<int>* links = &op.extra()->spark_stages;
    if (links->empty() && op.extra()->stage_parent) links = &plan.ops[*op.extra()->stage_parent].extra()->spark_stages;
    for (int id : *links)
      if (auto it = stage_index.find(id); it != stage_index.end()) {
        auto& ops = plan.stages[it->second].operators;
        if (ops.empty() || ops.back() != op.index) ops.push_back(op.index);
      }
  }
}

// photonExplain: empty in every export seen; strings or objects holding the text.
void ProfileGraphReader::read_photon_explain(Plan& plan, const json& g) {
  const json* pe = member(g, "photonExplain");
  if (!pe || !pe->is_array()) return;
  for (const auto& e : *pe) {
    std::string t;
    if (e.is_string()) {
      t = e.get<std::string>();
    } else if (e.is_object()) {
      for (const char* k : {"text", "explanation", "message", "reason", "description", "value"})
        if (t.empty()) t = text(member(e, k));
      if (t.empty())
        for (auto it = e.begin(); it != e.end(); ++it)
          if (it.value().is_string() && it.key() != "__typename") t += (t.empty() ? "" : "\n") + it.value().get<std::string>();
    }
    if (t.empty()) continue;
    parse_photon_explanation(t, plan.photon);
    if (!plan.photon.loc.known()) plan.photon.loc = plan.loc;
  }
}

std::string json_error_text(const std::string& what) {
  // "[json.exception.parse_error.101] parse error at line 1, column 7: syntax error while parsing
  // object - unexpected end of input; expected string literal" -> the part after the position.
  std::string msg = what;
  if (auto p = msg.find("syntax error"); p != std::string::npos) msg = msg.substr(p);
  else if (auto q = msg.find(": "); q != std::string::npos) msg = msg.substr(q + 2);
  return "invalid JSON: " + msg;
}

// Offsets from the position scan are relative to the text after a byte-order mark: make them
// offsets into the whole input.
void shift_positions(profile::Positions& pos, std::size_t bom) {
  if (!bom) return;
  auto shift = [&](std::size_t& o) {
    if (o != kNoOffset) o += bom;
  };
  shift(pos.query);
  shift(pos.query_text);
  shift(pos.query_text_end);
  shift(pos.depth_exceeded_at);
  for (auto& g : pos.graphs) {
    shift(g.offset);
    for (auto& o : g.nodes) shift(o);
    for (auto& o : g.edges) shift(o);
    g.each_metadata_offset(shift);
  }
}

std::optional<json> check_root(ProfileGraphReader& reader, json root, std::size_t bom);

// The export's root object (its nodes and edges read into `reader` as they are parsed), or an
// error message and nothing: invalid JSON, no object, or an object without the export's keys.
std::optional<json> parse_profile_root(ProfileGraphReader& reader, std::string_view input, std::size_t bom) {
  json root;
  try {
    root = json::parse(input.begin() + static_cast<std::ptrdiff_t>(bom), input.end(), reader.node_reader());
  } catch (const json::parse_error& e) {
    std::size_t off = e.byte == 0 ? 0 : e.byte - 1;
    off = std::min(off + bom, input.size());
    // "unexpected end of input": point just after the last token, on a line that has text.
    if (off >= input.size())
      while (off > bom && std::isspace(static_cast<unsigned char>(input[off - 1]))) --off;
    reader.message(MessageSeverity::Error, reader.at(off), json_error_text(e.what()));
    return std::nullopt;
  } catch (const json::exception& e) {
    reader.message(MessageSeverity::Error, reader.at(bom), json_error_text(e.what()));
    return std::nullopt;
  }
  return check_root(reader, std::move(root), bom);
}

// The same read with the scanner (ScanRouter): the root, or an error message and nothing (a valid
// JSON text that is no export), or `scanned` false and the reader as it was when the scanner could
// not vouch for the text (then parse_profile_root reads it).
std::optional<json> scan_profile_root(ProfileGraphReader& reader, std::string_view input, std::size_t bom,
                                      bool& scanned) {
  const std::size_t messages = reader.result.messages.size();
  ScanRouter router(reader, input.data());
  profile::JsonScanner<ScanRouter> scanner(input.substr(bom), router);
  scanned = scanner.run();
  if (!scanned) {
    reader.result.messages.resize(messages);
    reader.read_nodes.clear();
    reader.read_edges.clear();
    reader.store = std::make_shared<TextStore>();
    reader.metric_names = MetricNames(*reader.store);
    return std::nullopt;
  }
  return check_root(reader, std::move(router.root), bom);
}

// A parsed text that is no JSON object, or an object without the export's keys: an error message
// and nothing.
std::optional<json> check_root(ProfileGraphReader& reader, json root, std::size_t bom) {
  if (!root.is_object()) {
    reader.message(MessageSeverity::Error, reader.at(bom), std::string(kNotAPlan) + "a JSON " + root.type_name() +
                   ", " + std::string(kExpectedInputs));
    return std::nullopt;
  }
  // Any other JSON object is not taken for a profile: it must have one of the export's keys.
  if (!member(root, "graphs") && !member(root, "graph") && !member(root, "query")) {
    bool history = member(root, "planDescription") || member(root, "nodes");
    reader.message(MessageSeverity::Error, reader.at(bom),
                   std::string(kNotAPlan) +
                       (history ? "a Spark History Server SQL answer (`planDescription`, `nodes`), which this "
                                  "build does not read; "
                                : "a JSON object without `graphs` or `query`, ") +
                       std::string(kExpectedInputs));
    return std::nullopt;
  }
  return root;
}

// graphs[] (or a single `graph` object), one plan each; `why_none` says why there is none.
std::vector<Plan> read_profile_graphs(ProfileGraphReader& reader, const json& root, const QueryInfo& query,
                                      std::size_t bom, const char*& why_none) {
  std::vector<const json*> graphs;
  why_none = "graphs missing";
  const char* graphs_key = "graph";
  if (const json* gs = member(root, "graphs"); gs && gs->is_array()) {
    why_none = "graphs is empty";
    graphs_key = "graphs";
    for (const auto& g : *gs) graphs.push_back(&g);
  } else if (const json* g1 = member(root, "graph"); g1 && g1->is_object()) {
    graphs.push_back(g1);
  }
  std::vector<Plan> plans;
  for (std::size_t gi = 0; gi < graphs.size(); ++gi) {
    if (!graphs[gi]->is_object()) {
      reader.message(MessageSeverity::Warning, reader.at(bom), "graphs[" + std::to_string(gi) + "] is not an object; ignored");
      continue;
    }
    auto pre = reader.read_nodes.find({graphs_key, gi});
    auto pre_edges = reader.read_edges.find({graphs_key, gi});
    plans.push_back(reader.read_graph(*graphs[gi], gi, query, pre == reader.read_nodes.end() ? nullptr : &pre->second,
                                      pre_edges == reader.read_edges.end() ? nullptr : &pre_edges->second));
  }
  return plans;
}

// The main graph (most nodes; the first on a tie) first, the others in file order.
void put_main_graph_first(std::vector<Plan>& plans) {
  std::size_t main = 0;
  for (std::size_t i = 1; i < plans.size(); ++i)
    if (plans[i].ops.size() > plans[main].ops.size()) main = i;
  if (plans.size() > 1) plans[main].name += " (main)";
  std::rotate(plans.begin(), plans.begin() + static_cast<std::ptrdiff_t>(main),
              plans.begin() + static_cast<std::ptrdiff_t>(main) + 1);
}

// What follows the parse of the root: the plans of the graphs (or a query-level one), their facts,
// the main graph first, the messages in reading order.
void read_profile(ProfileGraphReader& reader, std::optional<json>& root, std::size_t bom) {
  ParseResult& result = reader.result;
  const json& root_json = *root;
  std::string version = text(member(root_json, "version"));
  if (!version.empty() && version != "1.1" && version != "1.2")
    reader.message(MessageSeverity::Note, reader.at(bom),
                   "query profile version " + version + " has not been seen before; reading it like 1.2");

  QueryInfo query = reader.read_query(root_json);
  const char* why_none = nullptr;
  std::vector<Plan> plans = read_profile_graphs(reader, root_json, query, bom, why_none);
  // What the reading needed and the plans do not (the document, the positions of the graphs'
  // objects, what the parse read of the nodes and edges) goes back before the facts are filled:
  // the reader's peak is there.
  root.reset();
  std::vector<profile::GraphPositions>().swap(reader.pos.graphs);
  reader.read_nodes.clear();
  reader.read_edges.clear();
  reader.edge_ids.reset();
  if (plans.empty()) {
    Plan plan;
    plan.share_text_store(reader.store);  // the query metrics' labels
    plan.format = InputFormat::QueryProfile;
    plan.name = "query " + query.statement_id;
    plan.query = std::move(query);
    plan.loc = reader.at(reader.pos.query != kNoOffset ? reader.pos.query : bom);
    reader.message(MessageSeverity::Note, plan.loc,
                   std::string("the export holds no plan (") + why_none + "); query-level facts only");
    fill_profile_facts(plan);
    result.plans.push_back(std::move(plan));
    return;
  }
  for (Plan& p : plans) fill_profile_facts(p);
  put_main_graph_first(plans);
  result.plans = std::move(plans);
  std::stable_sort(result.messages.begin(), result.messages.end(), [](const ParseMessage& a, const ParseMessage& b) {
    return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.column < b.loc.column;
  });
}

ParseResult new_result(const std::string& path) {
  ParseResult result;
  result.path = path;
  result.format = InputFormat::QueryProfile;
  result.traits = kQueryProfileTraits;
  return result;
}

}  // namespace

ParseResult parse_query_profile(std::string_view text_in, const std::string& path, ProfileJsonParser how,
                                bool* scanned, std::shared_ptr<const std::string> shared_input) {
  ParseResult result = new_result(path);
  std::string_view input = text_in;
  std::size_t bom = input.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;

  ProfileGraphReader reader(input, result);
  // Texts found in the shared input are views of it (the store keeps it alive), not copies.
  if (shared_input && lies_within(input, *shared_input)) reader.store->view_input(std::move(shared_input));
  reader.pos = profile::scan_positions(input.substr(bom), kMaxDepth);
  shift_positions(reader.pos, bom);
  if (reader.pos.depth_exceeded_at != kNoOffset) {
    reader.message(MessageSeverity::Error, reader.at(reader.pos.depth_exceeded_at),
                   "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels; not a query profile");
    return result;
  }
  bool by_scanner = false;
  std::optional<json> root;
  if (how == ProfileJsonParser::Scanner) root = scan_profile_root(reader, input, bom, by_scanner);
  if (scanned) *scanned = by_scanner;
  if (!by_scanner) root = parse_profile_root(reader, input, bom);
  if (!root) return result;
  read_profile(reader, root, bom);
  return result;
}

std::optional<ParseResult> parse_query_profile_file(int fd, const std::string& path, double max_bytes,
                                                    std::size_t piece) {
  ParseResult result = new_result(path);
  profile::FileWindow window(fd, max_bytes, piece);
  const char* p = nullptr;
  const char* end = nullptr;
  // First pass: the lines and the positions, as parse_query_profile scans them.
  profile::LineTable lines;
  if (!window.start(&lines, p, end)) return std::nullopt;
  const std::size_t bom = end - p >= 3 && std::string_view(p, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  profile::Positions pos = profile::scan_positions(window, p + bom, end, kMaxDepth);
  if (window.failed() || pos.depth_exceeded_at != kNoOffset) return std::nullopt;
  const std::size_t size = window.total();
  ProfileGraphReader reader(std::move(lines), result);
  reader.pos = std::move(pos);
  // Second pass: the scanner, every text it keeps copied. Anything it does not vouch for (or a file
  // that changed in between) is left to the caller, who reads the file whole.
  if (!window.start(nullptr, p, end)) return std::nullopt;
  ScanRouter router(reader, nullptr, /*copy=*/true);
  profile::JsonScanner<ScanRouter, profile::FileWindow> scanner(window, p + bom, end, router);
  if (!scanner.run() || window.failed() || window.total() != size) return std::nullopt;
  std::optional<json> root = check_root(reader, std::move(router.root), bom);
  if (!root) return std::nullopt;
  read_profile(reader, root, bom);
  std::size_t operators = 0;
  for (const Plan& plan : result.plans) operators += plan.ops.size();
  if (operators == 0) return std::nullopt;  // the caller says why with the text in hand
  return result;
}

}  // namespace planlint
