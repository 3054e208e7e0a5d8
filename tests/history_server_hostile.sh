#!/usr/bin/env bash
# `planlint check --history-server` against a misbehaving server on 127.0.0.1
# (tests/history_server/hostile_test.py): --timeout values, credentials and tokens never printed,
# server text sanitised, gzip/deflate bombs, --max-input-size and Content-Length on live fetches,
# --app as path segments, redirects and base URLs with a query (the client defects a reliability
# probe found in December 2026). About 10 s.
# Usage: tests/history_server_hostile.sh path/to/planlint   (run from the source folder)
set -u
py=/usr/bin/python3
if [ ! -x "$py" ]; then
  [ "${CI:-}" = true ] && { echo "FAIL: /usr/bin/python3 missing (tools/setup-deps.sh)"; exit 1; }
  echo "SKIP: /usr/bin/python3 missing"; exit 77
fi
exec "$py" tests/history_server/hostile_test.py "$(realpath "$1")"
