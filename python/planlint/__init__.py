"""planlint for Python: lint Apache Spark / Databricks query plans from notebooks and jobs.

The same C++ engine, readers, rules and configuration files as the ``planlint`` command line
(``planlint check``); only the front end is Python.

>>> import planlint
>>> findings = planlint.check("plan.txt")          # a path, or the plan text itself
>>> [f.rule for f in findings]
"""
from __future__ import annotations

import errno
import html
import json
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Iterable, List, Mapping, Optional, Sequence, Union

from . import _core

__version__ = _core.__version__

__all__ = [
    "Evidence", "Location", "Execution", "Finding", "Findings", "ParsedInput", "Plan", "Operator",
    "check", "check_text", "parse", "check_dataframe", "capture_plan", "load_ipython_extension", "__version__",
]


@dataclass(frozen=True)
class Evidence:
    name: str
    value: str                      # as printed ("2.3 MiB")
    number: Optional[float] = None  # machine-readable value in `unit`
    unit: str = ""                  # "bytes", "rows", "ms", "ratio", ""


@dataclass(frozen=True)
class Location:
    path: str
    line: int          # 1-based; 0 when unknown
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Execution:
    """The SQL execution a finding is about (event logs, History Server answers)."""
    id: int
    description: str = ""   # on one line, cut at 80 bytes ("save at etl.py:41")

    def __str__(self) -> str:
        return f"execution {self.id}" + (f" ({self.description})" if self.description else "")


