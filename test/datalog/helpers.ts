// Shared helpers of the Datalog tests.

import { type EvalResult, evaluate, loadProgram, type RuleProgram, type Value } from '../../src/datalog/index.js';
import { DiagnosticError } from '../../src/report/diagnostic.js';
import { formatPosition } from '../../src/report/text.js';

/** Loads one in-memory rule file. */
export function prog(text: string, path = 'test.dl'): RuleProgram {
  return loadProgram([{ path, text }]).program;
}

/** Evaluates `text` on the given input facts. */
export function run(text: string, facts: Record<string, Value[][]> = {}): EvalResult {
  const program = prog(text);
  const db = program.newDatabase();
  for (const [rel, rows] of Object.entries(facts)) db.insertMany(rel, rows);
  return evaluate(program, db);
}

/** The diagnostics thrown by `f` as `file:line:col code: message` lines. */
export function errorsOf(f: () => unknown): string[] {
  try {
    f();
  } catch (e) {
    if (e instanceof DiagnosticError) {
      return e.diagnostics.map((d) => `${d.location ? formatPosition(d.location) : (d.path ?? '')} ${d.code}: ${d.message}`);
    }
    throw e;
  }
  return [];
}

/** Errors of checking one in-memory file. */
export function checkErrors(text: string): string[] {
  return errorsOf(() => prog(text));
}
