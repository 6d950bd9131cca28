// Drives the real `ptolog lsp` (bin/ptolog.js over dist/, built by `npm test`) over stdio with
// vscode-jsonrpc's node connection, as an editor does.

import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeAction, Diagnostic, Hover, PublishDiagnosticsParams, TextEdit } from 'vscode-languageserver';
import { main } from '../../src/cli/main.js';
import { applyEdits, change, initialize, open, type Server, startServer, stop } from './client.js';

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
    first = await open(s, ringUri, ringText);
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
    expect(w.range).toEqual({
      start: { line: write, character: col },
      end: { line: write, character: ringText.split('\n')[write]!.length },
    });
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
      textDocument: { uri: ringUri },
      range: wait.range,
      context: { diagnostics: [wait] },
    })) as CodeAction[];
    const titles = actions.map((a) => a.title);
    expect(titles).toEqual([
      'ptolog: insert pl.system.cacheinvalid()',
      'ptolog: ignore missing-marker on this line',
      'Fix all ptolog findings',
    ]);
    const one = applyEdits(ringText, actions[0]!.edit!.changes![ringUri]!);
    const inserted = one.split('\n').filter((l) => !ringText.split('\n').includes(l));
    expect(inserted).toEqual(['            pl.system.cacheinvalid()']);
    expect(one.split('\n')[wait.range.start.line + 1]).toBe('            pl.system.cacheinvalid()');
    const ignored = applyEdits(ringText, actions[1]!.edit!.changes![ringUri]!);
    expect(ignored.split('\n')[wait.range.start.line]).toBe('            # ptolog: ignore[missing-marker]');
  });

  it("diagnostics carry the CLI's fix line", () => {
    const write = first.diagnostics.find(
      (d) => d.code === 'missing-marker' && d.range.start.line === lineOf(ringText, 'pld.tile.remote_store('),
    )!;
    expect(text(write)).toBe('remote publishing write without its pl.system.fence()\nfix: insert after it: pl.system.fence()');
  });

  it('a cursor move where there is no finding gets no action', async () => {
    const actions = await s.conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri: ringUri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [] },
    });
    expect(actions).toEqual([]);
  });

  it('hover shows the catalog summary, the marker as inserted, the rule and how to see the proof', async () => {
    const write = lineOf(ringText, 'pld.tile.remote_store(');
    const h = (await s.conn.sendRequest('textDocument/hover', {
      textDocument: { uri: ringUri },
      position: { line: write, character: 14 },
    })) as Hover;
    const value = (h.contents as { value: string }).value;
    expect(value).toContain('**missing-marker** (warning, insert-comm-fence): ');
    expect(value).toContain('remote publishing write without its pl.system.fence()');
    expect(value).toContain('```python\n            pl.system.fence()\n```');
    // The rule that wrote this message, as a link to its line.
    const part = value.slice(value.indexOf('**missing-marker**'));
    const rule = /Rule: \[insert\\_comm\\_fence\/comm\\_contract\.dl:(\d+)\]\((file:\/\/\S+)#L(\d+)\)/.exec(part)!;
    expect(rule).not.toBeNull();
    const ruleLines = readFileSync('rules/insert_comm_fence/comm_contract.dl', 'utf8').split('\n');
    expect(ruleLines[Number(rule[1]) - 1]).toMatch(/^missing_message\(S, "remote publishing write without its pl\.system\.fence\(\)"\)/);
    expect(rule[3]).toBe(rule[1]);
    expect(value).toContain(`command:ptolog.explain?${encodeURIComponent(JSON.stringify([ringUri, write + 1]))}`);
    expect(value).not.toMatch(/insert_after\(\d/);
    const none = await s.conn.sendRequest('textDocument/hover', { textDocument: { uri: ringUri }, position: { line: 0, character: 0 } });
    expect(none).toBeNull();
    const proof = (await s.conn.sendRequest('workspace/executeCommand', {
      command: 'ptolog.explain',
      arguments: [ringUri, write + 1],
    })) as string;
    expect(proof).toContain('proof of insert_after(');
  });

  it('diagnostics follow a change (debounced: the last of quick edits wins)', async () => {
    const fixed = await cli(['apply', ringPath]);
    const published = s.next(ringUri, (p) => p.version === 3);
    await s.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: ringUri, version: 2 },
      contentChanges: [{ text: `${ringText}\n# typing\n` }],
    });
    await s.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: ringUri, version: 3 },
      contentChanges: [{ text: fixed }],
    });
    const p = await published;
    expect(p.diagnostics).toEqual([]);
    expect(s.diagnostics.some((d) => d.version === 2)).toBe(false);
  });

  it('a syntax error is one located diagnostic and the server keeps serving', async () => {
    const broken = ringText.replace('total = pl.add(acc, incoming)', 'total = pl.add(acc, incoming');
    const published = s.next(ringUri, (p) => p.version === 4);
    await s.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: ringUri, version: 4 },
      contentChanges: [{ text: broken }],
    });
    const p = await published;
    expect(p.diagnostics).toHaveLength(1);
    const d: Diagnostic = p.diagnostics[0]!;
    expect(d.severity).toBe(1);
    expect(typeof d.code).toBe('string');
    expect(d.range.start.line).toBeGreaterThanOrEqual(lineOf(broken, 'total = pl.add('));
    const again = s.next(ringUri, (q) => q.version === 5);
    await s.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: ringUri, version: 5 },
      contentChanges: [{ text: ringText }],
    });
    expect((await again).diagnostics.filter((x) => x.code === 'missing-marker')).toHaveLength(2);
  });

  it('applies suppression comments and the pyproject.toml configuration as the CLI does', async () => {
    writeFileSync(join(dir, 'pyproject.toml'), '[tool.ptolog.severity]\ncontract-violation = "off"\n');
    const lines = ringText.split('\n');
    const wait = lineOf(ringText, 'pld.system.wait(');
    const indent = /^\s*/.exec(lines[wait]!)![0];
    lines.splice(wait, 0, `${indent}# ptolog: ignore[missing-marker]`);
    const published = s.next(ringUri, (p) => p.version === 6);
    await s.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: ringUri, version: 6 },
      contentChanges: [{ text: lines.join('\n') }],
    });
    const p = await published;
    expect(p.diagnostics.map((d) => d.code)).toEqual(['missing-marker']);
    expect(p.diagnostics[0]!.range.start.line).toBeLessThan(wait);
    const broken = s.next(ringUri, (q) => q.version === 8);
    writeFileSync(join(dir, 'pyproject.toml'), '[tool.ptolog]\npasss = ["insert-comm-fence"]\n');
    await s.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: ringUri, version: 8 },
      contentChanges: [{ text: `${ringText}\n` }],
    });
    const bad = (await broken).diagnostics.find((d) => d.code === 'config');
    expect(bad?.message).toMatch(/pyproject\.toml:2:1: .*passs.*passes/);
    const back = s.next(ringUri, (q) => q.version === 9);
    writeFileSync(join(dir, 'pyproject.toml'), '# no [tool.ptolog] table: ignored\n');
    await s.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: ringUri, version: 9 },
      contentChanges: [{ text: ringText }],
    });
    expect((await back).diagnostics.some((d) => d.code === 'contract-violation')).toBe(true);
  });

  it('shutdown and exit end the process with code 0', async () => {
    // (Analyses ran on their own thread: hover and code actions never waited behind one.)
    expect(s.logs).toContain('ptolog: documents are analysed on their own thread');
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
    expect(p.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['missing-marker', 3],
      ['missing-marker', 3],
    ]);
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
  const key = (d: Diagnostic): string =>
    `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${String(d.code)} ${text(d)} ${JSON.stringify(d.relatedInformation?.map((r) => r.location.range) ?? [])}`;
  /** The diagnostics a fresh document with `t` gets (no cache), as keys. */
  const fresh = async (s: Server, t: string, version: number): Promise<string[]> => {
    const p = s.next(freshUri, (q) => q.version === version);
    if (version === 1)
      await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: freshUri, languageId: 'python', version, text: t } });
    else
      await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: freshUri, version }, contentChanges: [{ text: t }] });
    return (await p).diagnostics.map(key).sort();
  };
  const analysed = (s: Server): string[] => s.logs.filter((l) => l.startsWith('ptolog: analysed') && l.endsWith(twoPath));

  it('re-analyses only the program whose text changed; the others keep their findings, moved to their new place', async () => {
    const s = startServer();
    await initialize(s, dir);
    const opened = s.next(twoUri);
    await s.conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri: twoUri, languageId: 'python', version: 1, text: twoText },
    });
    const p1 = await opened;
    expect(analysed(s)).toEqual([`ptolog: analysed 2 of 2 units of ${twoPath}`]);
    expect(p1.diagnostics.filter((d) => d.code === 'missing-marker')).toHaveLength(4);

    // An edit inside the second program: only it is analysed again.
    const second = twoText.lastIndexOf('incoming = pl.load(win');
    const edited2 = twoText.slice(0, second) + twoText.slice(second).replace('acc = pl.load(data', 'acc = pl.load(data ');
    const p2wait = s.next(twoUri, (q) => q.version === 2);
    await s.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: twoUri, version: 2 },
      contentChanges: [{ text: edited2 }],
    });
    const p2 = await p2wait;
    expect(analysed(s).slice(1)).toEqual([`ptolog: analysed 1 of 2 units of ${twoPath}`]);
    expect(p2.diagnostics.map(key).sort()).toEqual(await fresh(s, edited2, 1));

    // An edit inside the first program on one line: the second moves (offsets), it is not analysed
    // again, and its findings are where a fresh analysis puts them.
    const edited3 = edited2.replace('chunk = pl.load(data', 'chunk = pl.load( data');
    const p3wait = s.next(twoUri, (q) => q.version === 3);
    await s.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: twoUri, version: 3 },
      contentChanges: [{ text: edited3 }],
    });
    const p3 = await p3wait;
    expect(analysed(s).slice(2)).toEqual([`ptolog: analysed 1 of 2 units of ${twoPath}`]);
    expect(p3.diagnostics.map(key).sort()).toEqual(await fresh(s, edited3, 2));

    // Hover in the second program explains from its (reused) analysis.
    const lines3 = edited3.split('\n');
    const write2 = lines3.findIndex((l, i) => i > lineOf(edited3, 'class Second') && l.includes('pld.tile.remote_store('));
    const hover = (await s.conn.sendRequest('textDocument/hover', {
      textDocument: { uri: twoUri },
      position: { line: write2, character: 14 },
    })) as Hover;
    expect((hover.contents as { value: string }).value).toContain(
      'InsertCommFence inserts pl.system.fence() after this remote publishing write',
    );
    expect(await stop(s)).toBe(0);
    expect(s.logs.filter((l) => l.includes('internal error'))).toEqual([]);
  });

  it('"Format Document" changes layout only, every token kept; "Canonicalize as PyPTO prints it" is a separate action', async () => {
    const s = startServer();
    await initialize(s, dir, { textDocument: { codeAction: { resolveSupport: { properties: ['edit'] } } } });
    const messy = ringText
      .replace('chunk = pl.load(data, [step, 0], [1, CHUNK])', 'chunk = pl.load(data,[step,0],[1,CHUNK])   # my chunk')
      .replace('total = pl.add(acc, incoming)', 'total=pl.add( acc,incoming )   ');
    await open(s, ringUri, messy);
    const edits = (await s.conn.sendRequest('textDocument/formatting', {
      textDocument: { uri: ringUri },
      options: { tabSize: 4, insertSpaces: true },
    })) as TextEdit[];
    const formatted = applyEdits(messy, edits);
    // Only the two messy lines change, to their regular layout; pl.load and the keyword names stay.
    expect(formatted).toBe(
      ringText.replace('chunk = pl.load(data, [step, 0], [1, CHUNK])', 'chunk = pl.load(data, [step, 0], [1, CHUNK])  # my chunk'),
    );
    expect(formatted).toContain('pld.tile.remote_store(chunk, target=win, peer=next_rank, offsets=[step, 0])');
    // Formatting the formatted text changes nothing.
    await change(s, ringUri, formatted, 2);
    expect(
      await s.conn.sendRequest('textDocument/formatting', { textDocument: { uri: ringUri }, options: { tabSize: 4, insertSpaces: true } }),
    ).toEqual([]);
    // The printer's form: a source action, resolved when chosen.
    const [canon] = (await s.conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri: ringUri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.canonicalize'] },
    })) as CodeAction[];
    expect(canon!.title).toBe('Canonicalize as PyPTO prints it');
    expect(canon!.edit).toBeUndefined();
    const resolved = (await s.conn.sendRequest('codeAction/resolve', canon)) as CodeAction;
    const printed = applyEdits(formatted, resolved.edit!.changes![ringUri]!);
    const fmtOut = await cli(['fmt', ringPath]);
    expect(printed.slice(printed.indexOf('@pl.program'))).toBe(
      fmtOut.slice(fmtOut.indexOf('@pl.program')).replace('            chunk =', '            # my chunk\n            chunk ='),
    );
    // A document that does not tokenize as Python is left as it is.
    await change(s, ringUri, `${formatted}\nx = "open\n`, 3);
    expect(
      await s.conn.sendRequest('textDocument/formatting', { textDocument: { uri: ringUri }, options: { tabSize: 4, insertSpaces: true } }),
    ).toEqual([]);
    expect(await stop(s)).toBe(0);
  });
});

