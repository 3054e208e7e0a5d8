// The page of `planlint report`: HTML, CSS and JS, all inlined (no network access). The data goes
// between the head and the tail as a JSON object in <script type="application/json">, made safe by
// script_safe_json(). The script lays each plan out as a tidy tree in linear time (leaves in
// order, parents centred over their children; shared operators drawn once, extra edges drawn as
// lines, reuse edges dashed), draws it as SVG and pans/zooms by changing the viewBox.
#pragma once

namespace planlint {

inline constexpr const char* report_template_head = R"PLHTML(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>planlint report</title>
<style>
*{box-sizing:border-box}
body{margin:0;font:13px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;background:#f4f5f7}
header{background:#1d2330;color:#fff;padding:8px 16px;display:flex;gap:16px;align-items:baseline;flex-wrap:wrap}
header h1{font-size:16px;margin:0}
header .files{color:#b8c0cc;font-size:12px}
#tabs{display:flex;gap:4px;flex-wrap:wrap;padding:6px 16px 0;background:#e3e6eb}
#tabs button{border:1px solid #c5cad3;border-bottom:none;background:#eef0f3;padding:4px 10px;border-radius:4px 4px 0 0;cursor:pointer;font:inherit;max-width:360px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#tabs button.on{background:#fff;font-weight:600}
#summary{background:#fff;padding:6px 16px;border-bottom:1px solid #d8dce2;font-size:13px}
#summary .ph{font-weight:600}
#main{display:flex;height:68vh;min-height:360px;border-bottom:1px solid #d8dce2}
#graphwrap{flex:1;position:relative;background:#fbfbfc;overflow:hidden}
#graph{width:100%;height:100%;display:block;cursor:grab;user-select:none}
#graph.drag{cursor:grabbing}
#tools{position:absolute;top:8px;left:8px;display:flex;gap:4px;align-items:center}
#tools button{font:inherit;padding:2px 8px;border:1px solid #c5cad3;background:#fff;border-radius:3px;cursor:pointer}
#legend{position:absolute;bottom:6px;left:8px;font-size:11px;background:rgba(255,255,255,.9);padding:3px 6px;border:1px solid #d8dce2;border-radius:3px}
#legend i{display:inline-block;width:11px;height:11px;border:1px solid #999;vertical-align:-1px;margin:0 3px 0 8px}
#details{width:380px;overflow:auto;background:#fff;border-left:1px solid #d8dce2;padding:10px 12px}
#details h2{font-size:14px;margin:0 0 6px;word-break:break-all}
#details table{border-collapse:collapse;width:100%;margin:4px 0 10px;font-size:12px}
#details td{border-top:1px solid #eceef1;padding:2px 4px;vertical-align:top}
#details td:first-child{color:#5a6372;white-space:nowrap;width:1%}
#details td.v{font-family:ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap;word-break:break-all}
#details h3{font-size:12px;text-transform:uppercase;color:#5a6372;margin:10px 0 2px}
.muted{color:#7a8391}
a.op{color:#1a56c4;cursor:pointer;text-decoration:underline}
section.block{padding:8px 16px;background:#fff;margin:10px 16px;border:1px solid #d8dce2;border-radius:4px}
section.block h2{font-size:14px;margin:2px 0 8px}
#findings ol{margin:0;padding-left:22px}
#findings li{padding:4px 6px;border-radius:3px;margin-bottom:2px}
#findings li.link{cursor:pointer}
#findings li.link:hover{background:#f0f4fb}
#findings li.sel{background:#fff3cd}
.sev{display:inline-block;font-size:11px;font-weight:600;padding:0 5px;border-radius:3px;color:#fff;margin-right:4px}
.sev.error{background:#c62828}.sev.warning{background:#d9822b}.sev.note{background:#3b7dd8}
.rule{font-family:ui-monospace,Menlo,Consolas,monospace;font-weight:600}
.fix{color:#2e6b30}
.ev{color:#5a6372;font-size:12px}
pre{background:#f4f5f7;padding:6px 8px;border-radius:3px;overflow:auto;font-size:12px;white-space:pre-wrap}
#rules article{border-top:1px solid #eceef1;padding:6px 0}
#top{margin:0;padding:4px 16px 6px;background:#fff;border-bottom:1px solid #d8dce2}
#top table{border-collapse:collapse;font-size:12px}
#top th{text-align:right;color:#5a6372;font-weight:600;padding:1px 8px;cursor:pointer;user-select:none;white-space:nowrap}
#top th:first-child,#top td:first-child{text-align:left}
#top th.on{color:#1d2330;text-decoration:underline}
#top td{text-align:right;padding:1px 8px;border-top:1px solid #eceef1;font-variant-numeric:tabular-nums;white-space:nowrap}
#top tr.hot td{font-weight:600}
#top tr.b1 td:nth-child(2){background:#fee08b}#top tr.b2 td:nth-child(2){background:#fc8d59}#top tr.b3 td:nth-child(2){background:#d73027;color:#fff}
#executions table,#stages table,#query table{border-collapse:collapse;font-size:12px}
#executions th,#stages th,#query th{text-align:right;color:#5a6372;font-weight:600;padding:1px 8px;white-space:nowrap}
#executions td,#stages td,#query td{text-align:right;padding:1px 8px;border-top:1px solid #eceef1;font-variant-numeric:tabular-nums;white-space:nowrap}
#executions td.l,#executions th.l,#stages td.l,#stages th.l,#query td.l{text-align:left}
#executions tr.cur td{font-weight:600}
#stages tr.skew td.sk{color:#c62828;font-weight:600}
svg.hist rect{fill:#6b7b8f}
svg.hist rect.last{fill:#c62828}
svg.hist line{stroke:#c5cad3}
svg text{font:11px system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;pointer-events:none}
svg .t1{font-weight:600}
.n rect.box{fill:#f7f8fa;stroke:#8a93a3;stroke-width:1}
.n{cursor:pointer}
.n.b0 rect.box{fill:#ffffff}
.n.b1 rect.box{fill:#fee08b}
.n.b2 rect.box{fill:#fc8d59}
.n.b3 rect.box{fill:#d73027}
.n.b3 text{fill:#fff}
.n.f rect.box{stroke:#c62828;stroke-width:2.5}
.n.sel rect.box{stroke:#1a56c4;stroke-width:4}
.n rect.eng{fill:#2f6fdb}
.n rect.eng.j{fill:#6b7b8f}
.n text.badge{font-weight:700;fill:#c62828}
.n.b3 text.badge{fill:#fff}
path.e{fill:none;stroke:#9aa3b2;stroke-width:1.2}
path.r{fill:none;stroke:#6a4fc9;stroke-width:1.4;stroke-dasharray:5 4}
path.hl{fill:none;stroke:#1a56c4;stroke-width:2.5}
</style>
</head>
<body>
<header><h1>planlint report</h1><span class="files" id="files"></span></header>
<section class="block" id="executions" hidden><h2>SQL executions</h2><div id="elist"></div></section>
<nav id="tabs"></nav>
<div id="summary"></div>
<section id="top" hidden></section>
<div id="main">
  <div id="graphwrap">
    <svg id="graph" role="img" aria-label="operator graph"><g id="edges"></g><g id="nodes"></g></svg>
    <div id="tools"><button id="fit" title="fit the plan in view">fit</button><button id="zin">+</button><button id="zout">&minus;</button><span class="muted" id="hint">drag to pan, wheel to zoom, click an operator</span></div>
    <div id="legend"></div>
  </div>
  <aside id="details"><p class="muted">Click an operator or a finding to see its details.</p></aside>
</div>
<section class="block" id="findings"><h2>Findings</h2><div id="flist"></div></section>
<section class="block" id="stages" hidden><h2>Stages</h2><div id="slist"></div></section>
<section class="block" id="query" hidden><h2>Query</h2><div id="qlist"></div></section>
<section class="block" id="messages" hidden><h2>Parser messages</h2><div id="mlist"></div></section>
<section class="block" id="rules"><h2>Rules that fired</h2><div id="rlist"></div></section>
<script type="application/json" id="planlint-data">)PLHTML";

inline constexpr const char* report_template_tail = R"PLHTML(</script>
<script>
(function () {
'use strict';
var t0 = performance.now();
var D = JSON.parse(document.getElementById('planlint-data').textContent);
var svg = document.getElementById('graph');
var NS = svg.namespaceURI;
var W = 210, H = 44, GX = 18, GY = 38;
var plans = [];
D.files.forEach(function (f, fi) { f.plans.forEach(function (p, pi) { plans.push({file: f, fi: fi, plan: p, pi: pi}); }); });
var cur = null, nodesEl = [], sel = -1, pos = null, vb = {x: 0, y: 0, w: 1000, h: 600}, bounds = null;

function el(tag, cls, text, parent) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (parent) parent.appendChild(e);
  return e;
}
function sv(tag, attrs, parent) {
  var e = document.createElementNS(NS, tag);
  for (var k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
function cut(s, n) { s = String(s); return s.length > n ? s.slice(0, n - 1) + '\u2026' : s; }
function compact(v) {
  return v >= 1e9 ? (v / 1e9).toFixed(1) + 'G' : v >= 1e6 ? (v / 1e6).toFixed(1) + 'M' : v >= 1e4 ? (v / 1e3).toFixed(1) + 'K' : String(Math.round(v));
}
function pct(x) { return (x * 100).toFixed(x < 0.1 ? 1 : 0) + '%'; }
function band(op, hasTime) {
  if (!hasTime) return '';
  if (op.share === undefined) return 'b0';
  return op.share > 0.9 ? 'b3' : op.share > 0.5 ? 'b2' : op.share > 0.1 ? 'b1' : 'b0';
}

// Tidy tree in O(n + edges): each operator is placed under the first parent that reaches it
// (shared operators are drawn once), leaves take consecutive slots left to right, a parent sits
// centred over its first and last drawn child. Iterative: deep plans cannot overflow the stack.
function layout(p) {
  var n = p.ops.length, x = new Float64Array(n), depth = new Int32Array(n), seen = new Uint8Array(n);
  var hasParent = new Uint8Array(n), tree = new Array(n), leaf = 0, maxDepth = 0, i, j;
  for (i = 0; i < n; i++) p.ops[i].children.forEach(function (c) { if (c < n) hasParent[c] = 1; });
  var order = [];
  (p.roots || []).forEach(function (r) { if (r < n) order.push(r); });
  for (i = 0; i < n; i++) if (!hasParent[i]) order.push(i);
  for (i = 0; i < n; i++) order.push(i);  // cycles and leftovers
  for (j = 0; j < order.length; j++) {
    var r = order[j];
    if (seen[r]) continue;
    if (leaf > 0) leaf += 0.5;
    seen[r] = 1; depth[r] = 0;
    var stack = [r], idx = [0];
    tree[r] = [];
    p.ops[r].children.forEach(function (c) { if (c < n && !seen[c]) { seen[c] = 1; depth[c] = 1; tree[r].push(c); } });
    while (stack.length) {
      var top = stack.length - 1, v = stack[top], k = idx[top];
      if (k < tree[v].length) {
        idx[top]++;
        var c = tree[v][k];
        tree[c] = [];
        p.ops[c].children.forEach(function (g) { if (g < n && !seen[g]) { seen[g] = 1; depth[g] = depth[c] + 1; tree[c].push(g); } });
        stack.push(c); idx.push(0);
      } else {
        var t = tree[v];
        x[v] = t.length ? (x[t[0]] + x[t[t.length - 1]]) / 2 : leaf++;
        if (depth[v] > maxDepth) maxDepth = depth[v];
        stack.pop(); idx.pop();
      }
    }
  }
  var px = new Float64Array(n), py = new Float64Array(n);
  for (i = 0; i < n; i++) { px[i] = x[i] * (W + GX); py[i] = depth[i] * (H + GY); }
  return {x: px, y: py, w: Math.max(1, leaf) * (W + GX), h: (maxDepth + 1) * (H + GY)};
}

function edgePath(c, p) {
  var x1 = pos.x[c] + W / 2, y1 = pos.y[c], x2 = pos.x[p] + W / 2, y2 = pos.y[p] + H;
  var m = (y1 + y2) / 2;
  return 'M' + x1 + ' ' + y1 + 'C' + x1 + ' ' + m + ' ' + x2 + ' ' + m + ' ' + x2 + ' ' + y2;
}

function setVB() { svg.setAttribute('viewBox', vb.x + ' ' + vb.y + ' ' + vb.w + ' ' + vb.h); }
function aspect() { var r = svg.getBoundingClientRect(); return r.width > 0 ? r.height / r.width : 0.6; }
function fit() {
  var a = aspect(), w = bounds.w + 40, h = bounds.h + 70, rw = svg.getBoundingClientRect().width || 1000;
  if (h / a > w) w = h / a;
  if (rw / w < 0.35) {  // too large to read whole: start at a readable zoom on the top of the tree
    w = rw / 0.8;
    var root = (cur.plan.roots && cur.plan.roots.length) ? cur.plan.roots[0] : 0;
    var cx = pos.x.length ? pos.x[root] + W / 2 : 0;
    vb = {x: cx - w / 2, y: -50, w: w, h: w * a};
  } else {
    vb = {x: -20 - (w - bounds.w - 40) / 2, y: -50, w: w, h: w * a};
  }
  setVB();
}
function zoom(f, mx, my) {
  if (mx === undefined) { mx = vb.x + vb.w / 2; my = vb.y + vb.h / 2; }
  var nw = Math.min(Math.max(vb.w * f, 100), Math.max(bounds.w, bounds.h) * 4 + 2000);
  f = nw / vb.w;
  vb = {x: mx - (mx - vb.x) * f, y: my - (my - vb.y) * f, w: nw, h: nw * aspect()};
  setVB();
}
function focusOp(i) {
  var rw = svg.getBoundingClientRect().width || 1000;
  var w = rw / vb.w < 0.5 ? rw : vb.w;
  vb = {x: pos.x[i] + W / 2 - w / 2, y: pos.y[i] + H / 2 - w * aspect() / 2, w: w, h: w * aspect()};
  setVB();
}

function render(k) {
  cur = plans[k];
  var p = cur.plan, n = p.ops.length, i;
  Array.prototype.forEach.call(document.querySelectorAll('#tabs button'), function (b, bi) { b.className = bi === k ? 'on' : ''; });
  pos = layout(p);
  bounds = {w: pos.w, h: pos.h};
  var hasTime = p.ops.some(function (o) { return o.share !== undefined; });
  var photon = p.ops.some(function (o) { return o.engine !== 'spark'; });
  var edges = document.getElementById('edges'), nodes = document.getElementById('nodes');
  edges.textContent = ''; nodes.textContent = '';
  var d = [], dr = [];
  for (i = 0; i < n; i++) {
    var o = p.ops[i];
    o.children.forEach(function (c) { if (c < n) d.push(edgePath(c, i)); });
    if (o.reuses !== undefined && o.reuses < n) dr.push(edgePath(o.reuses, i));
  }
  sv('path', {'class': 'e', d: d.join('')}, edges);
  if (dr.length) sv('path', {'class': 'r', d: dr.join('')}, edges);
  sv('path', {'class': 'hl', id: 'hl', d: ''}, edges);
  nodesEl = new Array(n);
  var frag = document.createDocumentFragment();
  for (i = 0; i < n; i++) {
    var op = p.ops[i], nf = op.findings ? op.findings.length : 0;
    var g = sv('g', {'class': 'n ' + band(op, hasTime) + (nf ? ' f' : ''), transform: 'translate(' + pos.x[i] + ',' + pos.y[i] + ')', 'data-i': i}, frag);
    sv('rect', {'class': 'box', width: W, height: H, rx: 4}, g);
    if (photon) sv('rect', {'class': 'eng' + (op.engine === 'spark' ? ' j' : ''), x: 0, y: 0, width: 5, height: H}, g);
    var t1 = sv('text', {'class': 't1', x: 9, y: 17}, g);
    t1.textContent = cut(op.name + (op.id ? ' (' + op.id + ')' : ''), nf ? 26 : 30);
    var line2 = [];
    if (op.share !== undefined) line2.push(pct(op.share));
    if (op.nrows !== undefined) line2.push(compact(op.nrows) + ' rows');
    if (op.time !== undefined) line2.push(op.time);
    else if (op.stage_time !== undefined) line2.push('stage ' + op.stage_time);
    if (!line2.length) line2.push(op.kind + (op.table ? ' ' + op.table : ''));
    var t2 = sv('text', {x: 9, y: 35}, g);
    t2.textContent = cut(line2.join(' \u00b7 '), 36);
    if (nf) { var b = sv('text', {'class': 'badge', x: W - 6, y: 16, 'text-anchor': 'end'}, g); b.textContent = '\u26a0' + nf; }
    nodesEl[i] = g;
  }
  nodes.appendChild(frag);
  sel = -1;

  var lg = document.getElementById('legend');
  lg.textContent = '';
  if (hasTime) {
    el('span', '', 'share of operator time' + (p.operator_time ? ' (' + p.operator_time + ')' : '') + ':', lg);
    [['#ffffff', '\u226410%'], ['#fee08b', '>10%'], ['#fc8d59', '>50%'], ['#d73027', '>90%']].forEach(function (b) {
      var s = el('i', '', null, lg); s.style.background = b[0]; el('span', '', b[1], lg);
    });
  } else {
    el('span', '', 'structure only (no runtime metrics in this input)', lg);
  }
  if (photon) {
    var a = el('i', '', null, lg); a.style.background = '#2f6fdb'; el('span', '', 'Photon', lg);
    var j = el('i', '', null, lg); j.style.background = '#6b7b8f'; el('span', '', 'JVM', lg);
  }
  var rs = el('i', '', null, lg); rs.style.border = '1px dashed #6a4fc9'; el('span', '', 'reuse', lg);

  var sm = document.getElementById('summary');
  sm.textContent = '';
  el('span', 'ph', cur.file.path + ' \u2014 ' + p.name + ': ', sm);
  el('span', '', p.summary || (n + ' operators'), sm);

  var fl = document.getElementById('flist');
  fl.textContent = '';
  if (!p.diags.length) el('p', 'muted', 'No findings in this plan.', fl);
  var ol = el('ol', '', null, fl);
  p.diags.forEach(function (dg, di) {
    var li = el('li', dg.op !== undefined ? 'link' : '', null, ol);
    li.id = 'finding-' + di;
    el('span', 'sev ' + dg.severity, dg.severity, li);
    el('span', 'rule', dg.rule, li);
    if (dg.op !== undefined) { li.appendChild(document.createTextNode(' on ')); el('a', 'op', p.ops[dg.op].name + (p.ops[dg.op].id ? ' (' + p.ops[dg.op].id + ')' : ''), li); }
    el('div', '', dg.message, li);
    if (dg.fix) el('div', 'fix', 'Fix: ' + dg.fix, li);
    if (dg.evidence.length) el('div', 'ev', 'Evidence: ' + dg.evidence.map(function (e) { return e[0] + ' = ' + e[1]; }).join('; ') + (dg.impact ? ' \u2014 ' + dg.impact : ''), li);
    if (dg.op !== undefined) li.addEventListener('click', function () { select(dg.op, true); });
  });
  document.getElementById('details').innerHTML = '<p class="muted">Click an operator or a finding to see its details.</p>';
  topTable(p, hasTime);
  stageTable(p);
  queryBlock(p);
  fit();
  if (hasTime && p.top && p.top.length && p.ops[p.top[0]].share !== undefined) {
    select(p.top[0], false);  // open zoomed to the hottest operator (without scrolling the page)
    focusOp(p.top[0]);
    document.body.setAttribute('data-hot', String(p.top[0]));
  } else {
    for (i = 0; i < p.diags.length; i++) if (p.diags[i].op !== undefined) { select(p.diags[i].op, false); break; }
  }
  document.body.setAttribute('data-plan', String(k));
  document.body.setAttribute('data-ops', String(nodes.querySelectorAll('g.n').length));
  document.body.setAttribute('data-findings', String(ol.children.length));
}

// The stage view (runtime inputs): per stage its tasks, their total time, the median and longest
// task, and a histogram of task times (10 equal bins up to the longest task; bar heights on a log
// scale so that one lone task still shows): skew is a bar far right, apart from the others.
function histogram(h, parent) {
  var w = 100, ht = 22, bw = w / h.length, mx = Math.max.apply(null, h);
  var s = sv('svg', {'class': 'hist', width: w, height: ht, viewBox: '0 0 ' + w + ' ' + ht}, parent);
  sv('line', {x1: 0, y1: ht - 0.5, x2: w, y2: ht - 0.5}, s);
  h.forEach(function (c, i) {
    if (!c) return;
    var bh = 3 + (ht - 4) * Math.log(1 + c) / Math.log(1 + mx);
    var r = sv('rect', {x: i * bw + 1, y: ht - bh, width: bw - 2, height: bh}, s);
    if (i === h.length - 1) r.setAttribute('class', 'last');
    var t = sv('title', {}, r); t.textContent = c + (c === 1 ? ' task' : ' tasks') + ' in bin ' + (i + 1) + ' of ' + h.length;
  });
  s.setAttribute('aria-label', 'task-time histogram: ' + h.join(' '));
  return s;
}
function stageTable(p) {
  var box = document.getElementById('slist'), st = p.stages || [];
  box.textContent = '';
  document.getElementById('stages').hidden = !st.length;
  document.body.setAttribute('data-stages', String(st.length));
  if (!st.length) return;
  var t = el('table', '', null, box), hr = el('tr', '', null, t);
  [['stage', 'l'], ['tasks'], ['task time'], ['median task'], ['max task'], ['max / median'], ['task times', 'l'], ['duration'], ['operators', 'l']].forEach(function (c) { el('th', c[1] || '', c[0], hr); });
  st.forEach(function (s) {
    var skew = s.skew !== undefined && s.skew >= 5 && s.nmax >= 1000;
    var tr = el('tr', skew ? 'skew' : '', null, t);
    el('td', 'l', s.id + (s.status ? ' (' + s.status + ')' : ''), tr);
    el('td', '', s.tasks !== undefined ? compact(s.tasks) : '', tr);
    el('td', '', s.total || '', tr);
    el('td', '', s.median || '', tr);
    el('td', '', s.max || '', tr);
    el('td', 'sk', s.skew !== undefined ? s.skew.toFixed(1) + '\u00d7' : '', tr);
    var h = el('td', 'l', null, tr);
    if (s.hist) histogram(s.hist, h);
    el('td', '', s.duration || '', tr);
    var o = el('td', 'l', null, tr);
    s.ops.slice(0, 4).forEach(function (i, k) { if (k) o.appendChild(document.createTextNode(', ')); opLink(i, o); });
    if (s.ops.length > 4) o.appendChild(document.createTextNode(' +' + (s.ops.length - 4)));
  });
  el('p', 'muted', 'Histogram: tasks in 10 equal bins of task time, from 0 to the longest task (log scale); a red bar is the longest task. A stage whose longest task is 5\u00d7 its median (and over 1 s) is marked. A failed stage (or one that did not complete) counts only the tasks that succeeded.', box);
}
// The query's own metrics and its SQL text, when the input has them.
function queryBlock(p) {
  var box = document.getElementById('qlist'), q = p.query || {};
  box.textContent = '';
  var any = (q.metrics && q.metrics.length) || q.sql || q.failed_jobs;
  document.getElementById('query').hidden = !any;
  if (!any) return;
  if (q.metrics && q.metrics.length) {
    var t = el('table', '', null, box);
    q.metrics.forEach(function (m) { var tr = el('tr', '', null, t); el('td', 'l', m[0], tr); el('td', '', m[1], tr); });
  }
  (q.failed_jobs || []).forEach(function (j) { el('p', '', 'Job ' + j.id + ' failed' + (j.failure ? ': ' + j.failure : '') + ' (its task time counts only the tasks that succeeded)', box); });
  if (q.sql) { el('h3', '', 'SQL', box); el('pre', '', q.sql, box); }
}

// The top-operators table (like pev2's stats grid): sortable by each column, click a row to select.
var topSort = {col: 1, desc: true};
function topTable(p, hasTime) {
  var box = document.getElementById('top');
  box.textContent = '';
  if (!p.top || !p.top.length) { box.hidden = true; return; }
  box.hidden = false;
  var cols = [['operator', function (o) { return o.name; }, function (o, i) { return (p.mixed ? (o.engine === 'spark' ? 'J ' : 'P ') : '') + o.name + (o.id ? ' (' + o.id + ')' : ''); }],
              ['share', function (o) { return o.share || 0; }, function (o) { return o.share !== undefined ? pct(o.share) : ''; }],
              ['time', function (o) { return o.ms || 0; }, function (o) { return o.time || ''; }],
              ['inclusive', function (o) { return o.inclusive_ms || o.ms || 0; }, function (o) { return o.inclusive || ''; }],
              ['rows', function (o) { return o.nrows || 0; }, function (o) { return o.nrows !== undefined ? compact(o.nrows) : ''; }],
              ['spill', function (o) { return o.nspill || 0; }, function (o) { return o.spill || ''; }],
              ['shuffle written', function (o) { return o.nshuffle || 0; }, function (o) { return o.shuffle || ''; }],
              ['time from', function (o) { return o.basis || ''; }, function (o) { return o.basis || ''; }]];
  var t = el('table', '', null, box), hr = el('tr', '', null, el('thead', '', null, t));
  var cap = t.createCaption();
  cap.textContent = 'Top operators' + (hasTime ? ' by exclusive time' : '') + ' (click a column to sort, a row to select)';
  cap.style.textAlign = 'left'; cap.style.fontWeight = '600';
  cols.forEach(function (c, ci) {
    var th = el('th', ci === topSort.col ? 'on' : '', c[0], hr);
    th.addEventListener('click', function () { topSort = {col: ci, desc: ci === topSort.col ? !topSort.desc : ci !== 0}; topTable(p, hasTime); });
  });
  var idx = p.top.slice(), key = cols[topSort.col][1];
  idx.sort(function (a, b) { var x = key(p.ops[a]), y = key(p.ops[b]); var r = x < y ? -1 : x > y ? 1 : 0; return topSort.desc ? -r : r; });
  var tb = el('tbody', '', null, t);
  idx.forEach(function (i, ri) {
    var o = p.ops[i], tr = el('tr', band(o, hasTime) + (i === p.top[0] ? ' hot' : ''), null, tb);
    tr.setAttribute('data-i', i);
    cols.forEach(function (c) { el('td', '', c[2](o, i), tr); });
    tr.style.cursor = 'pointer';
    tr.addEventListener('click', function () { select(i, true); });
  });
}

function row(t, k, v, mono) {
  var tr = el('tr', '', null, t);
  el('td', '', k, tr);
  el('td', mono ? 'v' : '', v, tr);
}
function opLink(i, parent) {
  var o = cur.plan.ops[i], a = el('a', 'op', o.name + (o.id ? ' (' + o.id + ')' : ''), parent);
  a.addEventListener('click', function () { select(i, true); });
  parent.appendChild(document.createTextNode(' '));
}
function select(i, focus) {
  var p = cur.plan, o = p.ops[i];
  if (sel >= 0 && nodesEl[sel]) nodesEl[sel].classList.remove('sel');
  sel = i;
  nodesEl[i].classList.add('sel');
  nodesEl[i].parentNode.appendChild(nodesEl[i]);  // on top
  var hl = [];
  o.children.forEach(function (c) { hl.push(edgePath(c, i)); });
  p.ops.forEach(function (q, qi) { if (q.children.indexOf(i) >= 0) hl.push(edgePath(i, qi)); });
  document.getElementById('hl').setAttribute('d', hl.join(''));
  Array.prototype.forEach.call(document.querySelectorAll('#flist li'), function (li) { li.classList.remove('sel'); });
  (o.findings || []).forEach(function (fi) { var li = document.getElementById('finding-' + fi); if (li) li.classList.add('sel'); });
  var dt = document.getElementById('details');
  dt.textContent = '';
  el('h2', '', o.name + (o.id ? ' (' + o.id + ')' : ''), dt);
  var t = el('table', '', null, dt);
  row(t, 'kind', o.kind);
  row(t, 'engine', o.engine === 'spark' ? 'JVM (Spark)' : o.engine);
  row(t, 'section', o.section);
  if (o.codegen) row(t, 'codegen', 'whole-stage');
  if (o.table) row(t, 'table', o.table);
  if (o.rows !== undefined) row(t, 'rows', o.rows);
  if (o.time !== undefined) row(t, 'time', o.time + (o.share !== undefined ? ' (' + pct(o.share) + ' of operator time)' : '') + (o.basis ? ', from ' + o.basis : ''));
  if (o.inclusive !== undefined) row(t, 'inclusive time', o.inclusive + ' (with the timed operators below it in the same tasks)');
  if (o.stage_time !== undefined) row(t, 'stage time', o.stage_time + ' (its members\u2019 time, counted on them)');
  if (o.memory !== undefined) row(t, 'peak memory', o.memory);
  if (o.estimate !== undefined) row(t, 'estimated size', o.estimate);
  if (o.line) row(t, 'line', o.line);
  if (o.label) row(t, 'label', o.label, true);
  if (o.findings && o.findings.length) {
    el('h3', '', 'Findings', dt);
    o.findings.forEach(function (fi) {
      var dg = p.diags[fi], dv = el('div', '', null, dt);
      el('span', 'sev ' + dg.severity, dg.severity, dv); el('span', 'rule', dg.rule, dv);
      el('div', '', dg.message, dv);
      if (dg.fix) el('div', 'fix', 'Fix: ' + dg.fix, dv);
    });
  }
  if (o.children.length) { el('h3', '', 'Inputs', dt); var ci = el('div', '', null, dt); o.children.forEach(function (c) { opLink(c, ci); }); }
  if (o.reuses !== undefined) { el('h3', '', 'Reuses', dt); opLink(o.reuses, el('div', '', null, dt)); }
  if (o.metrics.length) { el('h3', '', 'Metrics', dt); var mt = el('table', '', null, dt); o.metrics.forEach(function (m) { row(mt, m[0], m[1], true); }); }
  if (o.fields.length) { el('h3', '', 'Fields', dt); var ft = el('table', '', null, dt); o.fields.forEach(function (f) { row(ft, f[0] || '\u2014', f[1], true); }); }
  dt.scrollTop = 0;
  if (focus) {
    focusOp(i);
    var r = svg.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) document.getElementById('main').scrollIntoView({block: 'start'});
  }
}

// Pan and zoom through the viewBox.
var drag = null, moved = false;
svg.addEventListener('pointerdown', function (e) { drag = {x: e.clientX, y: e.clientY, vx: vb.x, vy: vb.y}; moved = false; });
window.addEventListener('pointermove', function (e) {
  if (!drag) return;
  var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
  if (!moved && Math.abs(dx) + Math.abs(dy) < 4) return;
  moved = true; svg.classList.add('drag');
  var s = vb.w / (svg.getBoundingClientRect().width || 1);
  vb.x = drag.vx - dx * s; vb.y = drag.vy - dy * s; setVB();
});
window.addEventListener('pointerup', function () { drag = null; svg.classList.remove('drag'); });
svg.addEventListener('click', function (e) {
  if (moved) return;
  var g = e.target.closest ? e.target.closest('g.n') : null;
  if (g) select(+g.getAttribute('data-i'), false);
});
svg.addEventListener('wheel', function (e) {
  e.preventDefault();
  var r = svg.getBoundingClientRect();
  zoom(Math.exp(e.deltaY * 0.0015), vb.x + (e.clientX - r.left) / r.width * vb.w, vb.y + (e.clientY - r.top) / r.height * vb.h);
}, {passive: false});
document.getElementById('fit').addEventListener('click', function () { fit(); });
document.getElementById('zin').addEventListener('click', function () { zoom(1 / 1.4); });
document.getElementById('zout').addEventListener('click', function () { zoom(1.4); });
window.addEventListener('resize', function () { vb.h = vb.w * aspect(); setVB(); });

// Static parts: files, tabs, parser messages, rule docs.
document.getElementById('files').textContent = D.files.map(function (f) { return f.path + ' (' + f.format + ')'; }).join(', ') + ' \u2014 planlint ' + D.version;
var tabs = document.getElementById('tabs');
plans.forEach(function (pl, k) {
  var base = pl.file.path.split('/').pop();
  var nops = pl.plan.ops.length, nd = pl.plan.diags.length;
  var b = el('button', '', (D.files.length > 1 ? base + ': ' : '') + pl.plan.name + ' (' + nops + (nops === 1 ? ' op, ' : ' ops, ') + nd + (nd === 1 ? ' finding)' : ' findings)'), tabs);
  b.title = pl.file.path + ': ' + pl.plan.name;
  b.addEventListener('click', function () { render(k); });
});
// The SQL executions of each input that holds several, longest first; the trivial ones folded into
// one line (their plans are left out of the report); click a shown one to open its tab.
var elist = document.getElementById('elist'), nexec = 0;
D.files.forEach(function (f) {
  if (!f.executions) return;
  nexec++;
  if (D.files.length > 1) el('h3', '', f.path, elist);
  var t = el('table', '', null, elist), hr = el('tr', '', null, t), folded = [], why = [];
  [['id'], ['duration'], ['task time'], ['findings'], ['description', 'l']].forEach(function (c) { el('th', c[1] || '', c[0], hr); });
  f.executions.forEach(function (e) {
    if (e.trivial) { folded.push(e.id); if (why.indexOf(e.trivial) < 0) why.push(e.trivial); return; }
    var tr = el('tr', '', null, t);
    el('td', '', e.id, tr); el('td', '', e.duration || '', tr); el('td', '', e.task || '', tr); el('td', '', e.findings, tr);
    var d = el('td', 'l', null, tr), a = el('a', 'op', (e.failed || '') + cut(e.description || '(no description)', 90), d);
    a.addEventListener('click', function () {
      for (var k = 0; k < plans.length; k++) if (plans[k].file === f && plans[k].plan.query && plans[k].plan.query.id === e.id) { render(k); break; }
    });
  });
  if (folded.length) el('p', 'muted', folded.length + (folded.length === 1 ? ' trivial execution' : ' trivial executions') + ' folded (' + why.join(', ') + '): ' + folded.join(', ') + ' \u2014 planlint report --execution ID reports one.', elist);
  document.body.setAttribute('data-folded', String(folded.length));
});
if (nexec) document.getElementById('executions').hidden = false;
var ml = document.getElementById('mlist'), nmsg = 0;
D.files.forEach(function (f) {
  f.messages.forEach(function (m) { nmsg++; el('div', '', f.path + ':' + m.line + ':' + m.column + ': ' + m.severity + ': ' + m.message, ml); });
});
if (nmsg) document.getElementById('messages').hidden = false;
var rl = document.getElementById('rlist'), names = Object.keys(D.rules);
if (!names.length) el('p', 'muted', 'No rule fired.', rl);
names.forEach(function (name) {
  var r = D.rules[name], a = el('article', '', null, rl);
  a.id = 'rule-' + name;
  var h = el('h3', '', null, a); el('span', 'sev ' + r.severity, r.severity, h); el('span', 'rule', name + ' (' + r.code + ')', h);
  el('div', '', r.summary, a);
  if (r.what) { el('h4', '', 'What it does', a); el('div', '', r.what, a); }
  if (r.why) { el('h4', '', 'Why is this bad?', a); el('div', '', r.why, a); }
  if (r.example) { el('h4', '', 'Example', a); el('pre', '', r.example, a); }
  if (r.use_instead) { el('h4', '', 'Use instead', a); el('pre', '', r.use_instead, a); }
});
if (plans.length) {
  var first = 0;
  for (var k = 0; k < plans.length; k++) if (plans[k].plan.diags.length) { first = k; break; }
  render(first);
} else {
  el('p', 'muted', 'No plan could be read from the input.', document.getElementById('summary'));
  document.body.setAttribute('data-ops', '0');
  document.body.setAttribute('data-findings', '0');
}
document.body.setAttribute('data-plans', String(plans.length));
document.body.setAttribute('data-render-ms', String(Math.round(performance.now() - t0)));
document.body.setAttribute('data-ok', '1');
})();
</script>
</body>
</html>
)PLHTML";

}  // namespace planlint
