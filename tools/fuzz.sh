#!/usr/bin/env bash
# Build the libFuzzer targets (tools/fuzz/fuzz_*.cpp) with clang + ASan + UBSan (in build-asan/,
# tools/asan-build.sh) and run each for a
# bounded time, seeded from corpus/ files of the matching kind and from tests/fuzz_regressions/.
# Exit 1 on any crash, sanitizer report, leak, timeout (one input over FUZZ_TIMEOUT seconds) or
# out-of-memory (over 2 GB), printing the reproducer's path, its first KB and how to replay it.
# Inputs slower than FUZZ_SLOW seconds (but under the timeout) are listed as warnings, not failures.
#
# Usage: tools/fuzz.sh [target ...]        (default: every tools/fuzz/fuzz_*.cpp)
#   FUZZ_SECONDS=30    seconds per target (CI: 15)
#   FUZZ_TIMEOUT=10    seconds one input may take before it counts as a hang
#   FUZZ_SLOW=2        seconds above which an input is reported as slow
#   FUZZ_WORK=DIR      where the growing corpora and crash files go (default build-asan/fuzz-work)
#   FUZZ_JOBS=N        build parallelism (default: nproc)
#   FUZZ_PARALLEL=N    targets fuzzed at the same time (default: nproc)
#
# A crash file is an input: replay it with `build-asan/fuzz/<target> <file>`, then copy it to
# tests/fuzz_regressions/<kind>/ (kind = target name without `fuzz_`) so that planlint_tests
# replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
seconds=${FUZZ_SECONDS:-30}
timeout=${FUZZ_TIMEOUT:-10}
slow=${FUZZ_SLOW:-2}
work=${FUZZ_WORK:-$root/build-asan/fuzz-work}
jobs=${FUZZ_JOBS:-$(nproc)}

. tools/asan-build.sh
tools/setup-deps.sh --build-only "${asan_packages[@]}"

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in tools/fuzz/fuzz_*.cpp; do targets+=("$(basename "$f" .cpp)"); done
fi

# The ASan+UBSan build of tools/test.sh --sanitize (tools/asan-build.sh: clang, -O1, assertions
# on): after that stage only the targets' own files are left to compile.
echo "fuzz: building ${targets[*]} in $asan_build/ (clang, ASan+UBSan, libFuzzer)"
asan_configure
cmake --build "$asan_build" -j "$jobs" --target "${targets[@]}"

# Seeds: files of the kind each target reads. Everything is copied into a scratch directory, so
# nothing under corpus/ or tests/ is ever written.
seed_files() {  # kind
  case "$1" in
    explain)
      find corpus tests/fuzz_regressions/explain -type f \( -name '*.txt' -o -name '*.plan' \) 2>/dev/null ;;
    profile)
      find corpus tests/fuzz_regressions/profile -type f -name '*.json' 2>/dev/null ;;
    history_server)
      find corpus/history-server -type f -name '*.json' 2>/dev/null ;;
    config)
      find corpus tests docs -type f \( -name '*.toml' -o -name '.planlint.toml' \) 2>/dev/null ;;
    *) ;;
  esac
  find "tests/fuzz_regressions/$1" -type f 2>/dev/null || true
}

