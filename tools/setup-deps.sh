#!/usr/bin/env bash
# Install the Debian packages planlint needs to build and test, when any is missing.
# Usage: tools/setup-deps.sh [extra-package ...]
set -euo pipefail
pkgs=(g++ cmake ninja-build pkg-config tao-pegtl-dev nlohmann-json3-dev libcli11-dev
      doctest-dev libtomlplusplus-dev libzstd-dev liblz4-dev libsnappy-dev
      libcurl4-openssl-dev pybind11-dev python3-dev python3-pytest python3-pandas python3-setuptools
      python3-pip parallel dpkg-dev openssl "$@")
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