def _table_html(rows: Sequence["Finding"]) -> str:
    if not rows:
        return "<p><b>planlint</b>: no findings.</p>"
    head = "".join(f"<th style='text-align:left'>{h}</th>"
                   for h in ("severity", "code", "rule", "operator", "message", "fix"))
    body = []
    for f in rows:
        ev = "<br>".join(html.escape(f"{e.name}: {e.value}") for e in f.evidence)
        msg = html.escape(f.labelled_message) + (f"<br><small>{ev}</small>" if ev else "")
        body.append("<tr>" + "".join(f"<td style='text-align:left;vertical-align:top'>{c}</td>" for c in (
            html.escape(f.severity), html.escape(f.code), html.escape(f.rule),
            html.escape(f.operator + (f" ({f.operator_id})" if f.operator_id else "")), msg,
            html.escape(f.fix))) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


@dataclass(frozen=True)
class Finding:
    """One finding: the rule, the operator it is about, the evidence and the fix."""
    rule: str
    code: str
    severity: str          # "error", "warning", "info"
    message: str
    operator: str          # operator name ("SortMergeJoin"); "" for plan-level findings
    operator_id: str       # the plan's operator id ("15")
    evidence: tuple        # of Evidence
    fix: str
    location: Location
    plan_index: int = 0
    impact: Optional[float] = None
    impact_text: str = ""
    execution: Optional[Execution] = None   # the SQL execution of an event log or History Server answer

    @classmethod
    def _from_dict(cls, d: Mapping[str, Any]) -> "Finding":
        return cls(rule=d["rule"], code=d["code"], severity=d["severity"], message=d["message"],
                   operator=d["operator"], operator_id=d["operator_id"],
                   evidence=tuple(Evidence(e["name"], e["value"], e["number"], e["unit"]) for e in d["evidence"]),
                   fix=d["fix"],
                   location=Location(d["path"], d["line"], d["column"], d["end_line"], d["end_column"]),
                   plan_index=d["plan_index"], impact=d["impact"], impact_text=d["impact_text"],
                   execution=Execution(d["execution"]["id"], d["execution"]["description"]) if d["execution"] else None)

    @property
    def labelled_message(self) -> str:
        """The message as `planlint check` prints it: "execution 3 (save at etl.py:41): ..." when the
        finding is about an SQL execution."""
        return f"{self.execution}: {self.message}" if self.execution else self.message

    def to_dict(self) -> dict:
        return {"rule": self.rule, "code": self.code, "severity": self.severity, "message": self.message,
                "operator": self.operator, "operator_id": self.operator_id,
                "evidence": [e.__dict__ for e in self.evidence], "fix": self.fix,
                "path": self.location.path, "line": self.location.line, "column": self.location.column,
                "execution": self.execution.__dict__ if self.execution else None}

    def __str__(self) -> str:
        # As `planlint check` prints it: "path:line:col: warning[PL002 shuffle-join-could-broadcast] ..."
        label = f"{self.code} {self.rule}" if self.code else self.rule
        return f"{self.location}: {self.severity}[{label}] {self.labelled_message}"

    def _repr_html_(self) -> str:
        return _table_html([self])


class Findings(List[Finding]):
    """A list of findings that a notebook shows as a table."""
    format: str = ""        # input format read: "explain-formatted", "query-profile", "event-log", ...
    path: str = ""

    def _repr_html_(self) -> str:
        return _table_html(self)

    def to_pandas(self):
        import pandas as pd
        return pd.DataFrame([f.to_dict() for f in self])


@dataclass
class Operator:
    index: int
    id: str
    name: str
    kind: str
    engine: str
    children: List[int]
    rows: Optional[float] = None
    duration_ms: Optional[float] = None
    raw: dict = field(default_factory=dict, repr=False)  # every field of `planlint parse --format json`


@dataclass
class Plan:
    name: str
    format: str
    operators: List[Operator]
    roots: List[int]
    raw: dict = field(default_factory=dict, repr=False)


@dataclass
class ParsedInput:
    path: str
    format: str
    plans: List[Plan]
    messages: List[dict]   # the parser's own messages (severity, line, column, message)
    raw: dict = field(default_factory=dict, repr=False)


_PathLike = Union[str, "os.PathLike[str]"]

# A str that "looks like a path" and does not exist raises FileNotFoundError instead of being
# linted as plan text (a typo in a file name would otherwise give a parse-error finding about the
# name itself). It looks like a path when it is one line with none of the marks plan text has
# (`==` headers, `+-`/`:-` tree guides, `name#12` attribute ids, brackets, comparisons), and it
# ends in an extension planlint reads, or holds a path separator, or is named as Spark names its
# event logs.
_PATH_EXTENSIONS = (".txt", ".plan", ".explain", ".json", ".jsonl", ".ndjson", ".eventlog", ".log",
                    ".zstd", ".zst", ".lz4", ".snappy", ".gz", ".inprogress", ".ipynb", ".md", ".sql",
                    ".py", ".scala", ".toml")
_EVENT_LOG_PREFIXES = ("app-", "local-", "application_", "eventlog_v2_", "eventlog-")
_PLAN_MARKS = re.compile(r"==|\+-|:-|#\d|[\[\]<>=]")


def _looks_like_path(s: str) -> bool:
    t = s.strip()
    if not t or "\n" in s or "\r" in s or len(s) >= 4096 or _PLAN_MARKS.search(t):
        return False
    if t.lower().endswith(_PATH_EXTENSIONS) or "/" in t or os.sep in t:
        return True
    return os.path.basename(t).startswith(_EVENT_LOG_PREFIXES) and " " not in t


def _checked_text(s: str) -> str:
    # pybind11 cannot pass a str holding a lone surrogate to C++ ("incompatible function
    # arguments"); say what is wrong instead.
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError(f"the plan text is not valid Unicode: {e.reason} at character {e.start}") from None
    return s


def _input(x: Any, what: str = "check") -> "tuple[str, str]":
    """("path", p) or ("text", t) for what check/parse were given.

    bytes and bytearray are always plan text (UTF-8, invalid bytes replaced), never a path; an
    os.PathLike is always a path; a str is a path when it names an existing file or folder, a
    missing path when it looks like one (FileNotFoundError), else plan text. Anything else
    (None, numbers, memoryview, ...) is a TypeError rather than its str() being linted.
    """
    if isinstance(x, (bytes, bytearray)):
        return "text", bytes(x).decode("utf-8", errors="replace")
    if isinstance(x, os.PathLike):
        p = os.fsdecode(os.fspath(x))
        if not os.path.exists(p):
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), p)
        return "path", _checked_text(p)
    if isinstance(x, str):
        if x and "\n" not in x and len(x) < 4096:
            try:
                exists = os.path.exists(x)
            except (OSError, ValueError):  # an embedded NUL, a name too long
                exists = False
            if exists:
                return "path", _checked_text(x)
            if _looks_like_path(x):
                raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), x)
        return "text", _checked_text(x)
    raise TypeError(f"planlint.{what}() expects plan text (str, bytes or bytearray) or a path (str or "
                    f"os.PathLike), not {type(x).__name__}")


