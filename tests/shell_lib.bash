# Sourced by the shell tests (tests/*.sh); a .bash file, so CMake does not register it as a test.
# skip MESSAGE: exit 77 (CTest "skipped"), except under CI=true, where a missing test dependency
# fails the test: tools/setup-deps.sh installs every one of them before the tests run.
skip() {
  if [ "${CI:-}" = "true" ]; then
    echo "FAIL (CI=true, a test dependency is missing; run tools/setup-deps.sh): $*"
    exit 1
  fi
  echo "SKIP: $* (tools/setup-deps.sh installs it)"
  exit 77
}
# sarif_multitool: prints the path of the validator tools/test-deps-npm.sh installs.
sarif_multitool() {
  echo "${PLANLINT_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/planlint}/sarif-multitool-5.7.0/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
}
