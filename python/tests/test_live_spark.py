"""The Python package on a real, running Spark (PySpark local[2]; issue 38 item 5).

Run by tests/live_python.sh (CTest `sh.live_python`, label `live`) with the project's PySpark venv
(tools/setup-venv.sh); tests/python.sh (Debian's python3, no PySpark) leaves this module out.
- check_dataframe on real DataFrames before and after execution, against the CLI on the same text;
- the %planlint / %%planlint magic and _repr_html_ in a real Jupyter kernel (nbclient, ipykernel);
- df.mapInPandas(planlint.spark.lint_partitions, SCHEMA) over 10,000 corpus plans, against the CLI;
- rdd.pipe("planlint check --no-config --format ndjson -") over the same table, against the CLI.
"""
import collections
import glob
import json
import os
import pathlib
import subprocess
import sys
import time

import pytest

pyspark = pytest.importorskip("pyspark", reason="PySpark is not installed (tools/setup-venv.sh)")

import planlint  # noqa: E402
import planlint.spark  # noqa: E402

SOURCE = pathlib.Path(__file__).resolve().parents[2]
ROWS = 10_000
# The corpus texts of the table: the plan of every live scenario on both Spark versions in every
# explain mode that prints a plan tree (simple, extended, formatted, cost) and the final adaptive
# plan (final-formatted). The codegen mode prints the generated Java code, not a plan.
TEXT_GLOBS = ("explain-simple.txt", "explain-extended.txt", "explain-formatted.txt", "explain-cost.txt",
              "final-formatted.txt")
FIELDS = ("rule", "code", "severity", "message", "operator_id", "operator", "line", "column", "fix")


def report(line):
    # Figures for the log of the CTest run (tests/live_python.sh runs pytest with -s).
    print(f"\n[live] {line}", flush=True)


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession
    t0 = time.time()
    s = (SparkSession.builder.master("local[2]").appName("planlint-live-python")
         .config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false")
         .config("spark.driver.memory", "768m")
         .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
         .config("spark.sql.shuffle.partitions", "4")
         .config("spark.sql.session.timeZone", "UTC")
         .config("spark.sql.execution.arrow.pyspark.enabled", "true")
         .getOrCreate())
    s.sparkContext.setLogLevel("ERROR")
    report(f"SparkSession {s.version} (local[2]) started in {time.time() - t0:.1f} s")
    yield s
    s.stop()


