/** Messages between the page and the analysis worker. */

/** The page asks for an analysis of a kernel with extra rules, or for the explain text of a line. */
export type Request =
  | { kind: 'analyze'; id: number; kernel: string; rules: string; asWritten?: boolean }
  | { kind: 'explain'; id: number; line: number }
  /** The quick fix of the finding of pass `pass` at offset `start` of `kernel`. */
  | { kind: 'fix'; id: number; kernel: string; rules: string; pass: string; start: number };

/** Replace [from, to) of the kernel by `insert` (offsets into the text the change was computed on). */
export interface TextChange {
  from: number;
  to: number;
  insert: string;
}

/** One finding, located by offsets into the kernel text or the extra rules' text. */
export interface Finding {
  severity: 'error' | 'warning' | 'note';
  code: string;
  message: string;
  /** The file it is in: `kernel.py`, `rules/playground/extra.dl` (the rules editor) or a shipped rule file. */
  file: string;
  from: number;
  to: number;
  line: number;
  col: number;
  fix?: string;
  /** Its pass derives a fix at its start ("Fix" applies it). */
  fixable: boolean;
  /** The pass whose rules derived it ('' for a syntax or rule-file error): its quick fix is that pass's. */
  pass: string;
  /** Located in the rules editor's file (from/to/line/col are in its text). */
  inRules: boolean;
}

/** One relation of the facts: its column names and rows. */
export interface FactTable {
  name: string;
  columns: string[];
  rows: (string | number)[][];
}

export type Response =
  | {
      kind: 'analyzed';
      id: number;
      findings: Finding[];
      /** Unified diff of apply's text; '' when apply changes nothing; undefined when apply refused. */
      diff: string | undefined;
      /** The changes that turn the kernel into apply's text ("Apply all"); empty when the diff is. */
      applyChanges: TextChange[];
      /** Why apply refused (its error diagnostics, rendered). */
      applyError?: string;
      dot: string;
      facts: FactTable[];
      ms: number;
      /** The kernel's programs, and how many of them were audited before (their audits reused). */
      programs: { total: number; cached: number };
      /** The whole result was one computed before (same kernel, rules and stage). */
      cached: boolean;
      /** Older analyses the worker stopped, a newer one having replaced them, since its last result. */
      stopped: number;
    }
  /** Analysis `id` is at step `done` of `total` (`what` it does now). */
  | { kind: 'progress'; id: number; done: number; total: number; what: string }
  | { kind: 'explained'; id: number; text: string }
  /** The quick fix's changes of the analysed kernel; empty when the pass derives no fix there. */
  | { kind: 'fixed'; id: number; changes: TextChange[] }
  | { kind: 'failed'; id: number; message: string };
