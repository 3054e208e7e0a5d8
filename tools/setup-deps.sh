#!/usr/bin/env bash
# Install what planlint needs to build and test, when any of it is missing: the Debian packages
# of the build, then every test dependency (Chromium, Neovim, zstd/lz4, npm, Microsoft's SARIF
# validator, code-server and what the VS Code extension's test needs), once, before any test runs. Tests never install anything themselves; under CI=true a
# test whose dependency is missing fails instead of skipping (tests/lib.sh).
# Usage: tools/setup-deps.sh [--build-only | --apt-only | --tools-only] [extra-package ...]
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=0
if [ "${1:-}" = "--build-only" ]; then build_only=1; shift; fi
# --apt-only: the Debian packages (build and test) only; --tools-only: the npm tools and PySpark
# venvs only (tools/test.sh runs those while it compiles: they are mostly downloads).
apt_only=0 tools_only=0
if [ "${1:-}" = "--apt-only" ]; then apt_only=1; shift; fi
if [ "${1:-}" = "--tools-only" ]; then tools_only=1; shift; fi
# The build (docs/ci.md's GitHub Actions recipe installs the same list; tests/ci_recipe.sh checks it).
build_pkgs=(g++ cmake ninja-build pkg-config tao-pegtl-dev nlohmann-json3-dev libcli11-dev
            doctest-dev libtomlplusplus-dev libzstd-dev liblz4-dev libsnappy-dev zlib1g-dev libcurl4-openssl-dev
            libhowardhinnant-date-dev libutf8proc-dev)
# The tests: report_chromium.sh, lsp_neovim.sh, eventlog_cli.sh, hostile_cli.sh (xmllint),
# sarif_validate.sh (npm), lsp_vscode.sh (chromium; npm, and make and libkrb5-dev for node-gyp,
# which builds code-server's native modules, kerberos among them: tools/test-deps-npm.sh); the Python package and its tests (pybind11, pytest, pandas); the
# History Server and NDJSON tests (parallel, openssl); the .deb test (dpkg-dev); PySpark's JVM and
# the listener's build (openjdk-17-jdk-headless, maven: listener/, built by tools/test.sh).
test_pkgs=(chromium neovim zstd lz4 npm make libkrb5-dev libxml2-utils
           pybind11-dev python3-dev python3-pytest python3-pandas python3-setuptools python3-pip
           parallel dpkg-dev openssl python3-venv openjdk-17-jdk-headless maven)
pkgs=("${build_pkgs[@]}" "$@")
[ "$build_only" = 1 ] || pkgs+=("${test_pkgs[@]}")
missing=()
[ "$tools_only" = 1 ] && pkgs=()
for p in "${pkgs[@]}"; do
  # npm may come with the machine's own Node.js rather than Debian's package (which then conflicts).
  [ "$p" = npm ] && command -v npm >/dev/null 2>&1 && continue
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  echo "planlint: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[ "$build_only" = 1 ] && exit 0
[ "$apt_only" = 1 ] && exit 0
# The npm tools (code-server: ~600 MB) and PySpark (two Spark lines) with the Python test
# dependencies, in venvs: both mostly downloads, so side by side.
tools/test-deps-npm.sh & npm_pid=$!
tools/setup-venv.sh & venv_pid=$!
ok=1
wait "$npm_pid" || ok=0
wait "$venv_pid" || ok=0
[ "$ok" = 1 ] || { echo "planlint: the npm tools or the Python environments could not be set up (above)" >&2; exit 1; }
