/**
 * Annotations of a rule test (`ptolog test`), written as Python comments in a kernel:
 *
 *   pl.store(t, [0, 0], win)      # expect: missing-marker
 *   # expect: contract-violation, missing-marker      (applies to the next code line)
 *   # ok: missing-marker                             (must not be reported there)
 *   # pass: insert-comm-fence                        (file-level: the passes to run)
 *   # rules: ../my_rules/                            (file-level: extra rules, relative to the file)
 */
import type { Diagnostic } from '../report/diagnostic.js';
import { errorAt } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';

export interface Annotations {
  /** line → codes that must be reported on it. */
  expect: Map<number, Set<string>>;
  /** line → codes that must not be reported on it. */
  ok: Map<number, Set<string>>;
  /** `# pass:` names, in order. */
  passes: string[];
  /** `# rules:` paths, as written. */
  rules: string[];
  /** Malformed annotations (located). */
  errors: Diagnostic[];
}

const ANNOTATION = /#\s*(expect|ok|pass|rules)\s*:(.*)$/;
const CODE = /^[A-Za-z][\w.-]*$/;

/** The offset of the `#` starting a comment on `line`, outside string literals, or -1. */
function commentStart(line: string): number {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '#') return i;
  }
  return -1;
}

/** Whether a file's text holds any `# expect:` / `# ok:` annotation (a test file). */
export function hasAnnotations(text: string): boolean {
  return /#\s*(expect|ok)\s*:/.test(text);
}

/** Reads the annotations of a test file; an annotation on a comment-only line applies to the next code line. */
export function readAnnotations(source: SourceText): Annotations {
  const a: Annotations = { expect: new Map(), ok: new Map(), passes: [], rules: [], errors: [] };
  const pending: { kind: 'expect' | 'ok'; codes: string[] }[] = [];
  const add = (kind: 'expect' | 'ok', line: number, codes: string[]): void => {
    const m = a[kind];
    const set = m.get(line) ?? new Set<string>();
    for (const c of codes) set.add(c);
    m.set(line, set);
  };
  for (let line = 1; line <= source.lineCount; line++) {
    const text = source.lineText(line);
    const hash = commentStart(text);
    const code = (hash < 0 ? text : text.slice(0, hash)).trim();
    const m = hash < 0 ? null : ANNOTATION.exec(text.slice(hash));
    if (m) {
      const kind = m[1] as 'expect' | 'ok' | 'pass' | 'rules';
      const items = m[2]!.split(',').map((s) => s.trim()).filter((s) => s !== '');
      const at = source.lineStart(line) + hash;
      const bad = (msg: string, fix: string): void => {
        a.errors.push(errorAt(source, at, source.lineStart(line) + text.length, 'bad-annotation', msg, { fix }));
      };
      if (items.length === 0) bad(`\`# ${kind}:\` names nothing`, kind === 'rules' ? 'write `# rules: PATH`.' : `write \`# ${kind}: NAME[, NAME]\`.`);
      else if (kind === 'pass') a.passes.push(...items);
      else if (kind === 'rules') a.rules.push(...items);
      else {
        const wrong = items.filter((c) => !CODE.test(c));
        if (wrong.length > 0) bad(`not a finding code: ${wrong.join(', ')}`, 'codes are names such as missing-marker or contract-violation, separated by commas.');
        else if (code !== '') add(kind, line, items);
        else pending.push({ kind, codes: items });
      }
    }
    if (code !== '' && !(m && (m[1] === 'pass' || m[1] === 'rules'))) {
      for (const p of pending.splice(0)) add(p.kind, line, p.codes);
    }
  }
  for (const p of pending) {
    a.errors.push({ severity: 'error', code: 'bad-annotation', path: source.path, message: `\`# ${p.kind}: ${p.codes.join(', ')}\` is followed by no code line it could apply to.` });
  }
  return a;
}
