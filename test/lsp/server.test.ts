// Drives the real `ptolog lsp` (bin/ptolog.js over dist/, built by `npm test`) over stdio with
// vscode-jsonrpc's node connection, as an editor does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic, Hover, PublishDiagnosticsParams, TextEdit } from 'vscode-languageserver';
import { main } from '../../src/cli/main.js';

interface Server {
  child: ChildProcess;
  conn: MessageConnection;
  diagnostics: PublishDiagnosticsParams[];
  logs: string[];
  stderr: string[];
  /** The next publishDiagnostics for `uri` matching `pred`. */
  next(uri: string, pred?: (p: PublishDiagnosticsParams) => boolean): Promise<PublishDiagnosticsParams>;
}

function startServer(args: string[] = []): Server {
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
    child, conn, diagnostics, logs, stderr,
    next: (uri, pred = () => true) => new Promise((resolve) => waiters.push({ uri, pred, resolve })),
  };
}

async function initialize(s: Server, root: string): Promise<Record<string, unknown>> {
  const r = await s.conn.sendRequest('initialize', { processId: null, rootUri: pathToFileURL(root).href, capabilities: {} });
  await s.conn.sendNotification('initialized', {});
  return r as Record<string, unknown>;
}

async function stop(s: Server): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => s.child.on('exit', (code) => resolve(code)));
  await s.conn.sendRequest('shutdown');
  await s.conn.sendNotification('exit');
  const code = await exited;
  s.conn.dispose();
  return code;
}

function applyEdits(text: string, edits: TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('x', 'python', 0, text), edits);
}

async function cli(args: string[]): Promise<string> {
  let out = '';
  await main(args, { stdout: (t) => (out += t), stderr: () => undefined });
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'ptolog-lsp-'));
const ringPath = join(dir, 'ring_allreduce.py');
const ringText = readFileSync('examples/ring_allreduce.py', 'utf8');
writeFileSync(ringPath, ringText);
const ringUri = pathToFileURL(ringPath).href;
/** A diagnostic's message as text (LSP 3.18 allows markup). */
const text = (d: Diagnostic): string => (typeof d.message === 'string' ? d.message : d.message.value);
const lineOf = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle));