def _settings(config: Any, select, ignore, severity, set, execution) -> "_core.Settings":
    s = _core.Settings()
    if config is False:
        s.use_files = False
    elif isinstance(config, (str, os.PathLike)):
        s.config_file = os.fspath(config)
    elif isinstance(config, Mapping):
        # The same keys as the command line's options, on top of the config file found.
        select = select or config.get("select")
        ignore = ignore or config.get("ignore")
        severity = severity or config.get("severity")
        set = set or config.get("set") or config.get("thresholds")
        if execution is None:
            execution = config.get("execution")
    elif config is not None:
        raise TypeError("config must be None, False, a path to a config file, or a dict")
    s.select = list(_names(select))
    s.ignore = list(_names(ignore))
    s.severity = {str(k): str(v) for k, v in (severity or {}).items()}
    s.set = {str(k): str(v) for k, v in (set or {}).items()}
    s.execution = execution
    return s


def _names(x: Union[None, str, Iterable[str]]) -> List[str]:
    if x is None:
        return []
    if isinstance(x, str):
        return [p.strip() for p in x.split(",") if p.strip()]
    return [str(p) for p in x]


def check(text_or_path: Union[str, bytes, "os.PathLike[str]"], config: Any = None, *,
          select=None, ignore=None, severity=None, set=None, execution: Optional[int] = None,
          path: Optional[str] = None) -> Findings:
    """Check a plan and return its findings.

    ``text_or_path``: a path (str or os.PathLike) to a plan, a Query Profile, an event log or a
    History Server answer, or the text itself: bytes and bytearray are always text (UTF-8), a str
    is text unless it names an existing file. A str that looks like a path (one line, no plan
    marks, a known extension or a path separator) but does not exist raises FileNotFoundError; any
    other type (None, int, memoryview, ...) raises TypeError.
    ``config``: None (search ``.planlint.toml`` / ``pyproject.toml`` from the file's folder, or
    the current folder for text, as the CLI does), False (no config files), a config file path,
    or a dict ``{"select": [...], "ignore": [...], "severity": {rule: level}, "set": {option: value}}``
    applied on top of the config found, like the CLI's ``--select/--ignore/--severity/--set``.
    ``path``: the name a text is reported under (default ``"-"``, as stdin).
    Raises ValueError for a broken config or an unreadable file.
    """
    kind, value = _input(text_or_path, "check")
    if kind == "path":
        s = _settings(config, select, ignore, severity, set, execution)
        return _findings(_core.check_path(value, s))
    return check_text(value, config, select=select, ignore=ignore, severity=severity, set=set,
                      execution=execution, path=path)


