/** Messages between the page and the analysis worker. */

/** The page asks for an analysis of a kernel with extra rules, or for the explain text of a line. */
export type Request =
  | { kind: 'analyze'; id: number; kernel: string; rules: string; asWritten?: boolean }
  | { kind: 'explain'; id: number; line: number };

/** One finding, located by offsets into the kernel text. */
export interface Finding {
  severity: 'error' | 'warning' | 'note';
  code: string;
  message: string;
  from: number;
  to: number;
  line: number;
  col: number;
  fix?: string;
  /** Located in the extra rules rather than the kernel. */
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
      /** Why apply refused (its error diagnostics, rendered). */
      applyError?: string;
      dot: string;
      facts: FactTable[];
      ms: number;
    }
  | { kind: 'explained'; id: number; text: string }
  | { kind: 'failed'; id: number; message: string };
