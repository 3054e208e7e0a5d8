# Sourced (never run) by tools/setup-venv.sh and by the tests that need real PySpark: where the
# project's Python environments live. They are virtual environments of the project, outside the
# source tree (like the SARIF validator, tools/test-deps-npm.sh), never the system Python.
#   PLANLINT_VENV       pyspark $PLANLINT_PYSPARK_NEW plus every Python test dependency
#   PLANLINT_VENV_OLD   pyspark $PLANLINT_PYSPARK_OLD only (the older Spark line the live tests run)
#   PLANLINT_VENV_LAKE  pyspark $PLANLINT_PYSPARK_LAKE, capture only (never a test): the newest Spark
#                       line Delta and Iceberg build for (`tools/setup-venv.sh --lake` makes it)
# PLANLINT_TOOLS_DIR moves all of them (default ~/.cache/planlint).
PLANLINT_PYSPARK_NEW=4.3.0
PLANLINT_PYSPARK_OLD=3.5.9
PLANLINT_PYSPARK_LAKE=4.1.4
_planlint_tools=${PLANLINT_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/planlint}
PLANLINT_VENV=${PLANLINT_VENV:-$_planlint_tools/venv-pyspark-$PLANLINT_PYSPARK_NEW}
PLANLINT_VENV_OLD=${PLANLINT_VENV_OLD:-$_planlint_tools/venv-pyspark-$PLANLINT_PYSPARK_OLD}
PLANLINT_VENV_LAKE=${PLANLINT_VENV_LAKE:-$_planlint_tools/venv-pyspark-$PLANLINT_PYSPARK_LAKE}
export PLANLINT_PYSPARK_NEW PLANLINT_PYSPARK_OLD PLANLINT_PYSPARK_LAKE PLANLINT_VENV PLANLINT_VENV_OLD PLANLINT_VENV_LAKE
unset _planlint_tools