def check_text(text: str, config: Any = None, *, select=None, ignore=None, severity=None, set=None,
               execution: Optional[int] = None, path: Optional[str] = None) -> Findings:
    """``check`` for a text that is never taken for a path (str, bytes or bytearray)."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", errors="replace")
    elif not isinstance(text, str):
        raise TypeError(f"planlint.check_text() expects str, bytes or bytearray, not {type(text).__name__}")
    text = _checked_text(text)
    s = _settings(config, select, ignore, severity, set, execution)
    return _findings(_core.check_text(text, path or "-", s))


def _findings(r: dict) -> Findings:
    if r["error"]:
        raise ValueError(r["error"])
    out = Findings(Finding._from_dict(d) for d in r["findings"])
    out.format = r["format"]
    out.path = r["path"]
    return out


def parse(text_or_path: Union[str, bytes, "os.PathLike[str]"], *, path: Optional[str] = None) -> ParsedInput:
    """Read a plan into planlint's model (what ``planlint parse --format json`` prints)."""
    kind, value = _input(text_or_path, "parse")
    if kind == "path":
        raw = json.loads(_core.parse(None, value, ""))
    else:
        raw = json.loads(_core.parse(value, None, path or "-"))
    plans = []
    ops_by_plan: dict = {}
    for op in raw.get("operators", []):
        ops_by_plan.setdefault(op.get("plan", 0), []).append(op)
    for i, p in enumerate(raw.get("plans", [])):
        ops = [Operator(index=o.get("index", k), id=o.get("id", ""), name=o.get("name", ""),
                        kind=o.get("kind", ""), engine=o.get("engine", ""), children=o.get("children", []),
                        rows=o.get("rows"), duration_ms=o.get("duration_ms"), raw=o)
               for k, o in enumerate(ops_by_plan.get(i, []))]
        plans.append(Plan(name=p.get("name", ""), format=p.get("format", raw.get("format", "")),
                          operators=ops, roots=p.get("roots", []), raw=p))
    return ParsedInput(path=raw.get("path", ""), format=raw.get("format", ""), plans=plans,
                       messages=raw.get("diagnostics", []), raw=raw)


def capture_plan(df: Any, mode: str = "formatted") -> str:
    """The text ``df.explain(mode)`` prints, as a string, without printing it.

    Classic PySpark (3.0 - 4.x) builds it on the JVM exactly as ``DataFrame.explain`` does:
    ``df._sc._jvm.PythonSQLUtils.explainString(df._jdf.queryExecution(), mode)``.
    Spark Connect DataFrames (no JVM in the client) have ``df._explain_string(mode=mode)``.
    """
    jdf = getattr(df, "_jdf", None)
    if jdf is not None:
        sc = getattr(df, "_sc", None)
        if sc is None:  # Spark 4 classic keeps it on the session too
            sc = df.sparkSession.sparkContext
        return str(sc._jvm.PythonSQLUtils.explainString(jdf.queryExecution(), mode))
    explain_string = getattr(df, "_explain_string", None)
    if explain_string is not None:
        return str(explain_string(mode=mode))
    raise TypeError("check_dataframe expects a PySpark DataFrame (classic or Spark Connect), got "
                    + type(df).__name__)


def check_dataframe(df: Any, config: Any = None, **kwargs) -> Findings:
    """Check a PySpark DataFrame's formatted physical plan (captured as ``df.explain("formatted")``
    would print it; the query is planned, not run)."""
    return check(capture_plan(df, "formatted"), config, path=kwargs.pop("path", "dataframe"), **kwargs)


def load_ipython_extension(ipython) -> None:
    """``%load_ext planlint``: registers the ``%%planlint`` cell magic."""
    from ._notebook import register
    register(ipython)


# Inside IPython (a notebook, `ipython`), register the magic on import: `import planlint` is
# enough. Elsewhere IPython is not imported at all (it costs about a quarter of a second): a
# running IPython shell has imported the IPython package already, so sys.modules tells.
def _register_in_running_ipython() -> None:
    ipython_module = sys.modules.get("IPython")
    if ipython_module is None:
        return
    try:
        ip = ipython_module.get_ipython()
        if ip is not None:
            load_ipython_extension(ip)
    except Exception:  # pragma: no cover - an IPython without a shell: nothing to register
        pass


_register_in_running_ipython()
