// Compiled rule programs kept between runs: a program loaded from rule files is parsed and checked
// once, stored as plain data (compiled.ts) with the content of every file that went in, and
// reused while every one of those files reads the same. Ohm stays the parser of record: an entry
// is only ever the checked result of a parse. Storage is the caller's (CompiledStore): the CLI
// gives directories (disk-store.ts), `--jobs` workers a memory of what the main thread loaded.
import { createHash } from 'node:crypto';
import { relative, sep } from 'node:path';
import type { Diagnostic } from '../../report/diagnostic.js';
import { SourceText } from '../../report/source.js';
import { checkProgram, sortDiagnostics } from '../check/check.js';
import type { SharedMemos } from '../check/program.js';
import type { Clause } from '../syntax/ast.js';
import { type FileParser, type FileReader, type Libraries, loadFiles, readRuleFile } from '../syntax/load.js';
import { asciiJson, type CheckedRules, COMPILED_FORMAT, fromPlain, type PartMemo, type PlainRules, toPlain } from './compiled.js';

/** Where compiled entries are kept: read an entry's text by name (undefined when absent or unreadable), write one whole. */
export interface CompiledStore {
  read(name: string): string | undefined;
  /** Writes the entry so that no reader ever sees part of it (a temporary file renamed over it); never throws. */
  write(name: string, text: string): void;
}

/** The compiled-rules cache of one caller. */
export interface RuleCache {
  /** ptolog's version and build: an entry written by any other is ignored. */
  version: string;
  /** Stores looked up in order (the package's prebuilt rules, the user's cache directory). */
  stores: readonly CompiledStore[];
  /** Where a newly compiled entry is written (none: nothing is written). */
  write?: CompiledStore;
  /** Every entry this process loaded or compiled, by name; looked up first (given to `--jobs` workers). */
  memory?: Map<string, string>;
}

/**
 * What the entries one caller reads share (the shipped contracts all include the same library and
 * op catalog): each input file read and hashed once, one SourceText per shown path and text, and
 * each fact of a source decoded once. Owned by the caller (a RuleSession) and dropped with its
 * programs when rule files may have changed on disk.
 */
export interface LoadMemo {
  /** What the reader gave for each absolute path, with its state as an entry records it. */
  reads: Map<string, { got: ReturnType<FileReader>; state: string }>;
  /**
   * The SourceText of each shown path, then text (keyed by the text itself, not a path and text
   * joined: the texts are the same strings every time, hashed once, never copied into a key).
   */
  sources: Map<string, Map<string, SourceText>>;
  /** The decoded fact clauses of each source, by their start offset (see fromPlain). */
  facts: WeakMap<SourceText, Map<number, Clause>>;
  /** The parts of entries decoded (by their text, each verified): the programs that include one library share its rules. */
  parts: PartMemo;
  /** The texts of the part files read (by their contentHash, each verified): each read once however many entries name it. */
  partTexts: Map<string, string>;
  /** What the programs read share (compiled join plans by their code: RuleProgram's `shared`). */
  programs: SharedMemos;
  /** How many programs were read from an entry, and how many compiled from their rule files (no current entry). */
  counts: { read: number; compiled: number };
}

/** An empty LoadMemo. */
export function newLoadMemo(): LoadMemo {
  return {
    reads: new Map(),
    sources: new Map(),
    facts: new WeakMap(),
    parts: new Map(),
    partTexts: new Map(),
    programs: new Map(),
    counts: { read: 0, compiled: 0 },
  };
}

/** What a program is loaded from: absolute paths. */
export interface CompileRequest {
  files: readonly string[];
  includeDirs: readonly string[];
  libraries: Libraries;
  /** A directory whose files are stored relative to it (the rules root), so that an entry survives moving it. */
  root: string;
}

/** A 64-bit hash of a text (two 32-bit lanes), as 16 hex digits with the length. */
export function textHash(text: string): string {
  let a = 0x9747b28c ^ text.length;
  let b = 0x85ebca6b ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0xcc9e2d51);
    a = (a << 15) | (a >>> 17);
    b = Math.imul(b ^ c, 0x1b873593);
    b = (b << 13) | (b >>> 19);
    b = (b + Math.imul(a, 5)) | 0;
  }
  const fin = (h: number): number => {
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    return (h ^ (h >>> 16)) >>> 0;
  };
  return `${fin(a).toString(16).padStart(8, '0')}${fin(b ^ a)
    .toString(16)
    .padStart(8, '0')}:${text.length}`;
}

