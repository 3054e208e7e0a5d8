#!/usr/bin/env bash
# corpus/live: what real Spark 4.3.0 and 3.5.9 printed for the scenarios of
# tools/live-spark (explain in every mode before execution, the final adaptive plan, event logs as
# Spark compressed and rolled them, a real History Server's REST answers), held to the ground truth
# of tools/live-spark/scenarios.toml by tools/live-spark/check_corpus.py:
#  - every rule the manifest says must fire is reported on every artefact that carries its
#    evidence, and no rule it says must not fire is reported on any artefact;
#  - a finding on the final plan text is also found in the event log and the History Server answer
#    of the same run, and the event log and the History Server answer agree on runtime findings;
#  - the final plan's operators (names and counts) agree across those formats.
# Each disagreement must be a named open gap in corpus/live/known-gaps.txt (also listed in
# docs/real-plans.md, "Live Spark (issue 38)"); a listed gap that no longer happens fails too.
# Reads committed files only (no Spark at test time).
# Usage: tests/live_corpus.sh PLANLINT_BINARY
set -uo pipefail
cd "$(dirname "$0")/.."
. tests/shell_lib.bash
bin=$(realpath "${1:?usage: live_corpus.sh PLANLINT_BINARY}")
python3 -c 'import tomllib' 2>/dev/null || skip "python3 3.11 or later (tomllib) is needed"
[ -d corpus/live ] || { echo "FAIL: corpus/live is missing"; exit 1; }
python3 tools/live-spark/check_corpus.py "$bin" --corpus corpus/live \
  --manifest tools/live-spark/scenarios.toml --gaps corpus/live/known-gaps.txt
