"""planlint's Python API: typed findings, configuration as the CLI reads it, parse, notebook helpers."""
import json
import os
import subprocess
import sys
import threading

import pytest

import planlint

EXAMPLE = "examples/orders-by-region.explain.txt"


def test_check_a_path_gives_typed_findings(corpus):
    findings = planlint.check(str(corpus / EXAMPLE), config=False)
    assert isinstance(findings, planlint.Findings)
    assert findings.format == "explain-formatted"
    rules = [f.rule for f in findings]
    assert "shuffle-join-could-broadcast" in rules and "non-sargable-predicate" in rules
    f = next(f for f in findings if f.rule == "shuffle-join-could-broadcast")
    assert f.code == "PL002" and f.severity == "warning"
    assert f.operator == "SortMergeJoin" and f.operator_id == "15"
    assert (f.location.line, f.location.column) == (10, 22)
    assert f.location.path.endswith(EXAMPLE)
    assert any(e.name == "right side size" and e.unit == "bytes" and round(e.number) == 2411725 for e in f.evidence)
    assert "BROADCAST" in f.fix
    assert str(f).startswith(f"{f.location}: warning[PL002 shuffle-join-could-broadcast] SortMergeJoin")


def test_text_and_pathlike_and_bytes_agree(corpus):
    p = corpus / EXAMPLE
    text = p.read_text()
    a = [(f.rule, f.message, f.location.line) for f in planlint.check(p, config=False)]
    b = [(f.rule, f.message, f.location.line) for f in planlint.check(text, config=False)]
    c = [(f.rule, f.message, f.location.line) for f in planlint.check(text.encode(), config=False)]
    d = [(f.rule, f.message, f.location.line) for f in planlint.check_text(text, config=False)]
    assert a == b == c == d and a
    assert planlint.check(text, config=False)[0].location.path == "-"
    assert planlint.check(text, config=False, path="cell")[0].location.path == "cell"


def test_config_files_are_found_like_the_cli(tmp_path, corpus):
    plan = tmp_path / "q.explain.txt"
    plan.write_text((corpus / EXAMPLE).read_text())
    (tmp_path / ".planlint.toml").write_text('ignore = ["non-sargable-predicate"]\n[severity]\nPL002 = "error"\n')
    rules = {f.rule: f.severity for f in planlint.check(plan)}
    assert "non-sargable-predicate" not in rules and rules["shuffle-join-could-broadcast"] == "error"
    # False: no config files; a dict: the CLI's --select/--ignore/--severity/--set on top.
    assert "non-sargable-predicate" in {f.rule for f in planlint.check(plan, config=False)}
    only = planlint.check(plan, {"select": ["PL002"], "severity": {"PL002": "info"}})
    assert [(f.rule, f.severity) for f in only] == [("shuffle-join-could-broadcast", "info")]
    assert planlint.check(plan, False, set={"broadcast-threshold": "1k"}) != planlint.check(plan, False)
    other = tmp_path / "other.toml"
    other.write_text('select = ["non-sargable-predicate"]\n')
    assert {f.rule for f in planlint.check(plan, str(other))} == {"non-sargable-predicate"}


