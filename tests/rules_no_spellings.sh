#!/usr/bin/env bash
# Rules read typed facts, never input spellings (issue "the plan model becomes the contract").
# Fails when a file in rules/ holds a string literal that
#   (a) is a spelling from a reader's name table (parser/**/facts_*.cpp: field keys, metric labels), or
#   (b) is compared with or searched for in text (==, !=, find, contains, starts_with, field(...),
#       metric(...), first_metric / query_metric lists) and looks like a format spelling: CamelCase
#       (`SinglePartition`, `ResultQueryStage`), UPPER_SNAKE (`PHOTON_AGG_EXEC`), a profile metric
#       with a ` - ` prefix, or a known Spark operator / field name.
# Message text (literals concatenated into findings) is not matched; the few message literals that
# still trip (b) are listed in tests/rules_spellings_allow.txt with the reason.
# A self-check runs the same scan on a bad snippet first, so this test can fail.
# Usage: tests/rules_no_spellings.sh [planlint]   (run from the source folder; the argument is unused)
set -u
if ! command -v python3 >/dev/null 2>&1; then
  if [ "${CI:-}" = true ]; then echo "FAIL: python3 is required"; exit 1; fi
  echo "SKIP: python3 is not installed"; exit 77
fi
python3 - "$@" <<'PY'
import pathlib, re, sys, tempfile

root = pathlib.Path('.')
tables = set()
for p in list(root.glob('parser/**/facts_*.cpp')):
    for m in re.finditer(r'\{"((?:[^"\\]|\\.)*)",\s*(?:FieldRole|Metric)::', p.read_text()):
        tables.add(m.group(1))
if len(tables) < 40:
    print(f"FAIL: found only {len(tables)} spellings in the readers' name tables (parser/**/facts_*.cpp)")
    sys.exit(1)
known = {
    # operator-name fragments and field keys that rules once matched
    'Scan', 'Join', 'Coalesce', 'Arguments', 'Keys', 'Condition', 'Output', 'Input', 'ReadSchema', 'Location',
    'PushedFilters', 'DataFilters', 'PartitionFilters', 'SinglePartition', 'ResultQueryStage', 'PhotonAgg',
    'BatchEvalPython', 'ArrowEvalPython', 'JDBC', 'skewed', 'coalesced', 'more fields', 'isFinalPlan=true',
    'StateStore', 'MicroBatch', 'EXECUTOR_BROADCAST', 'Scan ',
    # lower-case spellings searched in printed text (hints, Photon reasons, conditions)
    'python', 'udf', 'broadcast', 'shuffle_hash', 'merge', 'shuffle_merge', 'none', 'is not null', 'isnotnull(',
    'no skewed', 'jdbc', 'dynamicpruning', 'might_contain', 'bloom_filter_agg', '[id=', '[plan_id=', 'x', 'X', '[]',
}
spellings = tables | known

allow = set()
allow_file = root / 'tests/rules_spellings_allow.txt'
if allow_file.exists():
    for line in allow_file.read_text().splitlines():
        line = line.split('#', 1)[0].strip()
        if line:
            allow.add(line)

ctx = re.compile(r'(==|!=)\s*"|"\s*(==|!=)|\bfind\(\s*"|\brfind\(\s*"|contains\([^;]*"|starts_with\([^;]*"|'
                 r'ends_with\([^;]*"|\bfield\(\s*"|\bmetric(_value)?\(\s*"|first_metric\([^;]*\{\s*"|'
                 r'query_metric\([^;]*\{\s*"|\bcompare\([^;]*"')
lit = re.compile(r'"((?:[^"\\]|\\.)*)"')

def looks_like_spelling(s):
    if s in spellings:
        return True
    if re.search(r'[a-z][A-Z]|^[A-Z][a-z]+[A-Z]', s):       # CamelCase
        return True
    if re.fullmatch(r'[A-Z][A-Z0-9_]{2,}', s):                # UPPER_SNAKE
        return True
    if ' - ' in s and s[:1].isupper():                         # "Sink - Num bytes written"
        return True
    if re.fullmatch(r'[A-Z][a-z]+', s):                        # "Single", "Join", "Coalesce"
        return True
    return False

def strip_comment(line):
    out, in_str, i = [], False, 0
    while i < len(line):
        c = line[i]
        if in_str:
            out.append(c)
            if c == '\\' and i + 1 < len(line):
                out.append(line[i + 1]); i += 2; continue
            if c == '"': in_str = False
        else:
            if line.startswith('//', i): break
            if c == '"': in_str = True
            out.append(c)
        i += 1
    return ''.join(out)

def scan(paths):
    bad = []
    for p in paths:
        for n, raw in enumerate(p.read_text().splitlines(), 1):
            line = strip_comment(raw)
            in_ctx = bool(ctx.search(lit.sub('""', line)))
            for m in lit.finditer(line):
                s = m.group(1)
                key = f'{p.name}:{s}'
                if key in allow:
                    continue
                if s in tables:
                    bad.append(f'{p}:{n}: "{s}" is a reader spelling (name table): {raw.strip()}')
                elif in_ctx and looks_like_spelling(s):
                    bad.append(f'{p}:{n}: "{s}" is compared with or searched in input text: {raw.strip()}')
    return bad

# Self-check: the scan must catch these.
with tempfile.TemporaryDirectory() as d:
    probe = pathlib.Path(d) / 'probe.cpp'
    probe.write_text('if (op.field("PushedFilters")) {}\n'
                     'auto v = first_metric(op, {"Files read"});\n'
                     'if (op.name == "ResultQueryStage") {}\n'
                     'if (f.value == "Single") {}\n'
                     'msg += "a Scan parquet message";\n')
    caught = scan([probe])
    if len(caught) != 4:
        print('FAIL: the self-check expected 4 hits, got', len(caught))
        for c in caught: print('  ', c)
        sys.exit(1)

files = sorted(root.glob('rules/**/*.cpp')) + sorted(root.glob('rules/**/*.hpp'))
if not files:
    print('FAIL: no rule sources under rules/'); sys.exit(1)
bad = scan(files)
for b in bad:
    print('FAIL:', b)
if bad:
    print(f'{len(bad)} input spellings in rules/: move them into the reader\'s name table and read the typed fact')
    sys.exit(1)
print(f'ok: {len(files)} rule files, {len(tables)} reader spellings, no spelling in rules/ ({len(allow)} allowed message literals)')
PY