describe('ptolog lsp over stdio', () => {
  let s: Server;
  let first: PublishDiagnosticsParams;
  beforeAll(async () => {
    // As written: the contract's errors and their related locations (the default stage reports notes).
    s = startServer(['--as-written']);
    const caps = await initialize(s, dir);
    expect(caps).toHaveProperty('capabilities.hoverProvider', true);
    const published = s.next(ringUri);
    await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: ringUri, languageId: 'python', version: 1, text: ringText } });
    first = await published;
  });
  afterAll(async () => {
    if (s.child.exitCode === null) s.child.kill();
  });

  it('publishes missing-marker at the remote write and the wait, with severities and a help link', () => {
    const mm = first.diagnostics.filter((d) => d.code === 'missing-marker');
    const write = lineOf(ringText, 'pld.tile.remote_store(');
    const wait = lineOf(ringText, 'pld.system.wait(');
    expect(mm.map((d) => d.range.start.line)).toEqual([write, wait]);
    const w = mm[0]!;
    const col = ringText.split('\n')[write]!.indexOf('pld.tile.remote_store(');
    expect(w.range).toEqual({ start: { line: write, character: col }, end: { line: write, character: ringText.split('\n')[write]!.length } });
    expect(w.severity).toBe(2);
    expect(w.source).toBe('ptolog');
    expect(w.codeDescription?.href).toMatch(/^file:\/\/.*rules\/insert_comm_fence\/comm_contract\.dl#L\d+$/);
    expect(first.diagnostics.filter((d) => d.code === 'contract-violation').every((d) => d.severity === 1)).toBe(true);
    expect(first.version).toBe(1);
  });

  it('relates a write to the notify it reaches and a stale read to the wait it follows', () => {
    const notify = lineOf(ringText, 'pld.system.notify(');
    const wait = lineOf(ringText, 'pld.system.wait(');
    const cv = first.diagnostics.filter((d) => d.code === 'contract-violation');
    const atWrite = cv.find((d) => d.range.start.line === lineOf(ringText, 'pld.tile.remote_store('))!;
    expect(atWrite.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line])).toEqual([[ringUri, notify]]);
    const atRead = cv.find((d) => d.range.start.line === lineOf(ringText, 'incoming = pl.load('))!;
    expect(atRead.relatedInformation?.map((r) => r.location.range.start.line)).toEqual([wait]);
    expect(atRead.relatedInformation?.[0]?.message).toMatch(/wait/);
  });

  it('"Fix all ptolog findings" gives exactly the text of apply', async () => {
    const actions = (await s.conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri: ringUri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll'] },
    })) as CodeAction[];
    const all = actions.find((a) => a.title === 'Fix all ptolog findings')!;
    expect(all.kind).toBe('source.fixAll');
    const fixed = applyEdits(ringText, all.edit!.changes![ringUri]!);
    expect(fixed).toBe(await cli(['apply', ringPath]));
    expect(all.edit!.changes![ringUri]!.every((e) => e.range.start.line === e.range.end.line)).toBe(true);
  });

  it('a quick fix inserts the markers for one finding only, and a suppression comment above it', async () => {
    const wait = first.diagnostics.find((d) => d.code === 'missing-marker' && text(d).includes('wait'))!;
    const actions = (await s.conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri: ringUri }, range: wait.range, context: { diagnostics: [wait] },
    })) as CodeAction[];
    const titles = actions.map((a) => a.title);
    expect(titles).toEqual(['ptolog: insert the markers for this missing-marker', 'ptolog: ignore missing-marker on this line', 'Fix all ptolog findings']);
    const one = applyEdits(ringText, actions[0]!.edit!.changes![ringUri]!);
    const inserted = one.split('\n').filter((l) => !ringText.split('\n').includes(l));
    expect(inserted).toEqual(['            pl.system.cacheinvalid()']);
    expect(one.split('\n')[wait.range.start.line + 1]).toBe('            pl.system.cacheinvalid()');
    const ignored = applyEdits(ringText, actions[1]!.edit!.changes![ringUri]!);
    expect(ignored.split('\n')[wait.range.start.line]).toBe('            # ptolog: ignore[missing-marker]');
  });

  it('hover shows the explain summary of the line', async () => {
    const write = lineOf(ringText, 'pld.tile.remote_store(');
    const h = (await s.conn.sendRequest('textDocument/hover', { textDocument: { uri: ringUri }, position: { line: write, character: 14 } })) as Hover;
    const value = (h.contents as { value: string }).value;
    expect(value).toContain('**insert-comm-fence**');
    expect(value).toContain('missing-marker: remote publishing write without its pl.system.fence()');
    expect(value).toContain('derives insert\\_after');
    const none = await s.conn.sendRequest('textDocument/hover', { textDocument: { uri: ringUri }, position: { line: 0, character: 0 } });
    expect(none).toBeNull();
    const proof = (await s.conn.sendRequest('workspace/executeCommand', { command: 'ptolog.explain', arguments: [ringUri, write + 1] })) as string;
    expect(proof).toContain('proof of insert_after(');
  });

  it('diagnostics follow a change (debounced: the last of quick edits wins)', async () => {
    const fixed = await cli(['apply', ringPath]);
    const published = s.next(ringUri, (p) => p.version === 3);
    await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: ringUri, version: 2 }, contentChanges: [{ text: `${ringText}\n# typing\n` }] });
    await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: ringUri, version: 3 }, contentChanges: [{ text: fixed }] });
    const p = await published;
    expect(p.diagnostics).toEqual([]);
    expect(s.diagnostics.some((d) => d.version === 2)).toBe(false);
  });

  it('a syntax error is one located diagnostic and the server keeps serving', async () => {
    const broken = ringText.replace('total = pl.add(acc, incoming)', 'total = pl.add(acc, incoming');
    const published = s.next(ringUri, (p) => p.version === 4);
    await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: ringUri, version: 4 }, contentChanges: [{ text: broken }] });
    const p = await published;
    expect(p.diagnostics).toHaveLength(1);
    const d: Diagnostic = p.diagnostics[0]!;
    expect(d.severity).toBe(1);
    expect(typeof d.code).toBe('string');
    expect(d.range.start.line).toBeGreaterThanOrEqual(lineOf(broken, 'total = pl.add('));
    const again = s.next(ringUri, (q) => q.version === 5);
    await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: ringUri, version: 5 }, contentChanges: [{ text: ringText }] });
    expect((await again).diagnostics.filter((x) => x.code === 'missing-marker')).toHaveLength(2);
  });

  it('applies suppression comments and the pyproject.toml configuration as the CLI does', async () => {
    writeFileSync(join(dir, 'pyproject.toml'), '[tool.ptolog.severity]\ncontract-violation = "off"\n');
    const lines = ringText.split('\n');
    const wait = lineOf(ringText, 'pld.system.wait(');
    const indent = /^\s*/.exec(lines[wait]!)![0];
    lines.splice(wait, 0, `${indent}# ptolog: ignore[missing-marker]`);
    const published = s.next(ringUri, (p) => p.version === 6);
    await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: ringUri, version: 6 }, contentChanges: [{ text: lines.join('\n') }] });
    const p = await published;
    expect(p.diagnostics.map((d) => d.code)).toEqual(['missing-marker']);
    expect(p.diagnostics[0]!.range.start.line).toBeLessThan(wait);
    const broken = s.next(ringUri, (q) => q.version === 8);
    writeFileSync(join(dir, 'pyproject.toml'), '[tool.ptolog]\npasss = ["insert-comm-fence"]\n');
    await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: ringUri, version: 8 }, contentChanges: [{ text: `${ringText}\n` }] });
    const bad = (await broken).diagnostics.find((d) => d.code === 'config');
    expect(bad?.message).toMatch(/pyproject\.toml:2:1: .*passs.*passes/);
    const back = s.next(ringUri, (q) => q.version === 9);
    writeFileSync(join(dir, 'pyproject.toml'), '# no [tool.ptolog] table: ignored\n');
    await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: ringUri, version: 9 }, contentChanges: [{ text: ringText }] });
    expect((await back).diagnostics.some((d) => d.code === 'contract-violation')).toBe(true);
  });

  it('shutdown and exit end the process with code 0', async () => {
    expect(await stop(s)).toBe(0);
    expect(s.logs.filter((l) => l.includes('internal error'))).toEqual([]);
  });
});