def test_bad_config_and_unreadable_paths_raise(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('selekt = ["x"]\n')
    with pytest.raises(ValueError, match="selekt"):
        planlint.check("== Physical Plan ==\nRange (1)\n", str(bad))
    with pytest.raises(ValueError, match="unknown"):
        planlint.check("== Physical Plan ==\nRange (1)\n", False, select=["no-such-rule"])
    with pytest.raises(TypeError):
        planlint.check("x", config=42)


def test_unreadable_text_is_a_parse_error_finding():
    findings = planlint.check("hello, this is not a plan", config=False)
    assert findings and all(f.rule == "parse-error" and f.severity == "error" for f in findings)


def test_parse_gives_the_model(corpus):
    parsed = planlint.parse(corpus / EXAMPLE)
    assert parsed.format == "explain-formatted"
    assert len(parsed.plans) == 1
    ops = parsed.plans[0].operators
    smj = next(o for o in ops if o.name == "SortMergeJoin")
    assert smj.kind == "join" and smj.id == "15" and len(smj.children) == 2
    hs = planlint.parse((corpus / "history-server/multi-exec.sql.json").read_text())
    assert hs.format == "history-server" and len(hs.plans) == 2


def test_event_log_and_history_server_inputs(corpus):
    ev = planlint.check(corpus / "eventlog/skewed-join.eventlog", config=False)
    hs = planlint.check(corpus / "history-server/skewed-join.sql.json", config=False)
    assert ev.format == "event-log" and hs.format == "history-server"
    assert {(f.rule, f.operator) for f in ev} == {(f.rule, f.operator) for f in hs}
    one = planlint.check(corpus / "eventlog/multi-exec.eventlog", False, execution=1)
    assert one and all(f.execution == planlint.Execution(1, "save at sessions.py:58") for f in one)
    # The message is the rule's; the execution is a field, and the text form names it as the CLI does.
    assert all(not f.message.startswith("execution") for f in one)
    assert all(str(f).split("] ", 1)[1].startswith("execution 1 (save at sessions.py:58): ") for f in one)
    every = planlint.check(corpus / "eventlog/multi-exec.eventlog", False)
    assert {f.execution.id for f in every} == {1}
    assert all(f.execution is None for f in planlint.check(corpus / EXAMPLE, False))


def test_threads_share_the_engine(corpus):
    text = (corpus / EXAMPLE).read_text()
    want = [f.message for f in planlint.check(text, False)]
    results, errors = [], []

    def work():
        try:
            for _ in range(20):
                results.append([f.message for f in planlint.check(text, False)])
        except Exception as e:  # pragma: no cover
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 80 and all(r == want for r in results)


def test_repr_html_is_a_table(corpus):
    findings = planlint.check(corpus / EXAMPLE, False)
    html = findings._repr_html_()
    assert html.startswith("<table>") and html.count("<tr>") == len(findings) + 1
    assert "SortMergeJoin (15)" in html and "&lt;" not in findings[0].rule
    assert findings[0]._repr_html_().count("<tr>") == 2
    assert "no findings" in planlint.Findings()._repr_html_()
    df = findings.to_pandas()
    assert list(df["rule"]) == [f.rule for f in findings]


class _JavaObject:
    """Stands for a py4j JavaObject: only the calls PySpark makes exist."""


class _QueryExecution(_JavaObject):
    pass


class _PythonSQLUtils:
    def __init__(self, plans):
        self.plans = plans
        self.calls = []

    def explainString(self, qe, mode):  # org.apache.spark.sql.api.python.PythonSQLUtils.explainString
        self.calls.append((qe, mode))
        assert isinstance(qe, _QueryExecution)
        return self.plans[mode]


class _JVM:
    def __init__(self, utils):
        self.PythonSQLUtils = utils


class _SparkContext:
    def __init__(self, utils):
        self._jvm = _JVM(utils)


class _JDataFrame(_JavaObject):
    def __init__(self):
        self.qe = _QueryExecution()

    def queryExecution(self):
        return self.qe


class ClassicDataFrame:
    """The attributes classic PySpark 3.x / 4.x DataFrame.explain uses:
    self._sc._jvm.PythonSQLUtils.explainString(self._jdf.queryExecution(), explain_mode)"""

    def __init__(self, plans):
        self._jdf = _JDataFrame()
        self.utils = _PythonSQLUtils(plans)
        self._sc = _SparkContext(self.utils)


class ConnectDataFrame:
    """Spark Connect's DataFrame: no JVM; _explain_string(extended=None, mode=None) -> str."""

    def __init__(self, plans):
        self.plans = plans

    def _explain_string(self, extended=None, mode=None):
        assert extended is None
        return self.plans[mode]


def test_check_dataframe_captures_the_formatted_plan(corpus):
    text = (corpus / EXAMPLE).read_text()
    df = ClassicDataFrame({"formatted": text})
    findings = planlint.check_dataframe(df, config=False)
    assert df.utils.calls == [(df._jdf.qe, "formatted")]
    assert [f.message for f in findings] == [f.message for f in planlint.check(text, False)]
    assert findings[0].location.path == "dataframe"
    assert [f.message for f in planlint.check_dataframe(ConnectDataFrame({"formatted": text}), False)] == \
        [f.message for f in findings]
    df2 = ClassicDataFrame({"extended": "== Physical Plan ==\n"})
    assert planlint.capture_plan(df2, "extended") == "== Physical Plan ==\n"
    assert df2.utils.calls == [(df2._jdf.qe, "extended")]
    with pytest.raises(TypeError):
        planlint.check_dataframe(object())


def test_cell_magic_without_ipython(corpus):
    from planlint import _notebook
    text = (corpus / EXAMPLE).read_text()
    got = _notebook.planlint_magic("--no-config --select PL002", text)
    assert [f.rule for f in got] == ["shuffle-join-could-broadcast"]
    with pytest.raises(ValueError):
        _notebook.planlint_magic("--bogus", text)
    registered = []

    class FakeShell:
        user_ns = {"plan_text": text, "df": ClassicDataFrame({"formatted": text})}

        def register_magic_function(self, fn, magic_kind, magic_name):
            registered.append((fn, magic_kind, magic_name))

    shell = FakeShell()
    planlint.load_ipython_extension(shell)
    assert [(k, n) for _, k, n in registered] == [("line_cell", "planlint")]
    magic = registered[0][0]
    # %%planlint: the cell is the plan; %planlint NAME: the notebook's variable.
    assert [f.rule for f in magic("--no-config --select PL002", text)] == ["shuffle-join-could-broadcast"]
    by_df = magic("--no-config --select PL002 df")
    assert [f.rule for f in by_df] == ["shuffle-join-could-broadcast"] and by_df[0].location.path == "dataframe"
    assert [f.rule for f in magic("--no-config --select PL002 plan_text")] == ["shuffle-join-could-broadcast"]
    with pytest.raises(ValueError, match="name a DataFrame"):
        magic("--no-config")
    with pytest.raises(NameError):
        magic("no_such_variable")


def test_bytes_are_text_never_a_path(tmp_path, corpus):
    # Issue 32 S5: bytes naming an existing file are linted as that text, the file is not read.
    plan = tmp_path / "p.explain.txt"
    plan.write_text((corpus / EXAMPLE).read_text())
    as_path = planlint.check(str(plan), config=False)
    assert as_path and as_path.path == str(plan)
    for b in (str(plan).encode(), bytearray(str(plan).encode())):
        got = planlint.check(b, config=False)
        assert got.path == "-" and [f.rule for f in got] == ["parse-error"], got
        assert planlint.parse(b).path == "-"
    text = (corpus / EXAMPLE).read_bytes()
    assert [f.rule for f in planlint.check(bytearray(text), config=False)] == \
        [f.rule for f in planlint.check(text, config=False)]
    assert [f.rule for f in planlint.check_text(bytearray(text), config=False)] == \
        [f.rule for f in planlint.check(text, config=False)]


@pytest.mark.parametrize("bad", [None, 42, 4.2, memoryview(b"== Physical Plan ==\n"), ["plan"], object()])
def test_other_types_are_a_type_error(bad):
    with pytest.raises(TypeError, match="expects"):
        planlint.check(bad, config=False)
    with pytest.raises(TypeError, match="expects"):
        planlint.parse(bad)
    with pytest.raises(TypeError, match="expects"):
        planlint.check_text(bad, config=False)


def test_a_lone_surrogate_is_a_clear_error():
    with pytest.raises(ValueError, match="not valid Unicode"):
        planlint.check("== Physical Plan ==\nRange (1) \ud800\n", config=False)


@pytest.mark.parametrize("name", ["missing.txt", "plans/q1.explain", "./q1", "/no/such/dir/plan",
                                  "app-20231114221320-0007", "profile.JSON", " missing.txt "])
def test_a_missing_path_is_file_not_found(tmp_path, monkeypatch, name):
    # Issue 35: a str that looks like a path and does not exist is not linted as plan text.
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError) as e:
        planlint.check(name, config=False)
    assert e.value.filename == name
    with pytest.raises(FileNotFoundError):
        planlint.parse(name)
    with pytest.raises(FileNotFoundError):
        planlint.check(tmp_path / name.strip(), config=False)  # os.PathLike: always a path


@pytest.mark.parametrize("text", ["Range (0, 10, step=1, splits=2)", "Filter (a#1 / 2 > 1)",
                                  "*(1) Project [a#1]", "hello", "== Physical Plan ==",
                                  "Scan parquet [id#0] Location: s3://b/p.txt"])
def test_one_line_plan_texts_are_not_taken_for_paths(tmp_path, monkeypatch, text):
    monkeypatch.chdir(tmp_path)
    got = planlint.check(text, config=False)  # linted as text: no FileNotFoundError
    assert got.path == "-"


def test_import_does_not_load_ipython():
    # Issue 37: outside IPython, `import planlint` imports neither IPython nor the magic.
    code = "import sys, planlint; print(sorted(m for m in sys.modules if m.split('.')[0] == 'IPython' " \
           "or m == 'planlint._notebook'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_version_matches_cli(planlint_cli):
    out = subprocess.run([planlint_cli, "--version"], capture_output=True, text=True).stdout
    assert planlint.__version__ in out