describe('ptolog lsp: lazy code actions, settings, helpers', () => {
  it('quick fixes and "Fix all" are resolved only when chosen; "Fix all" is offered only where there are findings', async () => {
    const s = startServer(['--as-written']);
    await initialize(s, dir, { textDocument: { codeAction: { resolveSupport: { properties: ['edit'] } } } });
    const p = await open(s, ringUri, ringText);
    const wait = p.diagnostics.find((d) => d.code === 'missing-marker' && text(d).includes('wait'))!;
    const actions = (await s.conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri: ringUri },
      range: wait.range,
      context: { diagnostics: [wait] },
    })) as CodeAction[];
    expect(actions.map((a) => [a.title, a.edit === undefined])).toEqual([
      ['ptolog: insert pl.system.cacheinvalid()', true],
      ['ptolog: ignore missing-marker on this line', false],
      ['Fix all ptolog findings', true],
    ]);
    const one = (await s.conn.sendRequest('codeAction/resolve', actions[0])) as CodeAction;
    expect(applyEdits(ringText, one.edit!.changes![ringUri]!).split('\n')[wait.range.start.line + 1]).toBe(
      '            pl.system.cacheinvalid()',
    );
    const all = (await s.conn.sendRequest('codeAction/resolve', actions[2])) as CodeAction;
    const fixed = applyEdits(ringText, all.edit!.changes![ringUri]!);
    expect(fixed).toBe(await cli(['apply', ringPath]));
    const fixAll = {
      textDocument: { uri: ringUri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll'] },
    };
    expect(((await s.conn.sendRequest('textDocument/codeAction', fixAll)) as CodeAction[]).map((a) => a.kind)).toEqual(['source.fixAll']);
    // Fixed: no finding, no "Fix all".
    expect((await change(s, ringUri, fixed, 2)).diagnostics).toEqual([]);
    expect(await s.conn.sendRequest('textDocument/codeAction', fixAll)).toEqual([]);
    expect(await stop(s)).toBe(0);
  });

  it('reads the editor settings (workspace/configuration) and honours a change without a restart', async () => {
    const s = startServer();
    let settings: Record<string, unknown> = {};
    s.conn.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) =>
      params.items.map((i) => (i.section === 'ptolog' ? settings : null)),
    );
    await initialize(s, dir, { workspace: { configuration: true } });
    const kPath = join(dir, 'settings.py');
    writeFileSync(kPath, ringText);
    const uri = pathToFileURL(kPath).href;
    const p = await open(s, uri, ringText);
    expect(p.diagnostics.map((d) => d.severity)).toEqual([3, 3]);
    settings = { stage: 'as-written', passes: ['insert-comm-fence'] };
    const next = s.next(uri, (q) => q.diagnostics.some((d) => d.code === 'contract-violation'));
    await s.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
    const q = await next;
    expect(q.diagnostics.filter((d) => d.code === 'missing-marker').map((d) => d.severity)).toEqual([2, 2]);
    // A define from the settings: an unknown name is reported as the CLI reports it.
    settings = { stage: 'as-written', defines: ['NOPE=3'] };
    const third = s.next(uri, (r) => r.diagnostics.some((d) => d.code === 'unknown-define'));
    await s.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
    expect((await third).diagnostics.some((d) => d.code === 'unknown-define')).toBe(true);
    expect(await stop(s)).toBe(0);
    expect(s.logs.filter((l) => l.includes('internal error'))).toEqual([]);
  });

  it('analyses a program with the inline helpers it calls; editing the helper re-analyses its callers', async () => {
    const s = startServer(['--as-written', '--pass', 'insert-comm-fence']);
    await initialize(s, dir);
    const helperText = readFileSync('specs/insert_comm_fence/inline_helper.py', 'utf8');
    // A second, independent program after it.
    const other = ringText.slice(ringText.indexOf('@pl.program'));
    const t1 = `${helperText}\n\nNRANKS = 4\nCHUNK = 64\n\n\n${other}`;
    const hPath = join(dir, 'helper.py');
    writeFileSync(hPath, t1);
    const uri = pathToFileURL(hPath).href;
    const analysedLogs = (): string[] => s.logs.filter((l) => l.startsWith('ptolog: analysed') && l.endsWith(hPath));
    const p1 = await open(s, uri, t1);
    expect(analysedLogs()).toEqual([`ptolog: analysed 2 of 2 units of ${hPath}`]);
    expect(
      p1.diagnostics
        .filter((d) => d.range.start.line === 11)
        .map((d) => d.code)
        .sort(),
    ).toEqual(['contract-violation', 'missing-marker']);
    // The helper no longer writes (same line count): its unit (the helper and its caller) is analysed again, the other program is not.
    const t2 = t1.replace('    pl.store(t, [0, 0], dst)\n', '    u = pl.add(t, t)\n');
    const p2 = await change(s, uri, t2, 2);
    expect(analysedLogs().slice(1)).toEqual([`ptolog: analysed 1 of 2 units of ${hPath}`]);
    expect(p2.diagnostics.filter((d) => d.range.start.line < 25)).toEqual([]);
    expect(p2.diagnostics.length).toBeGreaterThan(0);
    expect(await stop(s)).toBe(0);
  });

  it('follows imported helpers as the CLI does; saving an edited helper module re-analyses its importer', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ptolog-lsp-imports-'));
    mkdirSync(join(root, 'comm'));
    writeFileSync(join(root, 'comm', '__init__.py'), '');
    const ops = readFileSync('specs/modules/comm/ops.py', 'utf8');
    const opsPath = join(root, 'comm', 'ops.py');
    writeFileSync(opsPath, ops);
    const kPath = join(root, 'kernel.py');
    const kText = readFileSync('specs/modules/relative_import.py', 'utf8');
    writeFileSync(kPath, kText);
    const s = startServer([]);
    await initialize(s, root);
    const kUri = pathToFileURL(kPath).href;
    const summary = (ds: Diagnostic[]): string[] => ds.map((d) => `${d.range.start.line + 1} ${String(d.code)}`).sort();
    const p1 = await open(s, kUri, kText);
    expect(summary(p1.diagnostics)).toEqual(['15 missing-marker']);
    // The helper is no inline helper any more: the call to it is an opaque publishing write.
    const opsUri = pathToFileURL(opsPath).href;
    await open(s, opsUri, ops);
    const edited = ops.replace('@pl.jit.inline\ndef ping', 'def ping');
    writeFileSync(opsPath, edited);
    const again = s.next(kUri, (p) => summary(p.diagnostics).join() !== summary(p1.diagnostics).join());
    await s.conn.sendNotification('textDocument/didSave', { textDocument: { uri: opsUri } });
    const p2 = await again;
    expect(summary(p2.diagnostics).some((x) => x.startsWith('16 '))).toBe(true);
    expect(await stop(s)).toBe(0);
    expect(s.logs.filter((l) => l.includes('internal error'))).toEqual([]);
  }, 120_000);
});
