/**
 * Module constants and `-D` definitions.
 *
 * A module constant is a top-level `NAME = <int expr>` or `NAME = [ints]` (optionally
 * annotated). Later assignments override earlier ones; a later assignment whose value is not
 * constant makes the name symbolic again. A `-D NAME=VALUE` definition overrides every
 * module-level assignment of NAME, and constants computed from it see its value.
 */
import { DiagnosticError, type Diagnostic } from '../report/diagnostic.js';
import { closestName } from '../report/suggest.js';
import type { ConstValue, Expr } from '../ir/nodes.js';
import { beyondExactRange, evalConstValue } from '../ir/consts.js';
import { MAX_NESTING, type LineTable } from './scan.js';
import { cleanLine, OffsetMap } from './layout.js';
import { matchNested } from './nesting.js';
import type { Reporter } from './build.js';

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
    e = matchNested<Expr>({ out: text, map }, 'ConstRhs', { report: silent, constants }, () => {
      throw new NotConstant();
    });
  } catch (err) {
    if (err instanceof NotConstant || err instanceof DiagnosticError || err instanceof RangeError) return undefined;
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
 * `inexactAt`.
 */
export function moduleConstants(
  text: string,
  table: LineTable,
  defines: ReadonlyMap<string, ConstValue>,
  inexactAt: { start: number; end: number }[] = [],
): Map<string, ConstValue> {
  const env = new Map<string, ConstValue>(defines);
  for (let l = 0; l < table.count; l++) {
    if (table.indent[l] !== 0) continue;
    const s = table.start[l]!;
    const e = table.end[l]!;
    const c = text.charCodeAt(s);
    if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95)) continue;
    const m = ASSIGN.exec(text.slice(s, Math.min(e, s + 256)));
    if (!m) continue;
    const name = m[1]!;
    if (defines.has(name)) continue;
    const rhs = cleanLine(text, s + m[0].length, e, true).trim();
    const x = parseConstExpr(rhs, env);
    const v = x === undefined ? undefined : evalConstValue(x, env);
    if (v !== undefined) env.set(name, v);
    else {
      env.delete(name);
      if (x !== undefined && inexact(x, env)) {
        const start = text.indexOf(rhs, s + m[0].length);
        if (start >= 0) inexactAt.push({ start, end: start + rhs.length });
      }
    }
  }
  return env;
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
      badDefine(spec, /^\s*-?\d{16,}\s*$/.test(value) && !Number.isSafeInteger(Number(value))
        ? 'the value is beyond ±(2^53 - 1), where ptolog reads numbers in the kernel exactly'
        : 'the value must be an integer expression or a list of integers');
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
    const near = closestName(name, [...constants.keys()].filter((k) => !defines.has(k)));
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
