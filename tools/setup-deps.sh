#!/usr/bin/env bash
# Install the Debian packages planlint needs to build and test, when any is missing.
# Usage: tools/setup-deps.sh [extra-package ...]
set -euo pipefail
pkgs=(g++ cmake ninja-build pkg-config tao-pegtl-dev nlohmann-json3-dev libcli11-dev
      doctest-dev libtomlplusplus-dev libzstd-dev liblz4-dev libsnappy-dev
      libxml2-utils zstd lz4 "$@")  # test tools: xmllint (JUnit well-formedness), the zstd and lz4 commands
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "planlint: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
