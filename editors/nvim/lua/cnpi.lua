-- Starts `cnpic lsp` for every cnpi buffer. Works with Neovim 0.7 (Debian
-- bookworm), which has vim.lsp.start_client but not vim.lsp.start.
--
--   require("cnpi").setup({ cmd = { "cnpic", "lsp" } })
local M = {}

function M.setup(options)
  options = options or {}
  local cmd = options.cmd or { "cnpic", "lsp" }
  local client_id = nil
  vim.api.nvim_create_autocmd("FileType", {
    pattern = "cnpi",
    callback = function(args)
      if client_id == nil then
        client_id = vim.lsp.start_client({
          name = "cnpic",
          cmd = cmd,
          root_dir = vim.fn.getcwd(),
        })
      end
      if client_id then
        vim.lsp.buf_attach_client(args.buf, client_id)
      end
    end,
  })
end

return M
