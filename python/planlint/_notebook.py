"""The ``%planlint`` / ``%%planlint`` magic (IPython / Jupyter only).

    %%planlint [--select RULES] [--ignore RULES] [--no-config]
    == Physical Plan ==
    ...

shows the findings of the pasted plan as a table and returns them;

    %planlint [--select RULES] [--ignore RULES] [--no-config] df

checks the notebook variable (or expression) ``df``: a PySpark DataFrame (its formatted plan, as
``planlint.check_dataframe``), a plan text or a path.
"""
import shlex


def _options(line: str):
    args = shlex.split(line or "")
    kw = {}
    config = None
    rest = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--select", "--ignore") and i + 1 < len(args):
            kw[a[2:]] = args[i + 1]
            i += 2
        elif a == "--no-config":
            config = False
            i += 1
        elif a.startswith("-"):
            raise ValueError(f"%planlint: unknown argument {a!r} (use --select, --ignore, --no-config)")
        else:
            rest.append(a)
            i += 1
    return config, kw, " ".join(rest)


def planlint_magic(line: str, cell=None, shell=None):
    """The magic: with a cell, check the cell's text; on a line alone, check the value of the
    expression after the options, evaluated in the notebook's namespace."""
    from . import check, check_dataframe
    config, kw, expr = _options(line)
    if cell is not None:
        if expr:
            raise ValueError(f"%%planlint: unexpected {expr!r} (the plan is the cell's text)")
        return check(cell, config, path="cell", **kw)
    if not expr:
        raise ValueError("%planlint: name a DataFrame, a plan text or a path (`%planlint df`), "
                         "or paste a plan into a `%%planlint` cell")
    namespace = getattr(shell, "user_ns", None) or {}
    value = eval(expr, namespace)  # noqa: S307 - the user's own notebook expression
    if hasattr(value, "_jdf") or hasattr(value, "_explain_string"):
        return check_dataframe(value, config, **kw)
    return check(value, config, **kw)


def register(ipython) -> None:
    def magic(line, cell=None):
        return planlint_magic(line, cell, ipython)

    magic.__doc__ = planlint_magic.__doc__
    ipython.register_magic_function(magic, magic_kind="line_cell", magic_name="planlint")
