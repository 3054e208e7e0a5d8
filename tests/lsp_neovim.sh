#!/usr/bin/env bash
# `planlint lsp` driven by a real editor: Neovim's built-in LSP client (headless), configured by
# the recipe of docs/editors.md itself (the first ```lua block of its "## Neovim" section, taken
# from the page, not a copy), opens a plan from corpus/, waits for the diagnostics, checks them,
# then checks hover, code actions and the outline. The recipe must work on Neovim 0.7 and later.
# Usage: tests/lsp_neovim.sh path/to/planlint     (no Neovim: exit 77, or failure under CI=true)
set -euo pipefail
planlint=$(realpath "${1:?usage: lsp_neovim.sh PLANLINT}")
cd "$(dirname "$0")/.."

. tests/shell_lib.bash
command -v nvim >/dev/null 2>&1 || skip "Neovim is not installed"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Copies, so that nothing the editor does can touch the corpus.
cp corpus/lsp/small-side-sort-merge-join.explain.txt corpus/lsp/broken-tree-line.explain.txt "$work/"
# The documented recipe, as it stands in docs/editors.md; its `cmd = { 'planlint', 'lsp' }` finds
# the planlint under test first on PATH.
awk '/^## Neovim$/ { s = 1; next } /^## / { s = 0 } s && /^```lua$/ { b = 1; next } b && /^```$/ { exit }
     b { print }' docs/editors.md > "$work/init.lua"
grep -q "cmd = { 'planlint', 'lsp' }" "$work/init.lua" ||
  { echo "lsp_neovim: FAIL: no Neovim recipe with cmd = { 'planlint', 'lsp' } in docs/editors.md"; exit 1; }
mkdir -p "$work/bin"
ln -s "$planlint" "$work/bin/planlint"
export PATH="$work/bin:$PATH"

