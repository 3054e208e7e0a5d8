#!/usr/bin/env bash
# Re-make the README's screenshots of `planlint show` and `planlint report` on the mixed
# Photon/JVM profile of ../shared: docs/show.png and docs/report-top-operators.png.
# Needs Debian chromium and aha (ANSI colours to HTML). Usage: tools/screenshots.sh [build/planlint]
set -euo pipefail
cd "$(dirname "$0")/.."
planlint=${1:-build/planlint}
profile=../shared/corpus/databricks/profile-01-itagaki-mixed-photon-jvm.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chrome() {  # chrome WIDTH,HEIGHT OUT.png IN.html
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$work/profile" \
    --window-size="$1" --virtual-time-budget=3000 --screenshot="$2" "file://$3" >/dev/null 2>&1
}
"$planlint" report --no-config "$profile" -o "$work/report.html"
chrome 1400,900 docs/report-top-operators.png "$work/report.html"
COLUMNS=130 "$planlint" show --color always --top 5 "$profile" | head -34 | aha --black --title "planlint show" >"$work/show.html"
sed -i 's#<pre>#<pre style="font-size:14px;line-height:1.25;font-family:DejaVu Sans Mono,monospace;margin:8px">#' "$work/show.html"
chrome 1180,640 docs/show.png "$work/show.html"
echo "wrote docs/show.png docs/report-top-operators.png"
