"""The ``%%planlint`` cell magic (IPython / Jupyter only).

    %%planlint [--select RULES] [--ignore RULES] [--no-config]
    == Physical Plan ==
    ...

shows the findings of the pasted plan as a table and returns them.
"""
import shlex


def planlint_magic(line: str, cell: str):
    from . import check
    args = shlex.split(line or "")
    kw = {}
    config = None
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--select", "--ignore") and i + 1 < len(args):
            kw[a[2:]] = args[i + 1]
            i += 2
        elif a == "--no-config":
            config = False
            i += 1
        else:
            raise ValueError(f"%%planlint: unknown argument {a!r} (use --select, --ignore, --no-config)")
    return check(cell, config, path="cell", **kw)


def register(ipython) -> None:
    ipython.register_magic_function(planlint_magic, magic_kind="cell", magic_name="planlint")