cat > "$work/check.lua" <<'LUA'
-- Runs inside `nvim --headless`; every failure ends Neovim with a non-zero exit code.
local env = vim.env
local function fail(msg)
  io.stderr:write('lsp_neovim: FAIL: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end
local function log(msg) io.stdout:write(msg .. '\n') end
local function check(cond, msg) if not cond then fail(msg) end return cond end

local ok, err = pcall(function()
  local buf = vim.api.nvim_get_current_buf()
  -- 0. The recipe (init.lua, loaded with --cmd) set the file type and attached planlint.
  if not check(vim.bo[buf].filetype == 'sparkplan', 'file type is "' .. vim.bo[buf].filetype .. '", not sparkplan') then return end
  local client_id
  local attached = vim.wait(15000, function()
    for _, c in pairs(vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = buf }) or vim.lsp.buf_get_clients(buf)) do
      if c.name == 'planlint' then client_id = c.id return true end
    end
    return false
  end, 50)
  if not check(attached, 'the recipe did not attach planlint to the plan') then return end
  local client = vim.lsp.get_client_by_id(client_id)
  if not check(client.config.cmd[1] == 'planlint', 'the client runs ' .. tostring(client.config.cmd[1])) then return end

  -- 1. Diagnostics arrive after didOpen.
  local got = vim.wait(15000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  if not check(got, 'no diagnostics within 15 s') then return end
  local want_line = tonumber(env.EXPECT_LINE) - 1
  local found = false
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    log(string.format('diagnostic %d:%d severity=%s code=%s: %s', d.lnum + 1, d.col + 1, tostring(d.severity),
      tostring(d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)), d.message))
    if d.lnum == want_line and d.severity == vim.diagnostic.severity[env.EXPECT_SEVERITY] and d.source == 'planlint'
        and d.code == env.EXPECT_CODE and d.message:find(env.EXPECT_MESSAGE, 1, true) then
      found = true
    end
  end
  if not check(found, 'no planlint ' .. env.EXPECT_SEVERITY .. ' [' .. env.EXPECT_CODE .. '] on line ' .. env.EXPECT_LINE
      .. ' containing "' .. env.EXPECT_MESSAGE .. '"') then return end

  -- 2. Hover on an operator line.
  local hover_line = tonumber(env.HOVER_LINE) - 1
  local text = vim.api.nvim_buf_get_lines(buf, hover_line, hover_line + 1, false)[1]
  local col = (text:find('%a') or 1) - 1  -- on the operator name, after the tree drawing
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = hover_line, character = col } }
  local responses = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 10000)
  local value
  for _, r in pairs(responses or {}) do
    if r.result and r.result.contents then value = r.result.contents.value end
  end
  if not check(value, 'no hover on line ' .. env.HOVER_LINE) then return end
  log('hover: ' .. (value:gsub('\n', ' | ')))
  for want in string.gmatch(env.HOVER_EXPECT, '[^;]+') do
    if not check(value:find(want, 1, true), 'hover lacks "' .. want .. '"') then return end
  end

  -- 3. Code actions on the finding: the suppression directive (and the fix, where the rule has one).
  if (env.ACTION_EXPECT or '') ~= '' then
    local line_text = vim.api.nvim_buf_get_lines(buf, want_line, want_line + 1, false)[1]
    responses = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      range = { start = { line = want_line, character = 0 }, ['end'] = { line = want_line, character = #line_text } },
      context = { diagnostics = {} },
    }, 10000)
    local titles = {}
    for _, r in pairs(responses or {}) do
      for _, a in ipairs(r.result or {}) do titles[#titles + 1] = a.title end
    end
    local all_titles = table.concat(titles, ' | ')
    log('code actions: ' .. all_titles)
    for want in string.gmatch(env.ACTION_EXPECT, '[^;]+') do
      if not check(all_titles:find(want, 1, true), 'code actions lack "' .. want .. '"') then return end
    end
  end

  -- 4. The outline (documentSymbol) has the operator tree.
  responses = vim.lsp.buf_request_sync(buf, 'textDocument/documentSymbol',
    { textDocument = { uri = vim.uri_from_bufnr(buf) } }, 10000)
  local symbols
  for _, r in pairs(responses or {}) do symbols = r.result end
  if not check(symbols and #symbols > 0, 'no document symbols') then return end
  local names = {}
  local stack = {}
  for _, s in ipairs(symbols) do table.insert(stack, s) end
  while #stack > 0 do
    local s = table.remove(stack)
    names[#names + 1] = s.name
    for _, c in ipairs(s.children or {}) do table.insert(stack, c) end
  end
  local all = table.concat(names, ', ')
  log('symbols: ' .. all)
  if not check(all:find(env.SYMBOL_EXPECT, 1, true), 'outline lacks "' .. env.SYMBOL_EXPECT .. '"') then return end

  vim.lsp.stop_client(client_id)
  vim.wait(2000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
  vim.cmd('qall!')
end)
if not ok then fail(tostring(err)) end
LUA

export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache"
failed=0
run() {  # run NAME PLAN_FILE: the expectations come from the EXPECT_* / *_EXPECT variables
  local name=$1 file=$2
  if timeout 60 nvim --headless --clean -n --cmd "luafile $work/init.lua" "$work/$file" -c "luafile $work/check.lua" </dev/null >"$work/out.txt" 2>&1; then
    sed "s/^/  /" "$work/out.txt"
    echo "lsp_neovim: $name: OK"
  else
    local rc=$?
    sed "s/^/  /" "$work/out.txt"
    echo "lsp_neovim: $name: FAILED (exit $rc)" >&2
    failed=1
  fi
}

# A rule finding: the sort-merge join (line 10) whose right side is 512 KiB.
EXPECT_LINE=10 EXPECT_SEVERITY=WARN EXPECT_CODE=shuffle-join-could-broadcast \
  EXPECT_MESSAGE="SortMergeJoin (11) shuffles and sorts both sides" HOVER_LINE=10 \
  HOVER_EXPECT="**SortMergeJoin** · operator 11;join · spark;### shuffle-join-could-broadcast;**Why is this bad?**" \
  ACTION_EXPECT="Suppress shuffle-join-could-broadcast on operator 11;Show fix for shuffle-join-could-broadcast" \
  SYMBOL_EXPECT="SortMergeJoin (11)" run finding small-side-sort-merge-join.explain.txt

# A parse error: tree line 9 ("Filter (3" without ')'); line 7 is the join.
EXPECT_LINE=9 EXPECT_SEVERITY=ERROR EXPECT_CODE=parse-error EXPECT_MESSAGE="expected" HOVER_LINE=7 \
  HOVER_EXPECT="**BroadcastHashJoin** · operator 9;join · spark" ACTION_EXPECT="" \
  SYMBOL_EXPECT="BroadcastHashJoin (9)" run parse-error broken-tree-line.explain.txt

echo "lsp_neovim: $(nvim --version | head -1)"
exit $failed
