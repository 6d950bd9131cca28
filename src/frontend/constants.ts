/**
 * Module constants and `-D` definitions.
 *
 * A module constant is a top-level `NAME = <int expr>` or `NAME = [ints]` (optionally
 * annotated). Later assignments override earlier ones; a later assignment whose value is not
 * constant makes the name symbolic again. A `-D NAME=VALUE` definition overrides every
 * module-level assignment of NAME, and constants computed from it see its value.
 */

import { beyondExactRange, evalConstValue } from '../ir/consts.js';
import type { ConstValue, Expr } from '../ir/nodes.js';
import { type Diagnostic, DiagnosticError } from '../report/diagnostic.js';
import { closestName } from '../report/suggest.js';
import type { Reporter } from './build.js';
import { ParseFailure, parseRule } from './dsl-parser.js';
import { cleanLine, OffsetMap } from './layout.js';
import { type LineTable, MAX_NESTING } from './scan.js';

const ASSIGN = /^([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?::[^=\n]*)?=(?!=)/;
/** Only integer arithmetic, names and brackets can make a constant; skip anything else unparsed. */
const PLAUSIBLE = /^[\s\w+\-*/%()[\],]*$/;

class NotConstant extends Error {}

const silent: Reporter = {
  unsupported: () => {
    throw new NotConstant();
  },
  syntax: () => {
    throw new NotConstant();
  },
};

/** Parses an integer / list constant expression text; undefined when it is not one. */
export function parseConstText(text: string, constants: ReadonlyMap<string, ConstValue>): ConstValue | undefined {
  const e = parseConstExpr(text, constants);
  return e === undefined ? undefined : evalConstValue(e, constants);
}

/** The expression of a constant's text (integer arithmetic, names, lists); undefined when it is not one. */
function parseConstExpr(text: string, constants: ReadonlyMap<string, ConstValue>): Expr | undefined {
  if (!PLAUSIBLE.test(text) || text.length > 100_000) return undefined;
  const map = new OffsetMap();
  map.add(0, 0, text.length);
  let e: Expr;
  try {
    e = parseRule<Expr>({ out: text, map }, 'ConstRhs', { report: silent, constants });
  } catch (err) {
    if (err instanceof NotConstant || err instanceof ParseFailure || err instanceof DiagnosticError || err instanceof RangeError)
      return undefined;
    throw err;
  }
  return e;
}

/** Whether `e` (a constant's value) is an integer beyond ±(2⁵³ − 1): a literal, its negation, or arithmetic. */
function inexact(e: Expr, constants: ReadonlyMap<string, ConstValue>): boolean {
  const x = e.kind === 'Unary' ? e.operand : e;
  return (x.kind === 'Int' && !Number.isSafeInteger(x.value)) || beyondExactRange(x, constants);
}

/**
 * The module's constants: top-level integer/list assignments, with `defines` overriding. The
 * value of an assignment whose integer is beyond ±(2⁵³ − 1) is unknown; its span is pushed to
 * `inexactAt`. (The value at the end of the module; constantsTimeline gives it line by line.)
 */
export function moduleConstants(
  text: string,
  table: LineTable,
  defines: ReadonlyMap<string, ConstValue>,
  inexactAt: { start: number; end: number }[] = [],
): Map<string, ConstValue> {
  return constantsTimeline(text, table, defines, inexactAt).final;
}

/** The module's constants as Python binds them, statement after statement (see constantsTimeline). */
export interface ConstantsTimeline {
  /** The constants at the end of the module. */
  final: Map<string, ConstValue>;
  /** The constants bound when logical line `l` runs (a `@pl.program` decorator: PyPTO reads the class then). */
  at(l: number): Map<string, ConstValue>;
}

const SIMPLE_STATEMENTS = /^(?:import|from|del|global|nonlocal)\b/;
const DEF = /^(?:async\s+)?(?:def|class)\b/;
const COMPOUND = /^(?:for|while|if|elif|else|try|except|finally|with|match|case|async)\b/;

/**
 * The module's constants in Python's evaluation order: `NAME = <int expr>` binds NAME from then
 * on, `NAME += <int expr>` updates it; any other binding of a name at module level (a tuple or
 * chained assignment, `import`, `def`, `del`, a `for` target, an assignment inside a top-level
 * `if` / `for` / `while` / `try` / `with`) makes its value unknown from then on (a name PyPTO then
 * resolves is symbolic, never a stale value). `defines` decide their names everywhere.
 */
export function constantsTimeline(
  text: string,
  table: LineTable,
  defines: ReadonlyMap<string, ConstValue>,
  inexactAt: { start: number; end: number }[] = [],
): ConstantsTimeline {
  const env = new Map<string, ConstValue>(defines);
  /** Changes after the first line: [line, name, value (undefined: unknown)]. */
  const events: [number, string, ConstValue | undefined][] = [];
  const set = (l: number, name: string, v: ConstValue | undefined): void => {
    if (defines.has(name)) return;
    if (v === undefined) {
      if (!env.has(name)) return;
      env.delete(name);
    } else env.set(name, v);
    events.push([l, name, v]);
  };
  let l = 0;
  while (l < table.count) {
    if (table.indent[l] !== 0) {
      l++;
      continue;
    }
    const s = table.start[l]!;
    const e = table.end[l]!;
    const c = text.charCodeAt(s);
    // The block of a top-level compound statement (or def / class): its lines up to the next top-level one.
    let next = l + 1;
    while (next < table.count && table.indent[next]! > 0) next++;
    if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 40 || c === 91 || c >= 128)) {
      l = next;
      continue;
    }
    const head = text.slice(s, Math.min(e, s + 256));
    const m = ASSIGN.exec(head);
    if (m && !/^(?:lambda|not|and|or|in|is)$/.test(m[1]!)) {
      const name = m[1]!;
      const rhsStart = s + m[0].length;
      const rhs = cleanLine(text, rhsStart, e, true).trim();
      if (defines.has(name)) {
        l = next;
        continue;
      }
      const x = parseConstExpr(rhs, env);
      const v = x === undefined ? undefined : evalConstValue(x, env);
      if (v === undefined && x !== undefined && inexact(x, env)) {
        const start = text.indexOf(rhs, rhsStart);
        if (start >= 0) inexactAt.push({ start, end: start + rhs.length });
      }
      // A chained assignment (`A = B = 3`) binds B too: not read, so unknown.
      if (v === undefined) for (const n of boundNames(rhs)) set(l, n, undefined);
      set(l, name, v);
      l = next;
      continue;
    }
    const aug = AUG_ASSIGN.exec(head);
    if (aug) {
      const name = aug[1]!;
      const old = env.get(name);
      const rhs = cleanLine(text, s + aug[0].length, e, true).trim();
      const x = old === undefined || typeof old !== 'number' ? undefined : parseConstExpr(`(${old}) ${aug[2]} (${rhs})`, env);
      set(l, name, x === undefined ? undefined : evalConstValue(x, env));
      l = next;
      continue;
    }
    const line = cleanLine(text, s, e, true);
    if (DEF.test(line)) {
      // A function or class: its name is bound; what its body binds is its own.
      for (const n of boundNames(line)) set(l, n, undefined);
    } else if (SIMPLE_STATEMENTS.test(line) || COMPOUND.test(line) || line.includes('=')) {
      for (let k = l; k < next; k++) {
        const lk = cleanLine(text, table.start[k]!, table.end[k]!, true);
        for (const n of boundNames(lk)) set(k, n, undefined);
        if (k > l && DEF.test(lk)) {
          const w = table.indent[k]!;
          while (k + 1 < next && table.indent[k + 1]! > w) k++;
        }
      }
    }
    l = next;
  }
  const final = env;
  return {
    final,
    at: (line: number): Map<string, ConstValue> => {
      if (events.length === 0 || events[events.length - 1]![0] < line) return final;
      // The timeline of the lines before `line` alone.
      return constantsTimeline(text, { ...table, count: Math.min(line, table.count) }, defines).final;
    },
  };
}

