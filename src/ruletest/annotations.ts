/**
 * Annotations of a rule test (`ptolog test`), written as Python comments in a kernel:
 *
 *   pl.store(t, [0, 0], win)      # expect: missing-marker
 *   # expect: contract-violation, missing-marker      (applies to the next code line)
 *   # ok: missing-marker                             (must not be reported there)
 *   # pass: insert-comm-fence                        (file-level: the passes to run)
 *   # rules: ../my_rules/                            (file-level: extra rules, relative to the file)
 *
 * A malformed annotation is a located `bad-annotation` error (an empty item, one followed by no
 * code line); a comment that reads like one without its colon (`# expect foo`) an
 * `annotation-without-colon` warning. Whether the codes are declared is checked by
 * `checkAnnotatedCodes`, once the run's catalog is known.
 */
import type { Diagnostic } from '../report/diagnostic.js';
import { errorAt } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import { closestName } from '../report/suggest.js';

export interface Annotations {
  /** line → codes that must be reported on it. */
  expect: Map<number, Set<string>>;
  /** line → codes that must not be reported on it. */
  ok: Map<number, Set<string>>;
  /** `# pass:` names, in order. */
  passes: string[];
  /** `# rules:` paths, as written. */
  rules: string[];
  /** Every code an `# expect:` / `# ok:` names, where it is written (to check it is declared). */
  codes: { code: string; start: number; end: number }[];
  /** Where the first `# pass:` is (offset), to locate a pass name no contract has. */
  passAt?: number;
  /** Where the first `# rules:` is, or undefined when the file has none. */
  rulesAt?: number;
  /** The file's text, to locate the errors found once the codes and passes are known. */
  source: SourceText;
  /** Malformed annotations (located errors), and comments that look like one but are not (warnings). */
  errors: Diagnostic[];
}

const ANNOTATION = /#\s*(expect|ok|pass|rules)\s*:(.*)$/;
/**
 * `# expect foo`, `# ok missing-marker`: an annotation keyword without its colon, followed only by
 * code-like names (for `ok`, one with a `-`: `# ok fine` is prose).
 */
const NO_COLON = /^#\s*(expect|ok)\s+([A-Za-z][\w.-]*(?:\s*,\s*[A-Za-z][\w.-]*)*)$/;

function looksLikeCodes(kind: string, list: string): boolean {
  return kind === 'expect' || list.includes('-');
}
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
  const a: Annotations = { expect: new Map(), ok: new Map(), passes: [], rules: [], codes: [], source, errors: [] };
  const pending: { kind: 'expect' | 'ok'; codes: string[]; at: number; end: number }[] = [];
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
    const at = source.lineStart(line) + hash;
    const lineEnd = source.lineStart(line) + text.length;
    const near = hash < 0 || m ? null : NO_COLON.exec(text.slice(hash).trimEnd());
    if (near && looksLikeCodes(near[1]!, near[2]!)) {
      a.errors.push({
        severity: 'warning',
        code: 'annotation-without-colon',
        message: `\`# ${near[1]} ${near[2]!.trim()}\` is a plain comment, not an annotation: it has no colon`,
        location: { source, start: at, end: lineEnd },
        fix: `write \`# ${near[1]}: ${near[2]!.trim()}\` (or reword the comment).`,
      });
    }
    if (m) {
      const kind = m[1] as 'expect' | 'ok' | 'pass' | 'rules';
      const raw = m[2]!.split(',').map((s) => s.trim());
      const items = raw.filter((s) => s !== '');
      const bad = (msg: string, fix: string): void => {
        a.errors.push(errorAt(source, at, lineEnd, 'bad-annotation', msg, { fix }));
      };
      if (items.length === 0)
        bad(`\`# ${kind}:\` names nothing`, kind === 'rules' ? 'write `# rules: PATH`.' : `write \`# ${kind}: NAME[, NAME]\`.`);
      else if (items.length < raw.length) bad(`\`# ${kind}:${m[2]}\` has an empty item`, `write \`# ${kind}: ${items.join(', ')}\`.`);
      else if (kind === 'pass') {
        a.passAt ??= at;
        a.passes.push(...items);
      } else if (kind === 'rules') {
        a.rulesAt ??= at;
        a.rules.push(...items);
      } else {
        const wrong = items.filter((c) => !CODE.test(c));
        if (wrong.length > 0)
          bad(
            `not a finding code: ${wrong.join(', ')}`,
            'codes are names such as missing-marker or contract-violation, separated by commas.',
          );
        else {
          let from = at;
          for (const c of items) {
            const i = text.indexOf(c, from - source.lineStart(line));
            const start = i < 0 ? at : source.lineStart(line) + i;
            a.codes.push({ code: c, start, end: start + c.length });
            from = start + c.length;
          }
          if (code !== '') add(kind, line, items);
          else pending.push({ kind, codes: items, at, end: lineEnd });
        }
      }
    }
    if (code !== '' && !(m && (m[1] === 'pass' || m[1] === 'rules'))) {
      for (const p of pending.splice(0)) add(p.kind, line, p.codes);
    }
  }
  for (const p of pending) {
    a.errors.push(
      errorAt(
        source,
        p.at,
        p.end,
        'bad-annotation',
        `\`# ${p.kind}: ${p.codes.join(', ')}\` is followed by no code line it could apply to.`,
        {
          fix: 'put it at the end of the line it is about, or on its own line above it.',
        },
      ),
    );
  }
  return a;
}

/**
 * `bad-annotation` errors for the `# expect:` / `# ok:` codes that `known` (the run's catalog)
 * does not declare, each located at the code with the closest declared one.
 */
export function checkAnnotatedCodes(a: Annotations, known: ReadonlySet<string>): Diagnostic[] {
  return a.codes
    .filter((c) => !known.has(c.code))
    .map((c) => {
      const near = closestName(c.code, known);
      return errorAt(
        a.source,
        c.start,
        c.end,
        'bad-annotation',
        `'${c.code}' is not a diagnostic code${near ? ` (did you mean '${near}'?)` : ''}`,
        {
          fix: near ? `write ${near}.` : "`ptolog rules` lists the codes (with --rules DIR for a user contract's).",
        },
      );
    });
}