make_seeds() {  # kind dir
  local kind=$1 dir=$2 i=0
  rm -rf "$dir"
  mkdir -p "$dir"
  while IFS= read -r f; do
    i=$((i + 1))
    cp "$f" "$dir/seed-$i-$(basename "$f")"
  done < <(seed_files "$kind" | sort -u)
  case "$kind" in
    expression)
      # One seed per printed expression of the explain corpus: conditions, filters, keys.
      find corpus -type f -name '*.txt' 2>/dev/null | sort | xargs -r grep -h -E \
        '^(Condition :|Join condition:|PushedFilters:|PartitionFilters:|DataFilters:|Left keys|Right keys|Keys \[|Functions \[)' 2>/dev/null \
        | sed -E 's/^[^:]*: ?//' | sort -u | awk 'NR <= 600' | while IFS= read -r line; do
          i=$((i + 1))
          printf '%s' "$line" >"$dir/expr-$i"
        done
      printf '%s' '(isnotnull(a#1) AND (cast(b#2 as date) >= 2024-01-01))' >"$dir/expr-builtin-1"
      printf '%s' '[IsNotNull(a), GreaterThan(a,5), In(b, [1,2,3])]' >"$dir/expr-builtin-2"
      printf '%s' 'CASE WHEN (x#3 > 0) THEN 1 ELSE scalar-subquery#51 [] END' >"$dir/expr-builtin-3" ;;
    config)
      printf '%s\n' 'select = ["PL001", "exploding-join"]' 'ignore = []' '[severity]' 'skew-not-handled = "error"' \
        '[thresholds]' 'broadcast-threshold = "30MB"' '[per-file-ignores]' '"legacy/**" = ["PL002"]' >"$dir/builtin.planlint.toml"
      printf '%s\n' '[project]' 'name = "x"' '[tool.planlint]' 'select = ["PL001"]' '[tool.planlint.rules.exploding-join]' \
        'min-output-rows = 5e6' >"$dir/builtin-pyproject.toml" ;;
    lsp_framing)
      local body='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
      printf 'Content-Length: %d\r\n\r\n%s' "${#body}" "$body" >"$dir/lsp-initialize"
      local open='{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///q.txt","languageId":"sparkplan","version":1,"text":"== Physical Plan ==\n* Project (2)\n+- Scan parquet t (1)\n"}}}'
      printf 'Content-Length: %d\r\n\r\n%sContent-Length: %d\r\n\r\n%s' "${#body}" "$body" "${#open}" "$open" >"$dir/lsp-open"
      printf 'Content-Length: 5\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{"a":' >"$dir/lsp-truncated" ;;
    eventlog)
      # The corpus logs (120 KB, mostly task-end lines) would allow a few runs a second: seed
      # with a short copy of each instead, keeping three task-end lines.
      find corpus -type f -name '*.eventlog' 2>/dev/null | sort | while IFS= read -r f; do
        i=$((i + 1))
        awk '!/"SparkListenerTaskEnd"/ || n++ < 3' "$f" >"$dir/short-$i.eventlog"
      done ;;
    baseline)
      local fp='"fingerprint": "0123456789abcdef"'
      printf '{"version": 1, "tool": "planlint", "findings": [{"path": "plans/q1.txt", "rule": "non-sargable-predicate", %s, "message": "m"}]}\n' "$fp" >"$dir/baseline-1.json"
      printf '{"version": 1, "findings": []}' >"$dir/baseline-empty.json"
      printf '{"version": 2, "findings": [{"path": 5}]}' >"$dir/baseline-bad.json" ;;
    suppress)
      printf '# planlint: disable=non-sargable-predicate\n' >"$dir/s1"
      printf -- '-- planlint: disable=PL006,PL001 operator=2,3\n// planlint: disable=no-such-rule\n' >"$dir/s2"
      printf '#planlint:disable=\n# planlint: disable=PL006 operator=\n' >"$dir/s3" ;;
    eventlog_codec)
      # Compress mode (first byte 0-3, second byte: size near a buffer boundary) on short logs,
      # decode mode (first byte >= 4) on real compressed logs made by the zstd and lz4 commands.
      local j=0
      find corpus -type f -name '*.eventlog' 2>/dev/null | sort | while IFS= read -r f; do
        j=$((j + 1))
        for m in 0 1 2 3; do
          { printf "$(printf '\\x%02x\\x%02x' "$m" $((j * 37 % 256)))"; head -c 3000 "$f"; } >"$dir/compress-$m-$j"
        done
        if command -v zstd >/dev/null 2>&1; then { printf '\x04\x00'; zstd -q -c "$f"; } >"$dir/zstd-$j"; fi
        if command -v lz4 >/dev/null 2>&1; then { printf '\x04\x00'; lz4 -q -c "$f"; } >"$dir/lz4f-$j"; fi
      done ;;
    lsp_session)
      local uri='file:///q.txt'
      printf '%s\n--\n%s\n--\n%s' \
        '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"'$uri'","languageId":"sparkplan","version":1,"text":"== Physical Plan ==\n* Project (2)\n+- Scan parquet t (1)\n"}}}' \
        '{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"textDocument":{"uri":"'$uri'"},"position":{"line":1,"character":3}}}' \
        '{"jsonrpc":"2.0","id":2,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"'$uri'"}}}' >"$dir/session-1"
      printf '%s\n--\n%s' \
        '^100000{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"'$uri'","version":@@,"text":"x"}}}' \
        '{"jsonrpc":"2.0","id":3,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"'$uri'"},"range":{"start":{"line":0,"character":0},"end":{"line":1,"character":0}},"context":{"diagnostics":[]}}}' >"$dir/session-deep"
      printf '%s\n--\n%s\n--\n%s' '!{"jsonrpc":"2.0","id":9,"method":"shutdown"}' \
        '!Content-Length: 400'$'\r\n\r\n''{"jsonrpc":' \
        '{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"planlint":{"select":["PL001"]}}}}' >"$dir/session-bad-frames" ;;
    history_server)
      # C1 of the December 2026 reliability probe: numbers a double cannot hold.
      printf '[{"id":0,"status":"COMPLETED","duration":1e400,"planDescription":"== Physical Plan ==\\n* Project (1)\\n"}]' >"$dir/builtin-1e400"
      printf '[{"id":1e308,"status":"COMPLETED","planDescription":"== Physical Plan ==\\n* Project (1)\\n"}]' >"$dir/builtin-1e308" ;;
    explain|profile) ;;
    *)  # unknown kind: every corpus file
      find corpus -type f 2>/dev/null | sort | awk 'NR <= 200' | while IFS= read -r f; do
        i=$((i + 1)); cp "$f" "$dir/seed-$i"; done ;;
  esac
  # libFuzzer needs at least one input.
  [ -n "$(ls -A "$dir")" ] || printf '\n' >"$dir/empty"
}

