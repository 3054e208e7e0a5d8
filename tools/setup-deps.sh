#!/usr/bin/env bash
# Install what planlint needs to build and test, when any of it is missing: the Debian packages
# of the build, then every test dependency (Chromium, Neovim, zstd/lz4, npm and Microsoft's SARIF
# validator), once, before any test runs. Tests never install anything themselves; under CI=true a
# test whose dependency is missing fails instead of skipping (tests/lib.sh).
# Usage: tools/setup-deps.sh [--build-only] [extra-package ...]
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=0
if [ "${1:-}" = "--build-only" ]; then build_only=1; shift; fi
# The build (docs/ci.md's GitHub Actions recipe installs the same list; tests/ci_recipe.sh checks it).
build_pkgs=(g++ cmake ninja-build pkg-config tao-pegtl-dev nlohmann-json3-dev libcli11-dev
            doctest-dev libtomlplusplus-dev libzstd-dev liblz4-dev libsnappy-dev libcurl4-openssl-dev)
# The tests: report_chromium.sh, lsp_neovim.sh, eventlog_cli.sh, hostile_cli.sh (xmllint),
# sarif_validate.sh (npm); the Python package and its tests (pybind11, pytest, pandas); the
# History Server and NDJSON tests (parallel, openssl); the .deb test (dpkg-dev); PySpark's JVM and
# the listener's build (openjdk-17-jdk-headless, maven: listener/, built by tools/test.sh).
test_pkgs=(chromium neovim zstd lz4 npm libxml2-utils
           pybind11-dev python3-dev python3-pytest python3-pandas python3-setuptools python3-pip
           parallel dpkg-dev openssl python3-venv openjdk-17-jdk-headless maven)
pkgs=("${build_pkgs[@]}" "$@")
[ "$build_only" = 1 ] || pkgs+=("${test_pkgs[@]}")
missing=()
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
tools/test-deps-npm.sh
tools/setup-venv.sh   # PySpark (two Spark lines) and the Python test dependencies, in venvs
