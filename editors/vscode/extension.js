// Minimal VS Code client for `ptolog lsp`: starts the server for Python files.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

exports.activate = async function activate() {
  const [command, ...args] = vscode.workspace.getConfiguration('ptolog').get('command');
  client = new LanguageClient(
    'ptolog',
    'ptolog',
    { command, args, options: { shell: process.platform === 'win32' } },
    { documentSelector: [{ scheme: 'file', language: 'python' }] },
  );
  await client.start();
};

exports.deactivate = function deactivate() {
  return client ? client.stop() : undefined;
};
