#!/usr/bin/env bash
# Opens a broken .cnpi file in headless Neovim with editors/nvim set up,
# waits for the diagnostics of `cnpic lsp`, and fails if none arrive.
#   editors/nvim/check.sh [PATH-TO-CNPIC]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cnpic="$(realpath "${1:-$here/../../target/release/cnpic}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/broken.cnpi" <<'CNPI'
env array(P1 = 0, P2 = 1)
def STEP: seq(; MOVE(P1, RIGHT), MOVE(P2, RIGHT), NOP)
def LOOP: linrec(A[P2] != END?; STPE, NOP, NOP)
CNPI
cat > "$work/init.lua" <<LUA
vim.opt.runtimepath:prepend("$here")
vim.cmd("filetype on")
require("cnpi").setup({ cmd = { "$cnpic", "lsp" } })
vim.api.nvim_create_autocmd("VimEnter", { callback = function()
  local found = vim.wait(30000, function()
    return #vim.diagnostic.get(0) > 0
  end, 100)
  local diagnostics = vim.diagnostic.get(0)
  local out = io.open("$work/result", "w")
  if found then
    for _, d in ipairs(diagnostics) do
      out:write(string.format("%d:%d %s %s\n", d.lnum + 1, d.col + 1, tostring(d.code), d.message:gsub("\n.*", "")))
    end
  else
    out:write("NONE\n")
  end
  out:close()
  vim.cmd("qall!")
end })
LUA
cd "$work"
timeout 120 nvim --headless -n -u "$work/init.lua" "$work/broken.cnpi" >/dev/null 2>&1 || true
if [ ! -s "$work/result" ] || grep -q NONE "$work/result"; then
  echo "editors/nvim/check.sh: no diagnostics arrived from cnpic lsp" >&2
  exit 1
fi
cat "$work/result"
grep -q "E0101" "$work/result"
echo "editors/nvim/check.sh: Neovim received the diagnostics"
