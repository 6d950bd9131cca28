// Join-plan functions compiled ahead of time (the build's dist/compiled-rules/plans.js, made from
// the plans audits of the shipped examples generate): compilePlan takes one instead of compiling
// the code it generated with `new Function` only when the function's source text is exactly that
// code. A table that is missing, stale (another build's plans) or damaged then changes nothing.
import { MemoSlot, type SharedMemos } from '../check/program.js';
import { type CompiledPlan, PLAN_PARAMS, type PlanTable } from './codegen.js';

/** The compiled join plans of a program's evaluations, by generated code (same code, same function). */
export const COMPILED_PLANS = new MemoSlot('compiled plans by code', () => new Map<string, CompiledPlan>(), true);

/** The code of every join plan the programs sharing `shared` compiled so far (what the build's prebuilt table is made of). */
export function compiledPlanCodes(shared: SharedMemos): string[] {
  const plans = shared.get(COMPILED_PLANS as MemoSlot<unknown>) as Map<string, CompiledPlan> | undefined;
  return plans ? [...plans.keys()] : [];
}

/** The source text of the function expression whose body is a plan's `code` (what a table holds, what `toString` gives of it). */
export function planSource(code: string): string {
  return `function (${PLAN_PARAMS.join(', ')}) {\n${code}\n}`;
}

/**
 * A table of prebuilt plan functions, read at the first lookup from `load` (an array of
 * functions, as the table's script evaluates to; anything else, or a load that throws, is an
 * empty table). Each function is found by its own source text (Function.prototype.toString):
 * only an identical text finds it. The texts are kept by length, not hashed: a lookup compares
 * the text of the generated code with those of its length only (building a map keyed by the
 * texts hashed every function of the table, most of which an audit never looks up twice).
 */
export class PrebuiltPlans implements PlanTable {
  private byLength: Map<number, { text: string; fn: CompiledPlan }[]> | undefined;
  /** How many lookups found their function (each saved a `new Function`). */
  used = 0;

  constructor(private readonly load: () => unknown) {}

  /** The prebuilt function whose source is planSource(code), or undefined. */
  get(code: string): CompiledPlan | undefined {
    this.byLength ??= this.read();
    if (this.byLength.size === 0) return undefined;
    const text = planSource(code);
    const same = this.byLength.get(text.length);
    if (same === undefined) return undefined;
    for (const e of same)
      if (e.text === text) {
        this.used++;
        return e.fn;
      }
    return undefined;
  }

  /** How many functions the table holds (loading it). */
  get size(): number {
    this.byLength ??= this.read();
    let n = 0;
    for (const same of this.byLength.values()) n += same.length;
    return n;
  }

  private read(): Map<number, { text: string; fn: CompiledPlan }[]> {
    const out = new Map<number, { text: string; fn: CompiledPlan }[]>();
    let fns: unknown;
    try {
      fns = this.load();
    } catch {
      return out;
    }
    if (!Array.isArray(fns)) return out;
    for (const f of fns) {
      if (typeof f !== 'function' || f.length !== PLAN_PARAMS.length) continue;
      const text = Function.prototype.toString.call(f);
      const same = out.get(text.length);
      if (same) same.push({ text, fn: f as CompiledPlan });
      else out.set(text.length, [{ text, fn: f as CompiledPlan }]);
    }
    return out;
  }
}

/** The prebuilt plans the programs sharing one store use (see providePrebuiltPlans). */
export const PREBUILT_PLANS = new MemoSlot<PrebuiltPlans | undefined>('prebuilt plan functions', () => undefined, true);

/**
 * Gives the programs that share `shared` (a LoadMemo's `programs`: those one caller loads) the
 * prebuilt plan functions of `plans`.
 */
export function providePrebuiltPlans(shared: SharedMemos, plans: PrebuiltPlans): void {
  shared.set(PREBUILT_PLANS, plans);
}

/** The script text of a table holding a function for each of `codes` (the build writes it; see PrebuiltPlans). */
export function prebuiltPlansScript(codes: Iterable<string>): string {
  // Each function in parentheses: V8 compiles it with the script (its bytecode goes into the code cache).
  return `[\n${[...codes].map((c) => `(${planSource(c)})`).join(',\n')}\n]\n`;
}