const AUG_ASSIGN = /^([A-Za-z_][A-Za-z0-9_]*)[ \t]*(\*\*|\/\/|>>|<<|[-+*%&|^])=/;

/**
 * Names a logical line binds, roughly as Python does: assignment targets (tuples, chains, with
 * or without annotation), augmented assignments, `for` targets, `with ... as` / `except ... as`
 * names, imports, `def` / `class` names, `del`. Attributes and subscripts bind no name.
 */
function boundNames(line: string): string[] {
  const out: string[] = [];
  const names = (targets: string): void => {
    for (const m of targets.matchAll(/(?<![\w.\])])([A-Za-z_][A-Za-z0-9_]*)(?![\w.[(])/g)) {
      if (!/^(?:in|not|and|or|is|None|True|False)$/.test(m[1]!)) out.push(m[1]!);
    }
  };
  const t = line.trim();
  let m: RegExpExecArray | null;
  if ((m = /^(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)/.exec(t))) out.push(m[1]!);
  else if ((m = /^(?:async\s+)?for\s+(.*?)\s+in\b/.exec(t))) names(m[1]!);
  else if ((m = /^del\s+(.*)$/.exec(t))) names(m[1]!);
  else if ((m = /^import\s+(.*)$/.exec(t))) {
    for (const part of m[1]!.split(',')) {
      const im = /^\s*([\w.]+)(?:\s+as\s+(\w+))?/.exec(part);
      if (im) out.push(im[2] ?? im[1]!.split('.')[0]!);
    }
  } else if ((m = /^from\s+\S+\s+import\s+(.*)$/.exec(t))) {
    for (const part of m[1]!.replace(/[()]/g, '').split(',')) {
      const im = /^\s*(\w+)(?:\s+as\s+(\w+))?/.exec(part);
      if (im) out.push(im[2] ?? im[1]!);
    }
  } else {
    for (const w of t.matchAll(/\b(?:as)\s+([A-Za-z_]\w*)/g)) out.push(w[1]!);
    // Assignment targets: the text before each top-level `=` that is not a comparison.
    let depth = 0;
    let last = 0;
    for (let i = 0; i < t.length; i++) {
      const ch = t[i]!;
      if (ch === '(' || ch === '[' || ch === '{') depth++;
      else if (ch === ')' || ch === ']' || ch === '}') depth--;
      else if (ch === '=' && depth === 0 && t[i + 1] !== '=' && !'=!<>'.includes(t[i - 1] ?? '')) {
        // (An annotation `x: int = 1` binds x; an augmented `x += 1` binds x.)
        const target = t
          .slice(last, i)
          .replace(/(\*\*|\/\/|>>|<<|[-+*%&|^@])$/, '')
          .replace(/:.*$/, '');
        names(target);
        last = i + 1;
      } else if (ch === ':' && depth === 0 && /^(?:if|elif|else|while|for|try|except|finally|with)\b/.test(t)) {
        // The body after a compound header's colon on the same line.
        last = i + 1;
      }
    }
  }
  return out;
}

