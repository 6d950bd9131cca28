// A real `ptolog lsp` (bin/ptolog.js over dist/: `npm run build` first) driven over stdio with
// vscode-jsonrpc's node connection, as an editor drives it.
import { type ChildProcess, spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { PublishDiagnosticsParams, TextEdit } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';

export interface Server {
  child: ChildProcess;
  conn: MessageConnection;
  diagnostics: PublishDiagnosticsParams[];
  logs: string[];
  stderr: string[];
  /** The next publishDiagnostics for `uri` matching `pred`. */
  next(uri: string, pred?: (p: PublishDiagnosticsParams) => boolean): Promise<PublishDiagnosticsParams>;
}

/** Starts `ptolog lsp --stdio ARGS` (in the repository root). */
export function startServer(args: string[] = []): Server {
  const child = spawn(process.execPath, ['bin/ptolog.js', 'lsp', '--stdio', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const conn = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const diagnostics: PublishDiagnosticsParams[] = [];
  const logs: string[] = [];
  const stderr: string[] = [];
  child.stderr!.on('data', (b: Buffer) => stderr.push(b.toString()));
  const waiters: { uri: string; pred: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    diagnostics.push(p);
    for (const w of [...waiters]) {
      if (w.uri === p.uri && w.pred(p)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(p);
      }
    }
  });
  conn.onNotification('window/logMessage', (p: { message: string }) => {
    logs.push(p.message);
  });
  conn.listen();
  return {
    child,
    conn,
    diagnostics,
    logs,
    stderr,
    next: (uri, pred = () => true) => new Promise((resolve) => waiters.push({ uri, pred, resolve })),
  };
}

/** initialize + initialized with `capabilities` (none by default) and `initializationOptions`. */
export async function initialize(
  s: Server,
  root: string,
  capabilities: Record<string, unknown> = {},
  initializationOptions?: unknown,
): Promise<Record<string, unknown>> {
  const r = await s.conn.sendRequest('initialize', {
    processId: null,
    rootUri: pathToFileURL(root).href,
    capabilities,
    initializationOptions,
  });
  await s.conn.sendNotification('initialized', {});
  return r as Record<string, unknown>;
}

/** shutdown + exit; the exit code. */
export async function stop(s: Server): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => s.child.on('exit', (code) => resolve(code)));
  await s.conn.sendRequest('shutdown');
  await s.conn.sendNotification('exit');
  const code = await exited;
  s.conn.dispose();
  return code;
}

/** Opens a document and waits for its first diagnostics. */
export async function open(s: Server, uri: string, text: string, version = 1): Promise<PublishDiagnosticsParams> {
  const published = s.next(uri, (p) => p.version === version);
  await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version, text } });
  return published;
}

/** Replaces a document's text and waits for the diagnostics of that version. */
export async function change(s: Server, uri: string, text: string, version: number): Promise<PublishDiagnosticsParams> {
  const published = s.next(uri, (p) => p.version === version);
  await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
  return published;
}

export function applyEdits(text: string, edits: TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('x', 'python', 0, text), edits);
}