def _cli_json(cli, paths):
    run = subprocess.run([cli, "check", "--no-config", "--format", "json", "--exit-zero", "-j", "2", *map(str, paths)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    files = json.loads(run.stdout)["files"]
    assert [f["path"] for f in files] == [str(p) for p in paths]
    return files


def _key(d):
    return tuple(d[k] for k in FIELDS)


def _pykey(f):
    return (f.rule, f.code, f.severity, f.message, f.operator_id, f.operator, f.location.line, f.location.column, f.fix)


# ---------------------------------------------------------------------------------------------
# check_dataframe on real DataFrames


def _tables(spark):
    from pyspark.sql import functions as F
    fact = spark.range(200_000, numPartitions=2).select(
        F.col("id"), (F.col("id") % 200).alias("k"), F.rand(3).alias("v"))
    dim = spark.range(200, numPartitions=1).select(F.col("id").alias("k"), (F.col("id") % 10).alias("grp"))
    return fact, dim


def test_check_dataframe_before_and_after_execution(spark, planlint_cli, tmp_path):
    from pyspark.sql import functions as F
    fact, dim = _tables(spark)
    spark.conf.set("spark.sql.autoBroadcastJoinThreshold", "-1")
    try:
        q = fact.join(dim, "k").groupBy("grp").count()
        before_text = planlint.capture_plan(q)
        before = planlint.check_dataframe(q, config=False)
        assert "isFinalPlan=false" in before_text
        # Planned, not run: no sizes yet, so no evidence for a broadcast (precision over recall).
        assert [f.rule for f in before] == []
        assert len(q.collect()) == 10
        after_text = planlint.capture_plan(q)
        after = planlint.check_dataframe(q, config=False)
    finally:
        spark.conf.unset("spark.sql.autoBroadcastJoinThreshold")
    assert "isFinalPlan=true" in after_text
    assert after.format == "explain-formatted"
    rules = [f.rule for f in after]
    assert rules == ["shuffle-join-could-broadcast"], [str(f) for f in after]
    smj = after[0]
    assert smj.operator == "SortMergeJoin"
    assert any(e.name == "right side rows" and e.number == 200 for e in smj.evidence), smj.evidence

    # The same texts through the CLI: the same findings, field by field.
    (tmp_path / "before.txt").write_text(before_text)
    (tmp_path / "after.txt").write_text(after_text)
    cli = _cli_json(planlint_cli, [tmp_path / "before.txt", tmp_path / "after.txt"])
    assert [_key(d) for d in cli[0]["diagnostics"]] == [_pykey(f) for f in before]
    assert [_key(d) for d in cli[1]["diagnostics"]] == [_pykey(f) for f in after]

    # A Python UDF in a real plan: found before execution (the operator is in the planned tree).
    udf = F.udf(lambda x: x * 2, "long")
    u = fact.select(udf("id").alias("x"))
    found = planlint.check_dataframe(u, config=False)
    assert "python-udf" in {f.rule for f in found}, [str(f) for f in found]
    (tmp_path / "udf.txt").write_text(planlint.capture_plan(u))
    assert [_key(d) for d in _cli_json(planlint_cli, [tmp_path / "udf.txt"])[0]["diagnostics"]] == [_pykey(f) for f in found]


def test_check_dataframe_clean_query_has_no_findings(spark):
    fact, dim = _tables(spark)
    q = fact.join(dim, "k").groupBy("grp").count()   # default threshold: Spark broadcasts the dimension
    assert planlint.check_dataframe(q, config=False) == []
    assert len(q.collect()) == 10
    text = planlint.capture_plan(q)
    assert "BroadcastHashJoin" in text and "isFinalPlan=true" in text
    found = planlint.check_dataframe(q, config=False)
    assert found == [], [str(f) for f in found]
    assert found._repr_html_() == "<p><b>planlint</b>: no findings.</p>"


# ---------------------------------------------------------------------------------------------
# The magic in a real Jupyter kernel


NOTEBOOK_SETUP = '''
import planlint            # registers %planlint / %%planlint in a running IPython
from pyspark.sql import SparkSession, functions as F
spark = (SparkSession.builder.master("local[1]").appName("planlint-live-notebook")
         .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
         .config("spark.driver.memory", "512m")
         .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
         .config("spark.sql.shuffle.partitions", "4")
         .config("spark.sql.autoBroadcastJoinThreshold", "-1").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
fact = spark.range(200_000, numPartitions=2).select(F.col("id"), (F.col("id") % 200).alias("k"))
dim = spark.range(200, numPartitions=1).select(F.col("id").alias("k"), (F.col("id") % 10).alias("grp"))
q = fact.join(dim, "k").groupBy("grp").count()
print("rows", len(q.collect()))
open(PLAN_OUT, "w").write(planlint.capture_plan(q))
'''


def _kernel_spec(tmp_path):
    """A kernel spec for this interpreter (the venv's python, its ipykernel), found through JUPYTER_PATH."""
    share = tmp_path / "jupyter"
    spec = share / "kernels" / "planlint-live"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "planlint live (venv)", "language": "python"}))
    return share


def _outputs(cell, kind):
    return [o for o in cell.outputs if o.output_type == kind]


