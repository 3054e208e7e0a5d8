#!/usr/bin/env bash
# `planlint check --format ndjson -`: NDJSON records in, one finding record per line out, streamed
# (each input record is answered before the next is written, as `rdd.pipe` needs), malformed records
# reported in the stream without stopping, findings equal to `planlint check FILE`'s, exit 0.
# Usage: tests/ndjson_cli.sh path/to/planlint   (run from the source folder)
set -u
py=/usr/bin/python3
if [ ! -x "$py" ]; then
  [ "${CI:-}" = true ] && { echo "FAIL: /usr/bin/python3 missing (tools/setup-deps.sh)"; exit 1; }
  echo "SKIP: /usr/bin/python3 missing"; exit 77
fi
exec "$py" tests/ndjson/ndjson_test.py "$(realpath "$1")"
