import { relative } from 'node:path';
import { type LoadMemo, newLoadMemo, PREBUILT_PLANS, type RuleCache, type RuleProgram } from '../datalog/index.js';
import type { ParsedFile } from '../datalog/syntax/ast.js';
import { parseFile } from '../datalog/syntax/parser.js';
import type { Diagnostic } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import type { Catalog } from './catalog.js';

/** A loaded rule program and the warnings its static checks gave. */
export interface LoadedRules {
  program: RuleProgram;
  warnings: Diagnostic[];
}

/**
 * The rule programs one caller (a CLI run, a worker thread, a language server) loads: each
 * parsed and checked once, then reused (the passes share rules/lib.dl, rules/ops.dl and the op
 * catalog). Owned by that caller — the library keeps no rule cache of its own. `cwd`, when
 * given, is the directory rule paths are shown relative to in proofs and diagnostics. `cache`,
 * when given, keeps compiled programs between runs (datalog/plan/rule-cache.ts; the CLI's comes
 * from its rule-cache.ts).
 */
export class RuleSession {
  constructor(
    readonly cwd?: string,
    readonly cache?: RuleCache,
    private readonly programs = new Map<string, LoadedRules>(),
    private readonly parsed = new Map<string, ParsedFile>(),
    private readonly catalogs = new Map<string, Catalog>(),
    /** What the cache entries this session reads share (rule files read once, the op catalog's facts decoded once). */
    readonly loads: LoadMemo = newLoadMemo(),
  ) {}

  /**
   * The same loaded programs seen from directory `cwd` (a program is keyed by its rule paths as
   * shown, so one loaded from another directory is not mistaken for it).
   */
  at(cwd: string): RuleSession {
    return cwd === this.cwd ? this : new RuleSession(cwd, this.cache, this.programs, this.parsed, this.catalogs, this.loads);
  }

  /** A rule path as the user reads it: relative to `cwd` when one is known, else as given. */
  shown(path: string, emptyAs: string): string {
    return this.cwd === undefined ? path : relative(this.cwd, path) || emptyAs;
  }

  /** The parse of a rule file's text, parsed once per path and text. */
  parse(source: SourceText): ParsedFile {
    const key = `${source.path}\0${source.text}`;
    let hit = this.parsed.get(key);
    if (!hit) {
      hit = parseFile(source);
      this.parsed.set(key, hit);
    }
    return hit;
  }

  /** The program loaded under `key`, loading it with `load` the first time. */
  program(key: string, load: () => LoadedRules): LoadedRules {
    let hit = this.programs.get(key);
    if (!hit) {
      const counts = this.loads.counts;
      const before = counts.read + counts.compiled;
      hit = load();
      // Loaded without the cache (there is none): compiled from the rule files.
      if (counts.read + counts.compiled === before) counts.compiled++;
      this.programs.set(key, hit);
    }
    return hit;
  }

  /**
   * How many rule programs this session (with its `at` views) has loaded so far: read from the
   * compiled-rules cache, or compiled from their rule files. A run that loads no rules leaves
   * both 0; a `--jobs` worker given the main thread's entries only reads.
   */
  loadCounts(): { read: number; compiled: number } {
    return { ...this.loads.counts };
  }

  /** The diagnostic catalog loaded under `key`, loading it with `load` the first time (the passes share the rules root's). */
  catalog(key: string, load: () => Catalog): Catalog {
    let hit = this.catalogs.get(key);
    if (!hit) {
      hit = load();
      this.catalogs.set(key, hit);
    }
    return hit;
  }

  /**
   * Drops every loaded program, parse and catalog, so the next load re-reads the files (a rule
   * file changed on disk); prebuilt plan functions given to the programs stay (they are found by their code).
   */
  forget(): void {
    this.programs.clear();
    this.parsed.clear();
    this.loads.parts.clear();
    this.catalogs.clear();
    this.loads.reads.clear();
    this.loads.sources.clear();
    this.loads.facts = new WeakMap();
    for (const slot of [...this.loads.programs.keys()]) if (slot !== PREBUILT_PLANS) this.loads.programs.delete(slot);
  }
}