describe('ptolog lsp (default stage)', () => {
  it('judges a document as PyPTO compiles it: the markers the pass inserts are notes, no contract error', async () => {
    const s = startServer();
    await initialize(s, dir);
    const kPath = join(dir, 'pipeline_stage.py');
    writeFileSync(kPath, ringText);
    const uri = pathToFileURL(kPath).href;
    const published = s.next(uri);
    await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text: ringText } });
    const p = await published;
    expect(p.diagnostics.map((d) => [d.code, d.severity])).toEqual([['missing-marker', 3], ['missing-marker', 3]]);
    expect(text(p.diagnostics[0]!)).toMatch(/^InsertCommFence inserts pl\.system\.fence\(\)/);
    expect(await stop(s)).toBe(0);
  });
});

describe('ptolog lsp --rules', () => {
  it('re-reads a rule file when it changes and re-publishes', async () => {
    const rulesDir = mkdtempSync(join(tmpdir(), 'ptolog-lsp-rules-'));
    const ruleFile = join(rulesDir, 'extra.dl');
    writeFileSync(ruleFile, '// nothing yet\n');
    const kernel = ringText.replace('pld.system.wait(', 'pld.system.ttest(');
    const kPath = join(dir, 'ttest.py');
    writeFileSync(kPath, kernel);
    const uri = pathToFileURL(kPath).href;
    const s = startServer(['--rules', rulesDir]);
    await initialize(s, dir);
    const before = s.next(uri);
    await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text: kernel } });
    expect((await before).diagnostics.filter((d) => d.code === 'missing-marker')).toHaveLength(1);
    const after = s.next(uri, (p) => p.diagnostics.filter((d) => d.code === 'missing-marker').length === 2);
    writeFileSync(ruleFile, 'wait_op("pld.system.ttest").\n');
    const p = await after;
    expect(p.diagnostics.some((d) => d.code === 'missing-marker' && text(d).includes('wait'))).toBe(true);
    const broken = s.next(uri, (q) => q.diagnostics.some((d) => text(d).includes('extra.dl')));
    writeFileSync(ruleFile, 'wait_op("pld.system.ttest"\n');
    const b = await broken;
    expect(b.diagnostics[0]!.relatedInformation?.[0]?.location.uri).toBe(pathToFileURL(ruleFile).href);
    expect(await stop(s)).toBe(0);
  });
});