def test_magic_and_html_in_a_real_jupyter_kernel(tmp_path, planlint_cli, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    share = _kernel_spec(tmp_path)
    monkeypatch.setenv("JUPYTER_PATH", str(share))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    plan_out = tmp_path / "q.txt"
    pasted = (SOURCE / "corpus/live/4.3.0/python_udf/explain-formatted.txt").read_text()
    v = nbformat.v4
    nb = v.new_notebook(cells=[
        v.new_code_cell(f"PLAN_OUT = {str(plan_out)!r}\n" + NOTEBOOK_SETUP),
        v.new_code_cell("%planlint q"),                                   # a DataFrame, after execution
        v.new_code_cell("%%planlint --no-config\n" + pasted),              # a pasted plan
        v.new_code_cell("found = %planlint --select PL105 --no-config q\nlen(found)"),
        v.new_code_cell("planlint.check_dataframe(fact.join(dim, 'k'), config=False)"),   # before execution
        v.new_code_cell("again = %planlint q\nagain[0]"),                # one Finding's own HTML
        v.new_code_cell("%load_ext planlint\n%planlint --bogus q"),        # a wrong option: an error cell
        v.new_code_cell("spark.stop()"),
    ], metadata={"kernelspec": {"name": "planlint-live", "display_name": "planlint live (venv)", "language": "python"}})
    t0 = time.time()
    client = nbclient.NotebookClient(nb, kernel_name="planlint-live", timeout=300, allow_errors=True,
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    report(f"notebook of {len(nb.cells)} cells executed by nbclient in {time.time() - t0:.1f} s")
    setup, magic_df, magic_cell, selected, before, one, bad, _ = nb.cells
    assert not _outputs(setup, "error"), setup.outputs
    assert any("rows 10" in o.text for o in _outputs(setup, "stream")), setup.outputs

    # %planlint q: the findings of the DataFrame's final plan, as a table, equal to the CLI's.
    cli = _cli_json(planlint_cli, [plan_out])[0]["diagnostics"]
    assert [d["rule"] for d in cli] == ["shuffle-join-could-broadcast"]
    (res,) = _outputs(magic_df, "execute_result")
    html = res.data["text/html"]
    assert html.startswith("<table>") and html.count("<tr>") == 1 + len(cli)
    for d in cli:
        assert d["rule"] in html and d["code"] in html and f"SortMergeJoin ({d['operator_id']})" in html
    assert "Findings" in res.data["text/plain"] or "Finding(" in res.data["text/plain"]

    # %%planlint: the pasted plan's findings, equal to the CLI's on the same file.
    want = _cli_json(planlint_cli, [SOURCE / "corpus/live/4.3.0/python_udf/explain-formatted.txt"])[0]["diagnostics"]
    assert want, "the pasted plan must have findings for this test to mean anything"
    (res,) = _outputs(magic_cell, "execute_result")
    html = res.data["text/html"]
    assert html.count("<tr>") == 1 + len(want)
    for d in want:
        assert d["rule"] in html and d["code"] in html

    # --select on a line magic, its value kept in a variable.
    (res,) = _outputs(selected, "execute_result")
    assert res.data["text/plain"] == "0"

    # check_dataframe before execution: no sizes yet, no findings, the "no findings" HTML.
    (res,) = _outputs(before, "execute_result")
    assert res.data["text/html"] == "<p><b>planlint</b>: no findings.</p>"

    # One Finding shows as a one-row table.
    (res,) = _outputs(one, "execute_result")
    assert res.data["text/html"].count("<tr>") == 2 and "shuffle-join-could-broadcast" in res.data["text/html"]

    (err,) = _outputs(bad, "error")
    assert err.ename == "ValueError" and "--bogus" in err.evalue


# ---------------------------------------------------------------------------------------------
# A table of 10,000 plans: mapInPandas and rdd.pipe against the CLI


@pytest.fixture(scope="module")
def cli_binary():
    exe = os.environ.get("PLANLINT_BINARY")
    if not exe or not os.path.exists(exe):
        pytest.skip("PLANLINT_BINARY not set (run through CTest: tests/live_python.sh)")
    return exe


@pytest.fixture(scope="module")
def corpus_table(spark, cli_binary):
    files = sorted({p for g in TEXT_GLOBS for p in glob.glob(str(SOURCE / "corpus/live/*/*" / g))})
    assert len(files) > 400, files
    texts = [pathlib.Path(p).read_text(encoding="utf-8") for p in files]
    cli = _cli_json(cli_binary, files)
    expected = {}   # id -> the CLI's findings (FIELDS) for that row's text
    rows = []
    for i in range(ROWS):
        j = i % len(files)
        rows.append((f"r{i:05d}", texts[j]))
        expected[f"r{i:05d}"] = sorted(_key(d) for d in cli[j]["diagnostics"])
    per_rule = collections.Counter(k[0] for ks in expected.values() for k in ks)
    assert sum(per_rule.values()) > ROWS // 10, per_rule      # a table that has something to find
    import pandas as pd
    # Through Arrow (spark.sql.execution.arrow.pyspark.enabled): pickling 19 MB of rows is slower.
    df = spark.createDataFrame(pd.DataFrame(rows, columns=["id", "text"]), "id string, text string").repartition(2).cache()
    t0 = time.time()
    assert df.count() == ROWS
    report(f"table made and cached in {time.time() - t0:.1f} s")
    report(f"table: {ROWS} rows from {len(files)} corpus plan texts "
           f"({sum(len(t) for t in texts) * ROWS // len(files) / 1e6:.1f} MB), "
           f"{sum(per_rule.values())} findings by the CLI")
    yield df, expected, per_rule, len(files)
    df.unpersist()


def _check_rows(got, expected, what):
    missing = sorted(set(expected) - set(got))
    assert not missing, f"{what}: no rows for {missing[:5]}"
    wrong = [i for i in expected if sorted(got[i]) != expected[i]]
    assert not wrong, f"{what}: {len(wrong)} rows differ from the CLI, e.g. {wrong[0]}: {sorted(got[wrong[0]])} != {expected[wrong[0]]}"


def test_map_in_pandas_over_10000_corpus_plans(spark, corpus_table):
    from pyspark.sql import functions as F
    df, expected, per_rule, n_texts = corpus_table
    assert df.rdd.getNumPartitions() == 2                 # two tasks at once on local[2]
    out = df.mapInPandas(planlint.spark.lint_partitions, planlint.spark.SCHEMA).cache()
    # Timed as the rdd.pipe test is: the cached input table in, the output materialised (cached).
    t0 = time.time()
    n = out.count()
    dt = time.time() - t0
    report(f"mapInPandas(planlint.spark.lint_partitions) on local[2]: {ROWS} plans in {dt:.1f} s = "
           f"{ROWS / dt:,.0f} plans/s ({n} output rows)")
    rows = out.collect()
    assert len(rows) == n
    kinds = collections.Counter(r.type for r in rows)
    assert kinds["done"] == ROWS and kinds["error"] == 0, kinds
    got = collections.defaultdict(list)
    for r in rows:
        if r.type == "finding":
            got[r.id].append((r.rule, r.code, r.severity, r.message, r.operator_id, r.operator, r.line, r.column, r.fix))
        else:
            got.setdefault(r.id, [])
    _check_rows(got, expected, "mapInPandas")
    # The counts per rule, as the estate recipe would aggregate them on Spark.
    counts = {r["rule"]: r["count"] for r in out.where("type = 'finding'").groupBy("rule").count().collect()}
    assert counts == dict(per_rule)
    done = out.where("type = 'done'").select(F.regexp_extract("message", r"\((.*)\)", 1).alias("format"))
    assert {r.format for r in done.distinct().collect()} == {
        "explain-default", "explain-extended", "explain-formatted", "explain-cost"}
    out.unpersist()


def test_rdd_pipe_ndjson_over_10000_corpus_plans(spark, corpus_table, planlint_cli):
    df, expected, per_rule, _ = corpus_table
    # docs/spark.md's recipe, with this build's planlint instead of the .deb's on PATH.
    records = df.rdd.map(lambda r: json.dumps({"id": r.id, "text": r.text}))
    out = records.pipe(f"{planlint_cli} check --no-config --format ndjson -").cache()
    t0 = time.time()
    n = out.count()
    dt = time.time() - t0
    report(f"rdd.pipe('planlint check --format ndjson -') on local[2]: {ROWS} plans in {dt:.1f} s = "
           f"{ROWS / dt:,.0f} plans/s ({n} output records)")
    got = collections.defaultdict(list)
    kinds = collections.Counter()
    for line in out.collect():
        rec = json.loads(line)
        kinds[rec["type"]] += 1
        if rec["type"] == "finding":
            got[rec["id"]].append(_key(rec))
        elif rec["type"] == "done":
            got.setdefault(rec["id"], [])
            assert rec["findings"] == len(expected[rec["id"]]), rec
    assert kinds["done"] == ROWS and kinds["error"] == 0, kinds
    _check_rows(got, expected, "rdd.pipe")
    findings = spark.read.json(out)                                   # one row per output record
    counts = {r["rule"]: r["count"] for r in findings.where("type = 'finding'").groupBy("rule").count().collect()}
    assert counts == dict(per_rule)
    out.unpersist()
