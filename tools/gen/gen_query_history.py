#!/usr/bin/env python3
"""Write a synthetic export of Databricks' system.query.history for `planlint history` tests.

Deterministic for a given --seed. Writes, into --out-dir:
  history-regressed.csv / .jsonl   two planted regressions (see PLANTED below)
  history-clean.csv / .jsonl       the same statements without them
Column names follow the system table (docs/history.md). The export ends 2026-01-15 12:00 UTC;
the last 24 hours are the recent window, the seven days before it the baseline.
"""
import argparse
import csv
import datetime as dt
import io
import json
import pathlib
import random

END = dt.datetime(2026, 1, 15, 12, 0, 0, tzinfo=dt.timezone.utc)

# name: (query tag or None, SQL template, runs per day, phase means in ms: compute, capacity,
#        compilation, execution, fetch)
STATEMENTS = {
    "sales_dashboard": ({"team": "bi", "dashboard": "sales"},
                        "SELECT region, sum(amount) FROM sales.orders WHERE order_date >= '{d}' GROUP BY region",
                        30, (0, 50, 300, 2500, 40)),
    "orders_by_day": (None,
                      "SELECT order_date,\n  count(*) AS n\nFROM sales.orders\nWHERE customer_id = {n}\nGROUP BY order_date",
                      10, (0, 20, 200, 1800, 30)),
    "nightly_etl": ({"job": "nightly_etl"},
                    "INSERT INTO mart.daily_revenue SELECT o.order_date, sum(o.amount) FROM sales.orders o "
                    "JOIN sales.customers c ON o.customer_id = c.id GROUP BY o.order_date",
                    6, (500, 100, 900, 40000, 10)),
    "inventory_check": (None,
                        "select sku, on_hand from ops.inventory where warehouse = '{w}' and on_hand < {n}",
                        8, (0, 10, 150, 900, 20)),
}

# Planted regressions in the recent window: which statement, which phase grows, by how much.
PLANTED = {
    "orders_by_day": ("execution", 3.0),     # a plan change: execution 1.8 s -> 5.4 s
    "nightly_etl": ("capacity", 40000.0),    # the warehouse is full: queueing at capacity +40 s
}
PHASES = ["waiting_for_compute_duration_ms", "waiting_at_capacity_duration_ms", "compilation_duration_ms",
          "execution_duration_ms", "result_fetch_duration_ms"]


def rows(rng, regressed):
    out = []
    sid = 0
    for name, (tags, template, per_day, means) in STATEMENTS.items():
        for day in range(8):  # 7 baseline days + the recent day
            recent = day == 7
            for k in range(per_day):
                start = END - dt.timedelta(days=8 - day) + dt.timedelta(minutes=(k + 1) * (1440 // (per_day + 1)),
                                                                         seconds=rng.randint(0, 59))
                phases = [max(0, int(rng.gauss(m, m * 0.1))) for m in means]
                if recent and regressed and name in PLANTED:
                    phase, amount = PLANTED[name]
                    if phase == "execution":
                        phases[3] = int(phases[3] * amount)
                    else:
                        phases[1] += int(amount * rng.uniform(0.9, 1.1))
                # One slow outlier in the recent window of the sales dashboard: not a trend.
                if recent and name == "sales_dashboard" and k == 3:
                    phases[3] *= 4
                sid += 1
                sql = template.format(d=(END - dt.timedelta(days=rng.randint(1, 30))).date(),
                                      n=rng.randint(1, 99999), w=rng.choice(["ams", "fra", "iad"]))
                spill = 0 if phases[3] < 3000 else rng.randint(0, 2) * 1024 ** 3
                out.append({
                    "statement_id": "01f0%012x-0000-0000-0000-%012x" % (sid, sid * 7919),
                    "execution_status": "FINISHED",
                    "compute": {"type": "WAREHOUSE", "warehouse_id": "ec58ee3772e8d305"},
                    "statement_text": sql,
                    "query_tags": tags,
                    "start_time": start,
                    "total_duration_ms": sum(phases),
                    **{p: v for p, v in zip(PHASES, phases)},
                    "read_bytes": rng.randint(10, 20) * 1024 ** 3,
                    "spilled_local_bytes": spill,
                    "from_result_cache": False,
                })
    # A result-cache hit and a failed run: both are left out of the analysis.
    cached = dict(out[0], statement_id="01f0cached", from_result_cache=True, total_duration_ms=80000,
                  start_time=END - dt.timedelta(hours=2))
    failed = dict(out[1], statement_id="01f0failed", execution_status="FAILED", total_duration_ms=90000,
                  start_time=END - dt.timedelta(hours=3))
    out += [cached, failed]
    out.sort(key=lambda r: (r["start_time"], r["statement_id"]))
    return out


def write_csv(path, records):
    buf = io.StringIO()
    cols = list(records[0].keys())
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for r in records:
        row = []
        for c in cols:
            v = r[c]
            if c == "start_time":
                v = v.strftime("%Y-%m-%d %H:%M:%S.") + "%03d" % (v.microsecond // 1000)
            elif isinstance(v, (dict,)):
                v = json.dumps(v, sort_keys=True)
            elif v is None:
                v = ""
            elif isinstance(v, bool):
                v = "true" if v else "false"
            row.append(v)
        w.writerow(row)
    path.write_text(buf.getvalue())


def write_jsonl(path, records):
    lines = []
    for r in records:
        r = dict(r, start_time=r["start_time"].strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (r["start_time"].microsecond // 1000))
        if r["query_tags"] is None:
            del r["query_tags"]
        lines.append(json.dumps(r, sort_keys=True))
    path.write_text("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--out-dir", default="corpus/history")
    a = ap.parse_args()
    out = pathlib.Path(a.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for regressed, name in ((True, "history-regressed"), (False, "history-clean")):
        records = rows(random.Random(a.seed), regressed)
        write_csv(out / (name + ".csv"), records)
        write_jsonl(out / (name + ".jsonl"), records)


if __name__ == "__main__":
    main()
