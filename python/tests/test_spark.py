"""planlint.spark.lint_partitions called exactly as Spark's mapInPandas calls it: one iterator of
pandas DataFrames per partition (Arrow batches), the function's iterator of DataFrames read to the
end, each yielded DataFrame matching the declared schema's column names and types."""
import json

import pandas as pd
import pytest

import planlint
import planlint.spark as ps


def _schema_fields():
    return [tuple(c.strip().split(" ")) for c in ps.SCHEMA.split(",")]


def _run_like_mapinpandas(batches):
    # Spark: func(iterator) -> iterator; every result must be a pandas.DataFrame whose columns
    # are the schema's (by name), then converted to Arrow with the declared types.
    out = list(ps.lint_partitions(iter(batches)))
    names = [n for n, _ in _schema_fields()]
    for df in out:
        assert isinstance(df, pd.DataFrame)
        assert list(df.columns) == names
        for n, t in _schema_fields():
            col = df[n]
            if t == "int":
                assert str(col.dtype) == "Int32"
            else:
                assert all(v is None or isinstance(v, str) for v in col), n
    return out


def test_schema_is_published():
    assert ps.SCHEMA.startswith("type string, id string, path string, rule string")
    assert ps.COLUMNS[:3] == ["type", "id", "path"]


def test_lint_partitions_over_batches(corpus):
    text = (corpus / "examples/orders-by-region.explain.txt").read_text()
    hs = (corpus / "history-server/skewed-join.sql.json").read_text()
    want = planlint.check(text, False)
    b1 = pd.DataFrame({"id": ["q1", "q2"], "text": [text, hs]})
    b2 = pd.DataFrame({"id": ["q3", "bad", "q4"], "text": [text, None, "not a plan"]})
    out = _run_like_mapinpandas([b1, b2])
    assert len(out) == 2
    first = out[0]
    q1 = first[first["id"] == "q1"]
    findings = q1[q1["type"] == "finding"]
    assert list(findings["rule"]) == [f.rule for f in want]
    assert list(findings["line"]) == [f.location.line for f in want]
    ev = json.loads(findings.iloc[0]["evidence"])
    assert ev and {"name", "value"} <= set(ev[0])
    assert list(q1["type"])[-1] == "done"
    q2 = first[first["id"] == "q2"]
    assert "skew-not-handled" in set(q2["rule"].dropna())
    second = out[1]
    bad = second[second["id"] == "bad"]
    assert list(bad["type"]) == ["error"] and "exactly one" in bad.iloc[0]["error"]
    q4 = second[second["id"] == "q4"]
    assert set(q4["rule"].dropna()) == {"parse-error"}
    assert list(second[second["id"] == "q3"]["type"])[-1] == "done"  # went on after the bad row


def test_paths_ids_of_other_types_and_empty_batches(corpus, tmp_path):
    p = corpus / "eventlog/multi-exec.eventlog"
    b = pd.DataFrame({"id": [1, 2], "path": [str(p), str(tmp_path / "missing.txt")]})
    out = _run_like_mapinpandas([b, pd.DataFrame({"id": [], "path": []})])
    rows = out[0]
    assert set(rows["id"]) == {"1", "2"}
    ok = rows[rows["id"] == "1"]
    assert (ok["type"] == "finding").sum() == len(planlint.check(p, False))
    assert all(ok[ok["type"] == "finding"]["path"] == str(p))
    missing = rows[rows["id"] == "2"]
    assert list(missing["type"]) == ["error"] and "no such file" in missing.iloc[0]["error"]
    assert len(out[1]) == 0 and list(out[1].columns) == ps.COLUMNS


def test_configured_variant(corpus):
    text = (corpus / "examples/orders-by-region.explain.txt").read_text()
    f = ps.make_lint_partitions({"select": ["PL002"]})
    out = list(f(iter([pd.DataFrame({"id": ["a"], "text": [text]})])))[0]
    assert set(out["rule"].dropna()) == {"shuffle-join-could-broadcast"}
