#!/usr/bin/env bash
# Install Microsoft's SARIF validator (@microsoft/sarif-multitool-linux, a self-contained Linux x64
# build) from npm into the folder tests/sarif_validate.sh looks in, when it is not there yet.
# Called by tools/setup-deps.sh; never by a test.
set -euo pipefail
version=5.7.0
cache=${PLANLINT_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/planlint}/sarif-multitool-$version
tool="$cache/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
[ -x "$tool" ] && exit 0
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "planlint: the SARIF validator is built for Linux x64 only; tests/sarif_validate.sh will skip" >&2
  exit 0
fi
mkdir -p "$cache"
echo "planlint: installing @microsoft/sarif-multitool-linux@$version into $cache" >&2
# --ignore-scripts: the package's only script is the chmod below.
timeout 900 npm install --no-audit --no-fund --ignore-scripts --prefix "$cache" \
  "@microsoft/sarif-multitool-linux@$version" >"$cache/npm.log" 2>&1 ||
  { tail -5 "$cache/npm.log" >&2; echo "planlint: npm could not install the SARIF validator" >&2; exit 1; }
chmod u+x "$tool"