function badDefine(spec: string, why: string): never {
  throw new DiagnosticError([
    {
      severity: 'error',
      code: 'bad-define',
      message: `bad definition -D ${spec}: ${why}`,
    },
  ]);
}

/** Parses `-D` specs (`N=8`, `SHAPE=[16,64]`; a leading `-D` is accepted) into constants. */
export function parseDefines(specs: readonly string[]): Map<string, ConstValue> {
  const out = new Map<string, ConstValue>();
  for (const raw of specs) {
    const spec = raw.trim().replace(/^-D\s*/, '');
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([\s\S]*)$/.exec(spec);
    if (!m) badDefine(spec, 'expected NAME=VALUE, e.g. -D N=8 or -D SHAPE=[16,64]');
    const value = m[2]!.trim();
    if (value === '') badDefine(spec, `no value given for ${m[1]}`);
    let depth = 0;
    let max = 0;
    for (const ch of value) {
      if (ch === '(' || ch === '[' || ch === '{') max = Math.max(max, ++depth);
      else if (ch === ')' || ch === ']' || ch === '}') depth--;
    }
    if (max > MAX_NESTING) badDefine(spec, `too many nested parentheses: Python allows ${MAX_NESTING} levels`);
    const v = parseConstText(value, out);
    if (v === undefined) {
      badDefine(
        spec,
        /^\s*-?\d{16,}\s*$/.test(value) && !Number.isSafeInteger(Number(value))
          ? 'the value is beyond ±(2^53 - 1), where ptolog reads numbers in the kernel exactly'
          : 'the value must be an integer expression or a list of integers',
      );
    }
    out.set(m[1]!, v);
  }
  return out;
}

/**
 * Warnings for `-D` definitions of names that `text` never mentions (a typo such as
 * `-D NRNAKS=8` would otherwise be ignored), each with the closest module constant.
 */
export function unknownDefines(
  text: string,
  path: string,
  defines: ReadonlyMap<string, ConstValue>,
  constants: ReadonlyMap<string, ConstValue>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const name of defines.keys()) {
    if (new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`).test(text)) continue;
    const near = closestName(
      name,
      [...constants.keys()].filter((k) => !defines.has(k)),
    );
    out.push({
      severity: 'warning',
      code: 'unknown-define',
      path,
      message: `-D ${name}: ${path} has no constant or name ${name}${near ? `; did you mean ${near}?` : ''}`,
      fix: near ? `-D ${near}=...` : 'check the name; the definition is ignored for this file.',
    });
  }
  return out;
}
