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
 * only an identical text finds it.
 */
export class PrebuiltPlans implements PlanTable {
  private byText: Map<string, CompiledPlan> | undefined;
  /** How many lookups found their function (each saved a `new Function`). */
  used = 0;

  constructor(private readonly load: () => unknown) {}

  /** The prebuilt function whose source is planSource(code), or undefined. */
  get(code: string): CompiledPlan | undefined {
    this.byText ??= this.read();
    if (this.byText.size === 0) return undefined;
    const fn = this.byText.get(planSource(code));
    if (fn) this.used++;
    return fn;
  }

  /** How many functions the table holds (loading it). */
  get size(): number {
    this.byText ??= this.read();
    return this.byText.size;
  }

  private read(): Map<string, CompiledPlan> {
    const out = new Map<string, CompiledPlan>();
    let fns: unknown;
    try {
      fns = this.load();
    } catch {
      return out;
    }
    if (!Array.isArray(fns)) return out;
    for (const f of fns) {
      if (typeof f !== 'function' || f.length !== PLAN_PARAMS.length) continue;
      out.set(Function.prototype.toString.call(f), f as CompiledPlan);
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