describe('ptolog lsp: per-program re-analysis and formatting', () => {
  // Two programs: the ring kernel and a renamed copy of it.
  const classText = ringText.slice(ringText.indexOf('@pl.program'));
  const twoText = `${ringText}\n\n${classText.replace('class RingAllReduce:', 'class Second:')}`;
  const twoPath = join(dir, 'two.py');
  writeFileSync(twoPath, twoText);
  const twoUri = pathToFileURL(twoPath).href;
  const freshUri = pathToFileURL(join(dir, 'fresh.py')).href;
  const key = (d: Diagnostic): string => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${String(d.code)} ${text(d)} ${JSON.stringify(d.relatedInformation?.map((r) => r.location.range) ?? [])}`;
  /** The diagnostics a fresh document with `t` gets (no cache), as keys. */
  const fresh = async (s: Server, t: string, version: number): Promise<string[]> => {
    const p = s.next(freshUri, (q) => q.version === version);
    if (version === 1) await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: freshUri, languageId: 'python', version, text: t } });
    else await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: freshUri, version }, contentChanges: [{ text: t }] });
    return (await p).diagnostics.map(key).sort();
  };
  const analysed = (s: Server): string[] => s.logs.filter((l) => l.startsWith('ptolog: analysed') && l.endsWith(twoPath));

  it('re-analyses only the program whose text changed; the others keep their findings, moved to their new place', async () => {
    const s = startServer();
    await initialize(s, dir);
    const opened = s.next(twoUri);
    await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: twoUri, languageId: 'python', version: 1, text: twoText } });
    const p1 = await opened;
    expect(analysed(s)).toEqual([`ptolog: analysed 2 of 2 programs of ${twoPath}`]);
    expect(p1.diagnostics.filter((d) => d.code === 'missing-marker')).toHaveLength(4);

    // An edit inside the second program: only it is analysed again.
    const second = twoText.lastIndexOf('incoming = pl.load(win');
    const edited2 = twoText.slice(0, second) + twoText.slice(second).replace('acc = pl.load(data', 'acc = pl.load(data ');
    const p2wait = s.next(twoUri, (q) => q.version === 2);
    await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: twoUri, version: 2 }, contentChanges: [{ text: edited2 }] });
    const p2 = await p2wait;
    expect(analysed(s).slice(1)).toEqual([`ptolog: analysed 1 of 2 programs of ${twoPath}`]);
    expect(p2.diagnostics.map(key).sort()).toEqual(await fresh(s, edited2, 1));

    // An edit inside the first program on one line: the second moves (offsets), it is not analysed
    // again, and its findings are where a fresh analysis puts them.
    const edited3 = edited2.replace('chunk = pl.load(data', 'chunk = pl.load( data');
    const p3wait = s.next(twoUri, (q) => q.version === 3);
    await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: twoUri, version: 3 }, contentChanges: [{ text: edited3 }] });
    const p3 = await p3wait;
    expect(analysed(s).slice(2)).toEqual([`ptolog: analysed 1 of 2 programs of ${twoPath}`]);
    expect(p3.diagnostics.map(key).sort()).toEqual(await fresh(s, edited3, 2));

    // Hover in the second program explains from its (reused) analysis.
    const lines3 = edited3.split('\n');
    const write2 = lines3.findIndex((l, i) => i > lineOf(edited3, 'class Second') && l.includes('pld.tile.remote_store('));
    const hover = (await s.conn.sendRequest('textDocument/hover', { textDocument: { uri: twoUri }, position: { line: write2, character: 14 } })) as Hover;
    expect((hover.contents as { value: string }).value).toContain('missing-marker: InsertCommFence inserts pl.system.fence() after this remote publishing write');
    expect(await stop(s)).toBe(0);
    expect(s.logs.filter((l) => l.includes('internal error'))).toEqual([]);
  });

  it('formats each program in place as fmt prints it (comments kept), the rest of the file as written', async () => {
    const s = startServer();
    await initialize(s, dir);
    const messy = ringText.replace('chunk = pl.load(data, [step, 0], [1, CHUNK])', 'chunk = pl.load(data,[step,0],[1,CHUNK])  # my chunk');
    const published = s.next(ringUri);
    await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: ringUri, languageId: 'python', version: 1, text: messy } });
    await published;
    const edits = (await s.conn.sendRequest('textDocument/formatting', { textDocument: { uri: ringUri }, options: { tabSize: 4, insertSpaces: true } })) as TextEdit[];
    const formatted = applyEdits(messy, edits);
    // The module docstring, imports and constants stay; the program is fmt's.
    expect(formatted.slice(0, formatted.indexOf('@pl.program'))).toBe(messy.slice(0, messy.indexOf('@pl.program')));
    const fmtOut = await cli(['fmt', ringPath]);
    expect(formatted.slice(formatted.indexOf('@pl.program'))).toBe(fmtOut.slice(fmtOut.indexOf('@pl.program')).replace('            chunk =', '            # my chunk\n            chunk ='));
    expect(formatted).toContain("# send my chunk into the next rank's window");
    // Formatting the formatted text changes nothing.
    const again = s.next(ringUri, (q) => q.version === 2);
    await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: ringUri, version: 2 }, contentChanges: [{ text: formatted }] });
    await again;
    expect(await s.conn.sendRequest('textDocument/formatting', { textDocument: { uri: ringUri }, options: { tabSize: 4, insertSpaces: true } })).toEqual([]);
    // A document with a syntax error is left as it is.
    const broken = s.next(ringUri, (q) => q.version === 3);
    await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: ringUri, version: 3 }, contentChanges: [{ text: `${formatted}\n@pl.program\nclass Bad:\n    x = (\n` }] });
    await broken;
    expect(await s.conn.sendRequest('textDocument/formatting', { textDocument: { uri: ringUri }, options: { tabSize: 4, insertSpaces: true } })).toEqual([]);
    expect(await stop(s)).toBe(0);
  });
});
