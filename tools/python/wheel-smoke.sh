#!/usr/bin/env bash
# The PEP 517 route end to end (issue 38 item 6), a tool run rather than a CTest: the wheel's
# build compiles the whole core from the sdist in an isolated build environment (no ccache hits:
# 6.3 CPU minutes, 40 minutes of wall time on 2 cores shared with other builds; docs/python.md),
# too long for every test run.
#   1. `python -m build` of the source tree (build isolation: scikit-build-core and pybind11
#      from PyPI) gives dist/planlint-*.tar.gz and, built from that sdist, dist/planlint-*.whl;
#   2. a fresh `python -m venv` (no system site packages) installs the wheel with
#      `pip install --no-index --no-deps` (no network) and checks a plan with it, from outside the
#      source tree; `planlint.spark.lint_partitions` runs on a pandas batch when the venv can get
#      pandas (`pip install --no-index` finds none: this part is skipped and said so).
# Usage: tools/python/wheel-smoke.sh [DIST_DIR]
#   DIST_DIR (default: a temporary folder) receives the sdist and the wheel; when it already holds
#   both (PLANLINT_REUSE_DIST=1), step 1 is skipped.
# Needs network access to PyPI for step 1 (the build requirements), the Debian build dependencies
# (tools/setup-deps.sh) and the project venv's `build` package (tools/setup-venv.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/python/env.sh
src=$(pwd)
dist=${1:-$(mktemp -d)}
mkdir -p "$dist"
dist=$(realpath "$dist")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "${PLANLINT_REUSE_DIST:-0}" = 1 ] && ls "$dist"/planlint-*.whl "$dist"/planlint-*.tar.gz >/dev/null 2>&1; then
  echo "reusing $(ls "$dist"/planlint-*.tar.gz "$dist"/planlint-*.whl | xargs -n1 basename | tr '\n' ' ')"
else
  t0=$SECONDS
  CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2} \
    nice "$PLANLINT_VENV/bin/python" -m build --outdir "$dist" . >"$dist/build.log" 2>&1 \
    || { tail -30 "$dist/build.log"; echo "FAIL: python -m build"; exit 1; }
  echo "python -m build: $((SECONDS - t0)) s"
fi
sdist=$(ls "$dist"/planlint-*.tar.gz)
wheel=$(ls "$dist"/planlint-*.whl)
echo "sdist: $(basename "$sdist") ($(du -k "$sdist" | cut -f1) KB), wheel: $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KB)"
# The sdist holds what the module's build reads and nothing of the corpus, tests or docs.
listing=$(tar tzf "$sdist")
grep -q '^planlint-[^/]*/CMakeLists.txt$' <<<"$listing" || { echo "FAIL: no CMakeLists.txt in the sdist"; exit 1; }
grep -q '^planlint-[^/]*/python/_core.cpp$' <<<"$listing" || { echo "FAIL: no python/_core.cpp in the sdist"; exit 1; }
! grep -q -E '^planlint-[^/]*/(corpus|tests|docs|python/tests)/' <<<"$listing" || { echo "FAIL: corpus, tests or docs in the sdist"; exit 1; }
echo "ok: the sdist holds $(wc -l <<<"$listing") files: CMakeLists.txt and the sources, no corpus, tests or docs"
# The wheel: the Python sources and the module, nothing else of the tree.
"$PLANLINT_VENV/bin/python" - "$wheel" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
pkg = sorted(n for n in names if n.startswith("planlint/"))
assert any(n.startswith("planlint/_core") and n.endswith(".so") for n in pkg), pkg
for f in ("__init__.py", "spark.py", "_notebook.py"):
    assert "planlint/" + f in pkg, pkg
print("wheel holds", " ".join(pkg))
PY
/usr/bin/python3 -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q --disable-pip-version-check --no-index --no-deps "$wheel"
echo "ok: pip install --no-index $(basename "$wheel") into a fresh venv"
cd "$tmp"
PYTHONNOUSERSITE=1 "$tmp/venv/bin/python" - "$src/corpus/examples/orders-by-region.explain.txt" <<'PY'
import os, sys
import planlint, planlint.spark
assert planlint.__file__.startswith(os.path.join(sys.prefix, "lib")), planlint.__file__
f = planlint.check(sys.argv[1], config=False)
rules = sorted({x.rule for x in f})
assert "shuffle-join-could-broadcast" in rules, rules
assert [x.rule for x in planlint.check_text(open(sys.argv[1]).read(), config=False)] == [x.rule for x in f]
try:
    import pandas as pd
except ImportError:
    print("(no pandas in the fresh venv: planlint.spark.lint_partitions not run)")
else:
    out = next(planlint.spark.lint_partitions(iter([pd.DataFrame({"id": ["a"], "text": [open(sys.argv[1]).read()]})])))
    assert list(out["type"])[-1] == "done", out
print("ok: the installed wheel", planlint.__version__, "from", os.path.dirname(planlint.__file__), "finds", rules)
PY
