/**
 * The runner of a document's settings: the language server's (and its analysis thread's)
 * analyses go through it — the audit unit by unit (src/runner/incremental.ts), "Fix all" (the
 * text `apply` gives), a quick fix (Runner.fixAt) and explain.
 */
import { readExtraRules } from '../passes/extra-rules.js';
import type { RuleSession } from '../passes/rule-session.js';
import { fileModuleReader } from '../runner/module-reader.js';
import { Runner } from '../runner/runner.js';
import type { LspSettings } from './settings.js';

export type { PassFinding } from '../runner/incremental.js';

/** The runner of `settings` (the whole tree kept: a document is small), its rule programs kept in `session`. */
export function runnerOf(settings: LspSettings, session: RuleSession): Runner {
  return new Runner({
    passes: settings.passes,
    extras: readExtraRules(settings.ruleDirs, settings.passes),
    defines: settings.defines,
    ...(settings.stage !== undefined ? { stage: settings.stage } : {}),
    // Imported helpers are read from disk, as the CLI reads them (the file's folder, then these roots).
    modules: fileModuleReader(settings.importRoots ?? []),
    memory: { kind: 'tree' },
    session,
  });
}
