// VS Code client for the ptolog language server: starts the project's own `ptolog lsp --stdio`
// (server-command.js), passes the `ptolog.*` analysis settings through workspace/configuration
// (applied without a restart), restarts the server when the executable or its arguments change,
// and contributes the commands the server answers: explain this line, fix all, canonicalize,
// restart the server.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');
const { serverCommand } = require('./server-command.js');

/** @type {LanguageClient | undefined} */
let client;
/** @type {vscode.LogOutputChannel | undefined} */
let output;

function createClient() {
  const cfg = vscode.workspace.getConfiguration('ptolog');
  const folders = (vscode.workspace.workspaceFolders || []).map((f) => f.uri.fsPath);
  const found = serverCommand({ configured: cfg.get('path', ''), folders, envPath: process.env.PATH, platform: process.platform });
  if (found.error) {
    void vscode.window.showErrorMessage(found.error);
    return undefined;
  }
  const run = {
    command: found.command,
    args: ['lsp', '--stdio', ...cfg.get('args', [])],
    options: { cwd: folders[0], shell: process.platform === 'win32' && /\.cmd$/i.test(found.command) },
  };
  return new LanguageClient(
    'ptolog',
    'ptolog',
    { run, debug: run },
    {
      documentSelector: [
        { scheme: 'file', language: 'python' },
        { scheme: 'untitled', language: 'python' },
      ],
      // The server re-reads the ptolog settings (workspace/configuration) when they change.
      synchronize: { configurationSection: 'ptolog' },
      // The commands are this extension's (below); the server registers none of its own.
      initializationOptions: { clientCommands: true },
      // The hover's "Explain this line" link.
      markdown: { isTrusted: { enabledCommands: ['ptolog.explain'] } },
      outputChannel: output,
    },
  );
}

async function start() {
  client = createClient();
  if (client) await client.start();
}

async function restart() {
  const old = client;
  client = undefined;
  if (old) await old.stop();
  await start();
}

/** Runs a server command on the active editor's document (the server applies its edit). */
async function onActiveDocument(command) {
  const editor = vscode.window.activeTextEditor;
  if (!client || !editor) return;
  await client.sendRequest('workspace/executeCommand', { command, arguments: [editor.document.uri.toString()] });
}

/** The server's explanation (derived tuples with their proofs) of a line, shown beside the editor. */
async function explain(uri, line) {
  const editor = vscode.window.activeTextEditor;
  const target = typeof uri === 'string' ? uri : editor?.document.uri.toString();
  const at = typeof line === 'number' ? line : editor ? editor.selection.active.line + 1 : undefined;
  if (!client || target === undefined || at === undefined) return;
  const text = await client.sendRequest('workspace/executeCommand', { command: 'ptolog.explain', arguments: [target, at] });
  const doc = await vscode.workspace.openTextDocument({
    content: typeof text === 'string' ? text : 'Nothing to explain here.',
    language: 'plaintext',
  });
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
}

exports.activate = async function activate(context) {
  // A log channel: the language client writes its errors and traces with .error/.info/.trace.
  output = vscode.window.createOutputChannel('ptolog', { log: true });
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('ptolog.explain', explain),
    vscode.commands.registerCommand('ptolog.fixAll', () => onActiveDocument('ptolog.fixAll')),
    vscode.commands.registerCommand('ptolog.canonicalize', () => onActiveDocument('ptolog.canonicalize')),
    vscode.commands.registerCommand('ptolog.restartServer', restart),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('ptolog.path') || e.affectsConfiguration('ptolog.args')) void restart();
    }),
  );
  await start();
};

exports.deactivate = function deactivate() {
  return client ? client.stop() : undefined;
};
