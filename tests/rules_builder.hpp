// Hand-built plans for rule unit tests: operators classified like the readers do, expressions
// built as trees and printed back so that offsets and texts match what a parser would give.
#pragma once

#include <string>
#include <vector>

#include "lint/engine/engine.hpp"
#include "parser/common/classify.hpp"
#include "parser/common/facts_fill.hpp"
#include "model/plan.hpp"
#include "tests/kept_text.hpp"

namespace planlint::test {

inline Expr attr(std::string name, std::string id = "") {
  Expr e;
  e.kind = ExprKind::Attribute;
  e.name = kept(name);
  e.expr_id = kept(id);
  return e;
}
inline Expr lit(std::string v) {
  Expr e;
  e.kind = ExprKind::Literal;
  e.name = kept(v);
  return e;
}
inline Expr bin(std::string op, Expr a, Expr b) {
  Expr e;
  e.kind = ExprKind::Binary;
  e.name = kept(op);
  e.args = {std::move(a), std::move(b)};
  return e;
}
inline Expr fn(std::string name, std::vector<Expr> args) {
  Expr e;
  e.kind = ExprKind::Function;
  e.name = kept(name);
  e.args = std::move(args);
  return e;
}
inline Expr cast(Expr a, std::string type) {
  Expr e;
  e.kind = ExprKind::Cast;
  e.name = "cast";
  e.type = kept(type);
  e.args = {std::move(a)};
  return e;
}
inline Expr in(Expr a, std::vector<Expr> vals) {
  Expr e;
  e.kind = ExprKind::In;
  e.name = "IN";
  e.args.push_back(std::move(a));
  for (auto& v : vals) e.args.push_back(std::move(v));
  return e;
}
inline Expr and_(Expr a, Expr b) { return bin("AND", std::move(a), std::move(b)); }

inline void render(Expr& e, std::string& out) {
  e.begin = static_cast<std::uint32_t>(out.size());
  auto list = [&](std::size_t from) {
    for (std::size_t i = from; i < e.args.size(); ++i) {
      if (i > from) out += ", ";
      render(e.args[i], out);
    }
  };
  switch (e.kind) {
    case ExprKind::Attribute: out += e.name + (e.expr_id.empty() ? "" : "#" + e.expr_id); break;
    case ExprKind::Literal: out += e.name; break;
    case ExprKind::Binary:
      out += "(";
      render(e.args[0], out);
      out += " " + e.name + " ";
      render(e.args[1], out);
      out += ")";
      break;
    case ExprKind::Cast:
      out += e.name + "(";
      render(e.args[0], out);
      out += " as " + e.type + ")";
      break;
    case ExprKind::In:
      render(e.args[0], out);
      out += " IN (";
      list(1);
      out += ")";
      break;
    case ExprKind::Unary:
      out += "(";
      render(e.args[0], out);
      out += " " + e.name + ")";
      break;
    default:
      out += e.name + "(";
      list(0);
      out += ")";
      break;
  }
  e.end = static_cast<std::uint32_t>(out.size());
}

inline ParsedExpr pe(Expr e) {
  ParsedExpr p;
  std::string text;
  render(e, text);
  p.text = test::kept(text);
  p.root = std::move(e);
  return p;
}

struct PlanBuilder {
  Plan plan;

  explicit PlanBuilder(InputFormat f = InputFormat::ExplainFormatted) { plan.format = f; }

  std::size_t add(const std::string& name, std::vector<std::size_t> children = {}) {
    Operator op;
    op.index = plan.ops.size();
    op.name = plan.keep(name);
    op.label = op.name;
    Classification c = classify_operator(name);
    op.kind = c.kind;
    op.engine = c.engine;
    op.join.edit().strategy = c.strategy;
    op.id = plan.keep(std::to_string(op.index + 1));
    op.children = std::move(children);
    op.loc.line = static_cast<std::uint32_t>(op.index + 1);
    op.loc.column = 1;
    plan.ops.push_back(std::move(op));
    return plan.ops.size() - 1;
  }
  Operator& op(std::size_t i) { return plan.ops[i]; }

  Field& field(std::size_t i, std::string key, std::string value) {
    Field f;
    f.key = plan.keep(key);
    f.value = plan.keep(value);
    plan.ops[i].fields.push_back(std::move(f));
    return plan.ops[i].fields.back();
  }
  // A list field whose items are parsed expressions.
  Field& expr_list(std::size_t i, std::string key, std::vector<Expr> items) {
    Field& f = field(i, std::move(key), "");
    f.is_list = true;
    std::vector<std::string> texts;
    for (auto& e : items) {
      ParsedExpr p = pe(std::move(e));
      texts.push_back(p.text.str());
      f.exprs.push_back(std::move(p));
    }
    f.set_items(plan.text_store(), texts);
    f.count = texts.size();
    return f;
  }
  Field& names(std::size_t i, std::string key, std::vector<std::string> items) {
    Field& f = field(i, std::move(key), "");
    f.is_list = true;
    f.count = items.size();
    f.set_items(plan.text_store(), items);
    return f;
  }
  Field& condition(std::size_t i, Expr e) {
    Field& f = field(i, "Condition", "");
    f.exprs.push_back(pe(std::move(e)));
    f.value = plan.keep(f.exprs.back().text);
    return f;
  }
  // A `Join condition` field, named by the join as its condition.
  Field& join_condition(std::size_t i, Expr e) {
    Field& f = field(i, "Join condition", "");
    f.exprs.push_back(pe(std::move(e)));
    f.value = plan.keep(f.exprs.back().text);
    plan.ops[i].join.edit().condition_field = static_cast<std::uint32_t>(plan.ops[i].fields.size() - 1);
    return f;
  }
  void join(std::size_t i, JoinType t, BuildSide b = BuildSide::None) {
    plan.ops[i].join.edit().type = t;
    plan.ops[i].join.edit().type_text = Text::stable(to_string(t));
    plan.ops[i].join.edit().build = b;
  }
  void metric(std::size_t i, std::string label, double v, MetricUnit u = MetricUnit::Count) {
    Metric m;
    m.label = plan.keep(label);
    m.value = v;
    m.unit = u;
    plan.ops[i].edit_runtime().metrics.push_back(std::move(m));
  }

  ParseResult result() {
    plan.link();
    fill_facts_for_format(plan);  // what the reader of this format would have filled
    plan.roots = {plan.ops.size() - 1};
    ParseResult r;
    r.path = "test";
    r.format = plan.format;
    r.plans.push_back(plan);
    return r;
  }
};

// Runs the mission rules only (PL0: PL001-PL010), so other rules never disturb these tests.
inline std::vector<Diagnostic> lint(PlanBuilder& b, Config config = {}) {
  if (config.select.empty()) config.select.insert("PL0");
  return run_rules(b.result(), config);
}

inline std::vector<Diagnostic> only(const std::vector<Diagnostic>& ds, const std::string& rule) {
  std::vector<Diagnostic> out;
  for (const auto& d : ds)
    if (d.rule == rule) out.push_back(d);
  return out;
}

}  // namespace planlint::test
