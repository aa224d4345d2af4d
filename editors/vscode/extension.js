// Starts `cnpic lsp` for .cnpi files (the server does everything else).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("cnpi").get("server.path", "cnpic");
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "cnpi",
    "cnpic lsp",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "cnpi" }] }
  );
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
