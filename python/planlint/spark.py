"""planlint inside Spark: lint a table of plans on the executors.

    import planlint.spark
    plans = spark.read.table("ops.exported_profiles")          # columns: id, text (or path)
    findings = plans.mapInPandas(planlint.spark.lint_partitions, planlint.spark.SCHEMA)

Each input row is one plan, profile, event log path or History Server answer: ``id`` (any type,
written as a string) and ``text`` (the content) or ``path`` (a file every executor can read).
Each output row is one of
- ``type = "finding"``: one finding of that input (rule, code, severity, message, operator, ...;
  ``evidence`` is a JSON list of {name, value, number, unit});
- ``type = "done"``: the input was read (``message`` holds the number of findings and the format);
- ``type = "error"``: the input could not be read or its row is malformed (``error`` says why);
  processing goes on with the next row.
planlint (this package) must be installed on every executor.
"""
from __future__ import annotations

import json
from typing import Any, Iterator

from . import check, check_text

#: The output schema (a Spark DDL string) of :func:`lint_partitions`.
SCHEMA = ("type string, id string, path string, rule string, code string, severity string, "
          "message string, operator string, operator_id string, line int, column int, fix string, "
          "evidence string, error string")

COLUMNS = [c.strip().split(" ")[0] for c in SCHEMA.split(",")]
_INT_COLUMNS = ("line", "column")


def _empty_row() -> dict:
    return {c: None for c in COLUMNS}


def _rows_for(rec_id: Any, text: Any, path: Any, config: Any) -> list:
    base = _empty_row()
    base["id"] = None if rec_id is None else str(rec_id)
    has_text = isinstance(text, str)
    has_path = isinstance(path, str)
    if has_text == has_path:
        row = dict(base, type="error", error="a row needs exactly one of a string `text` and a string `path`")
        return [row]
    base["path"] = path if has_path else None
    try:
        if has_path:
            import os
            if not os.path.exists(path):
                return [dict(base, type="error", error=f"{path}: no such file")]
            findings = check(os.fspath(path), config)
        else:
            findings = check_text(text, config, path="-")
    except (ValueError, OSError) as e:
        return [dict(base, type="error", error=str(e))]
    rows = []
    for f in findings:
        # The table has no execution column: the message names it, as `planlint check` prints it.
        rows.append(dict(base, type="finding", rule=f.rule, code=f.code, severity=f.severity, message=f.labelled_message,
                         operator=f.operator, operator_id=f.operator_id, line=f.location.line,
                         column=f.location.column, fix=f.fix,
                         evidence=json.dumps([e.__dict__ for e in f.evidence])))
    rows.append(dict(base, type="done", message=f"{len(findings)} findings ({findings.format})"))
    return rows


def make_lint_partitions(config: Any = None):
    """A :func:`lint_partitions` with a configuration (as ``planlint.check``'s ``config``)."""

    def lint_partitions(batches: Iterator["pandas.DataFrame"]) -> Iterator["pandas.DataFrame"]:  # noqa: F821
        import pandas as pd
        for pdf in batches:
            rows = []
            n = len(pdf)
            # Column by column (pdf.iloc[i] builds a Series per row: a third of the time).
            ids = pdf["id"].tolist() if "id" in pdf.columns else [None] * n
            texts = pdf["text"].tolist() if "text" in pdf.columns else [None] * n
            paths = pdf["path"].tolist() if "path" in pdf.columns else [None] * n
            for rec_id, text, path in zip(ids, texts, paths):
                # pandas gives NaN / None for SQL NULL
                text = text if isinstance(text, str) else None
                path = path if isinstance(path, str) else None
                if not isinstance(rec_id, str) and rec_id is not None and pd.isna(rec_id):
                    rec_id = None
                rows.extend(_rows_for(rec_id, text, path, config))
            out = pd.DataFrame(rows, columns=COLUMNS)
            for c in _INT_COLUMNS:
                out[c] = out[c].astype("Int32")
            yield out

    return lint_partitions


#: ``df.mapInPandas(planlint.spark.lint_partitions, planlint.spark.SCHEMA)``: config files are
#: searched from each executor's working folder (usually none: the built-in defaults).
lint_partitions = make_lint_partitions(None)
