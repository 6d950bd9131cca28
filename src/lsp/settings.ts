/**
 * What the language server analyses a document with, and the seams the CLI's configuration
 * (pyproject.toml `[tool.ptolog]`) and suppression comments (`# ptolog: ignore[code]`) plug into.
 */

import type { Worker } from 'node:worker_threads';
import type { ConstValue } from '../ir/nodes.js';
import type { AuditStage } from '../passes/analyze.js';
import type { PassSpec } from '../passes/registry.js';
import type { Diagnostic } from '../report/diagnostic.js';
import type { CacheSpec } from '../runner/rule-cache.js';

/** The analysis settings of one document: the passes, extra rule paths (--rules) and defines (-D). */
export interface LspSettings {
  passes: readonly PassSpec[];
  ruleDirs: readonly string[];
  defines: ReadonlyMap<string, ConstValue>;
  /** The stage findings are judged at (default pipeline: as PyPTO's Default pipeline compiles the file). */
  stage?: AuditStage;
  /** Directories searched for an imported module after the document's folder (its package roots, the configuration's `import-roots`). */
  importRoots?: readonly string[];
}

/**
 * SEAM (configuration): the settings for the document at `path`. The `lsp` command passes the
 * command line's settings for every document; the configuration lookup (pyproject.toml found
 * from the file upwards, as the CLI does) is wired here.
 */
export type SettingsFor = (path: string) => LspSettings;

/**
 * SEAM (suppressions): the findings of a document that are reported, given its text (e.g.
 * dropping those under `# ptolog: ignore[code]`). The default reports every finding.
 */
export type FindingFilter = (findings: Diagnostic[], text: string, path: string) => Diagnostic[];

/** Everything the server is started with besides its connection. */
export interface ServerOptions {
  settingsFor: SettingsFor;
  filterFindings?: FindingFilter;
  /** Quiet time after the last change before a document is analysed (ms). */
  debounceMs?: number;
  /**
   * Watches rule paths and calls `changed` when one changes; returns a function that stops
   * watching. Absent: rule files are read once per document analysis (no re-analysis on change).
   */
  watch?: (paths: readonly string[], changed: () => void) => () => void;
  /** false: analyse in the server's own thread, between messages (default: on an analysis thread when its compiled script is there). */
  thread?: boolean;
  /** The analysis thread already started on analysis-worker.js (bin/ptolog.js starts it early); absent: the server starts it. */
  worker?: Worker;
  /** Where compiled rule programs are cached (the CLI's: the package's prebuilt rules, the user's cache); absent: rules are compiled from source. */
  cacheSpec?: CacheSpec;
}