/** The SHA-1 of a text's UTF-8 bytes (node:crypto's native code: entries and their inputs are megabytes), as 40 hex digits with the length. */
export function contentHash(text: string): string {
  return `${createHash('sha1').update(text, 'utf8').digest('hex')}:${text.length}`;
}

/** What a reader gave for a path, as recorded in an entry: a text's hash, `none`, or what else it was. */
function stateOf(r: ReturnType<FileReader>): string {
  if (typeof r === 'string') return `text:${contentHash(r)}`;
  return r === undefined ? 'none' : `other:${JSON.stringify(r)}`;
}

/**
 * Parts of at least this many characters are kept in files of their own, named by their
 * contentHash (partName), and the entry's line names the part (`@` and its contentHash): the
 * programs that include one library and op catalog store and read those parts once.
 */
const PART_FILE_FROM = 4096;

/** The name of the file of a part whose contentHash is `sum`. */
function partName(sum: string): string {
  return `${sum.replace(':', '-')}.part`;
}

interface Header {
  format: string;
  version: string;
  key: string;
  /** Each path read while compiling (stored form) with what it read. */
  inputs: [string, string][];
  /** contentHash of each line after the header (of the part it names, for a line `@sum`): the program's plain form without its parts, then each part. */
  sums: string[];
}

/** Paths stored relative to the root (`$ROOT/x.dl`), others as they are. */
function relocation(root: string): { store: (p: string) => string; unstore: (p: string) => string } {
  const prefix = root.endsWith(sep) ? root : root + sep;
  return {
    store: (p) => (p === root ? '$ROOT' : p.startsWith(prefix) ? `$ROOT/${relative(root, p).split(sep).join('/')}` : p),
    unstore: (p) => (p === '$ROOT' ? root : p.startsWith('$ROOT/') ? prefix + p.slice(6).split('/').join(sep) : p),
  };
}

/**
 * Loads and checks the program of `req` (as loadProgram would, unfiltered warnings), from the
 * cache when an entry of this version and key is there and every file it read still reads the
 * same; else parses and checks it and stores the entry. A corrupt, truncated, foreign or stale
 * entry is ignored (and replaced). Source paths in the result are `display(absolutePath)`.
 * Throws DiagnosticError on rule errors (nothing is stored then).
 */
export function loadProgramCached(
  req: CompileRequest,
  cache: RuleCache,
  display: (absPath: string) => string,
  parse?: FileParser,
  memo: LoadMemo = newLoadMemo(),
): CheckedRules {
  const { store, unstore } = relocation(req.root);
  const key = JSON.stringify({
    files: req.files.map(store),
    includeDirs: req.includeDirs.map(store),
    libraries: Object.entries(req.libraries).map(([k, v]) => [k, store(v)]),
  });
  const name = `${textHash(`${COMPILED_FORMAT}\0${cache.version}\0${key}`).replace(':', '-')}.rules`;
  const sourceFrom =
    (texts: ReadonlyMap<string, string>) =>
    (stored: string): SourceText => {
      const text = texts.get(stored);
      if (text === undefined) throw new Error('a source the entry does not list');
      const shown = display(unstore(stored));
      let byText = memo.sources.get(shown);
      if (!byText) memo.sources.set(shown, (byText = new Map()));
      let source = byText.get(text);
      if (!source) byText.set(text, (source = new SourceText(shown, text)));
      return source;
    };

  // A part file's text, when one that reads as its name says is there (the memory's, else a store's).
  const partText = (sum: string): string | undefined => {
    const known = memo.partTexts.get(sum);
    if (known !== undefined) return known;
    const file = partName(sum);
    for (const read of [() => cache.memory?.get(file), ...cache.stores.map((s) => () => s.read(file))]) {
      const text = read();
      if (text === undefined || contentHash(text) !== sum) continue;
      memo.partTexts.set(sum, text);
      cache.memory?.set(file, text);
      return text;
    }
    return undefined;
  };
  const candidates = [cache.memory?.get(name), ...cache.stores.map((s) => s.read(name))];
  for (const text of candidates) {
    if (text === undefined) continue;
    const hit = readEntry(text, cache.version, key, unstore, sourceFrom, memo, partText);
    if (hit) {
      cache.memory?.set(name, text);
      memo.counts.read++;
      return hit;
    }
  }

  // Compile, recording every read (also of paths that were not there: an include found later
  // on the search path must invalidate the entry).
  const inputs = new Map<string, string>();
  const texts = new Map<string, string>();
  const recording: FileReader = (p) => {
    const r = readRuleFile(p);
    inputs.set(store(p), stateOf(r));
    if (typeof r === 'string') texts.set(store(p), r);
    return r;
  };
  memo.counts.compiled++;
  const checked = checkProgram(loadFiles(req.files, recording, req.includeDirs, req.libraries, parse));
  const plain = toPlain(checked, store);
  const lines = [asciiJson({ format: plain.format, paths: plain.paths, body: plain.body }), ...plain.parts];
  const sums = lines.map(contentHash);
  const header: Header = { format: COMPILED_FORMAT, version: cache.version, key, inputs: [...inputs], sums };
  // (Each part file written before the entry that names it: a reader never finds an entry without its parts.)
  const stored = lines.map((line, i) => {
    if (i === 0 || line.length < PART_FILE_FROM) return line;
    const file = partName(sums[i]!);
    cache.memory?.set(file, line);
    cache.write?.write(file, line);
    return `@${sums[i]}`;
  });
  const entry = `${asciiJson(header)}\n${stored.join('\n')}`;
  cache.memory?.set(name, entry);
  cache.write?.write(name, entry);
  // What is returned is what a later run reads back (the same paths, the same objects' shape).
  return decode(plain, sourceFrom(texts), memo);
}

