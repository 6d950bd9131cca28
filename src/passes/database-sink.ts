import { MemoSlot } from '../datalog/check/program.js';
import { type FactDatabase, type RelationInfo, type RuleProgram, relationsRead } from '../datalog/index.js';
import type { FactSink } from '../facts/sink.js';

/**
 * Per program, what a sink stores of each relation name asked (filled as names are asked): its
 * info when it is an `.input` some rule reads (or an output), else null. The same for every
 * file's database of the program: computed once per program, not once per file.
 */
const STORED = new MemoSlot('stored input relations by name', () => new Map<string, RelationInfo | null>());

/** The set of relations some rule of the program reads, once per program. */
const READ = new MemoSlot('relations read', (program) => relationsRead(program));

/**
 * A fact sink that inserts into an engine database only the `.input` relations some rule of
 * the program reads: a rule set need not read every fact the extractor emits, and storing
 * unread facts is most of the cost of the facts stage on large programs.
 */
export function databaseSink(program: RuleProgram, db: FactDatabase): FactSink {
  const infos = program.memo(STORED);
  const infoOf = (rel: string): RelationInfo | null => {
    let info = infos.get(rel);
    if (info === undefined) {
      const r = program.relation(rel);
      info = r?.input && (program.memo(READ).has(rel) || r.output) ? r : null;
      infos.set(rel, info);
    }
    return info;
  };
  return {
    add(rel, tuple) {
      const info = infoOf(rel);
      if (info) db.insertInto(info, tuple);
    },
    wants: (rel) => infoOf(rel) !== null,
  };
}
