// Extraction that consumes the module (ExtractOptions.consume): each statement is dropped from
// its block once its facts are out, and the caller's collector runs each eighth of them.
import type { Module, Stmt } from '../ir/nodes.js';

/** What a dropped statement is replaced by (never read: the module is being consumed). */
const DROPPED: Stmt = Object.freeze({ kind: 'Pass', start: 0, end: 0 });

/** Drops statements whose facts are out and calls `collect` each eighth of them (ExtractOptions.consume). */
export class Consumer {
  private dropped = 0;
  private readonly step: number;
  private next: number;

  constructor(
    private readonly collect: () => void,
    total: number,
  ) {
    this.step = Math.max(65_536, Math.ceil(total / 8));
    this.next = this.step;
  }

  /** Drops `stmts[i]` unless a loop's facts still read it (a `pl.yield_` assignment). */
  drop(stmts: Stmt[], i: number): void {
    if (isYieldAssign(stmts[i]!)) return;
    stmts[i] = DROPPED;
    if (++this.dropped >= this.next) {
      this.next += this.step;
      this.collect();
    }
  }
}

/** `v = pl.yield_(...)`. */
export function isYieldAssign(st: Stmt): boolean {
  return st.kind === 'Assign' && st.value.kind === 'Call' && st.value.callee.kind === 'op' && st.value.callee.name === 'yield_';
}

/** The statements of every block of the module's programs. */
export function statementCount(module: Module): number {
  let n = 0;
  const blocks: Stmt[][] = [];
  for (const p of module.programs) for (const f of p.functions) blocks.push(f.body);
  for (let b = blocks.pop(); b !== undefined; b = blocks.pop()) {
    n += b.length;
    for (const s of b) {
      if (s.kind === 'If') blocks.push(s.then, s.orelse);
      else if (s.kind === 'While' || s.kind === 'For' || s.kind === 'Scope') blocks.push(s.body);
    }
  }
  return n;
}