/** The program of an entry's text, or undefined when it is not a valid, current entry for `key`. */
function readEntry(
  text: string,
  version: string,
  key: string,
  unstore: (p: string) => string,
  sourceFrom: (texts: ReadonlyMap<string, string>) => (stored: string) => SourceText,
  memo: LoadMemo,
  partText: (sum: string) => string | undefined,
): CheckedRules | undefined {
  try {
    const nl = text.indexOf('\n');
    if (nl < 0) return undefined;
    const header = JSON.parse(text.slice(0, nl)) as Header;
    if (
      header?.format !== COMPILED_FORMAT ||
      header.version !== version ||
      header.key !== key ||
      !Array.isArray(header.inputs) ||
      !Array.isArray(header.sums)
    )
      return undefined;
    const texts = new Map<string, string>();
    for (const [stored, state] of header.inputs) {
      const path = unstore(stored);
      let read = memo.reads.get(path);
      if (!read) {
        const got = readRuleFile(path);
        memo.reads.set(path, (read = { got, state: stateOf(got) }));
      }
      if (read.state !== state) return undefined;
      if (typeof read.got === 'string') texts.set(stored, read.got);
    }
    // The lines after the header, each as its checksum says (a part decoded before, from a
    // verified entry, is that text: not hashed again; a part file's text is verified when read).
    const lines: string[] = [];
    for (let at = nl + 1; ; ) {
      const end = text.indexOf('\n', at);
      lines.push(text.slice(at, end < 0 ? text.length : end));
      if (end < 0) break;
      at = end + 1;
    }
    if (lines.length !== header.sums.length) return undefined;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (i > 0 && line.charCodeAt(0) === 64) {
        // `@sum`: the part file of that contentHash, which must be the one the header records.
        const part = line.slice(1) === header.sums[i] ? partText(line.slice(1)) : undefined;
        if (part === undefined) return undefined;
        lines[i] = part;
      } else if ((i === 0 || !memo.parts.has(line)) && contentHash(line) !== header.sums[i]) return undefined;
    }
    const plain = JSON.parse(lines[0]!) as PlainRules;
    return decode({ ...plain, parts: lines.slice(1) }, sourceFrom(texts), memo);
  } catch {
    // Not JSON, a malformed program, a source it does not list: not an entry to trust.
    return undefined;
  }
}

/** The checked rules of a plain form, warnings ordered by their (displayed) paths as checkProgram orders them. */
function decode(plain: PlainRules, sourceOf: (stored: string) => SourceText, memo: LoadMemo): CheckedRules {
  const r = fromPlain(plain, sourceOf, memo.facts, memo.programs, memo.parts);
  return { program: r.program, warnings: sortDiagnostics(r.warnings as Diagnostic[]) };
}
