/**
 * The abstract machine's own reading of what an expression does to GM and to the cache. It is
 * written from the seed contract (docs/contracts/insert-comm-fence.md, "Which writes the pass marks" and
 * the marker table), not from rules/ops.dl, so the rules cannot share a misclassification with
 * the oracle that checks them. See docs/memory-model.md.
 */
import type { CallExpr, Expr, SubmitExpr } from '../../ir/nodes.js';

/** What one call does in the memory model. */
export type Effect =
  | { kind: 'local-write'; dst: Expr }
  | { kind: 'remote-write' }
  | { kind: 'opaque-write'; why: string }
  | { kind: 'wait' }
  | { kind: 'notify' }
  | { kind: 'inval-region'; target: Expr }
  | { kind: 'inval-all' }
  | { kind: 'fence' }
  | { kind: 'read'; src: Expr }
  | { kind: 'none' };

/** Local writes and the argument holding the GM destination (seed: "Which writes the pass marks"). */
const LOCAL_WRITES: ReadonlyMap<string, number> = new Map([
  ['tile.store', 2],
  ['tensor.write', 0],
  ['pld.tile.get', 0],
  ['pld.tensor.get', 0],
]);
/** Peer-offset writes (seed: remote_store / put; their peer-region cacheinvalid is codegen's). */
const REMOTE_WRITES: ReadonlySet<string> = new Set(['pld.tile.remote_store', 'pld.tile.put', 'pld.tensor.put']);
/** Cacheable GM loads (seed: "a cacheable GM load after pto.comm.twait"); argument 0 is the source. */
const CACHED_READS: ReadonlySet<string> = new Set(['tensor.read', 'tile.load']);

/** The effect of a call or a Submit, from the seed contract's tables. */
export function effectOf(e: CallExpr | SubmitExpr): Effect {
  if (e.kind === 'Submit') return { kind: 'opaque-write', why: `Submit of ${e.func}` };
  const c = e.callee;
  if (c.kind === 'self') return { kind: 'opaque-write', why: `call of self.${c.name}` };
  if (c.kind !== 'op') return { kind: 'none' };
  const pos = LOCAL_WRITES.get(c.name);
  if (pos !== undefined) {
    const dst = e.args[pos];
    return dst ? { kind: 'local-write', dst } : { kind: 'opaque-write', why: `${c.name} without a destination` };
  }
  if (REMOTE_WRITES.has(c.name)) return { kind: 'remote-write' };
  if (CACHED_READS.has(c.name)) {
    const src = e.args[0];
    return src ? { kind: 'read', src } : { kind: 'none' };
  }
  switch (c.name) {
    case 'pld.system.wait':
      return { kind: 'wait' };
    case 'pld.system.notify':
      return { kind: 'notify' };
    case 'system.fence':
      return { kind: 'fence' };
    case 'system.cacheinvalid': {
      const t = e.args[0];
      return t ? { kind: 'inval-region', target: t } : { kind: 'inval-all' };
    }
    default:
      return { kind: 'none' };
  }
}