mkdir -p "$work"
# Targets run FUZZ_PARALLEL at a time (default: nproc; each libFuzzer process uses one core), each
# writing its own seeds, corpus, artifacts and report; the reports are printed in target order.
parallel=${FUZZ_PARALLEL:-$(nproc)}
fuzz_one() {  # target; prints its report, returns 1 when it failed
  local t=$1 kind bin seeds corpus artifacts log max_len dict rc crashes slow_units stats u c
  kind=${t#fuzz_}
  bin=$asan_build/fuzz/$t
  seeds=$work/seeds-$kind
  corpus=$work/corpus-$kind
  artifacts=$work/artifacts-$kind
  make_seeds "$kind" "$seeds"
  mkdir -p "$corpus" "$artifacts"
  rm -f "$artifacts"/*
  log=$work/$t.log
  # Event logs are large inputs: keep them short so that a CI run tries more than a handful.
  max_len=262144
  [ "$kind" = eventlog ] && max_len=32768
  # A dictionary next to the target (tools/fuzz/<target>.dict) when there is one.
  dict=()
  [ -f "tools/fuzz/$t.dict" ] && dict=(-dict="tools/fuzz/$t.dict")
  echo "fuzz: $t for ${seconds}s ($(ls "$seeds" | wc -l) seeds${dict:+, dictionary tools/fuzz/$t.dict})"
  # -entropic=0: libFuzzer 14's entropic scheduler spends most of the time in
  # UpdateFeatureFrequency with these targets (5x fewer runs in the same time).
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    "$bin" -max_total_time="$seconds" -timeout="$timeout" -report_slow_units="$slow" -rss_limit_mb=2048 \
      -max_len="$max_len" -entropic=0 "${dict[@]}" -print_final_stats=1 -artifact_prefix="$artifacts/" \
      "$corpus" "$seeds" >"$log" 2>&1
  rc=$?   # fuzz_one runs on the left of ||: a failing command does not stop it
  # crash-, leak-, timeout-, oom-: failures. slow-unit-: a warning (the timeout decides).
  crashes=$(find "$artifacts" -type f ! -name 'slow-unit-*' | sort)
  slow_units=$(find "$artifacts" -type f -name 'slow-unit-*' | sort)
  for u in $slow_units; do
    echo "fuzz: warning: $t: an input took over ${slow}s (not a failure under the ${timeout}s timeout): $u"
  done
  if [ $rc -ne 0 ] || [ -n "$crashes" ]; then
    echo "fuzz: $t FAILED (exit $rc); last lines of $log:"
    grep -v '^#[0-9]' "$log" | tail -n 40
    [ -n "$crashes" ] || echo "fuzz: no reproducer file was written; see $log"
    for c in $crashes; do
      echo "fuzz: reproducer $c ($(stat -c %s "$c") bytes); replay: $bin $c"
      echo "fuzz: keep it as a regression: cp $c tests/fuzz_regressions/$kind/"
      echo "----- first 1 KB, base64 -----"
      head -c 1024 "$c" | base64
      echo "-----"
    done
    return 1
  else
    stats=$(grep -E 'stat::number_of_executed_units|cov: ' "$log" | tail -n 2 | tr '\n' ' ')
    echo "fuzz: $t clean ($stats)"
  fi
}
echo "fuzz: running ${#targets[@]} targets, $parallel at a time"
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  rm -f "$work/$t.failed"
  { fuzz_one "$t" || touch "$work/$t.failed"; } >"$work/$t.report" 2>&1 &
done
wait
failed=()
for t in "${targets[@]}"; do
  cat "$work/$t.report"
  [ ! -e "$work/$t.failed" ] || failed+=("$t")
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: all ${#targets[@]} targets clean (${seconds}s each)"
