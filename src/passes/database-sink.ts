import { type FactDatabase, type RelationInfo, type RuleProgram, relationsRead } from '../datalog/index.js';
import type { FactSink } from '../facts/sink.js';

/**
 * A fact sink that inserts into an engine database only the `.input` relations some rule of
 * the program reads: a rule set need not read every fact the extractor emits, and storing
 * unread facts is most of the cost of the facts stage on large programs.
 */
export function databaseSink(program: RuleProgram, db: FactDatabase): FactSink {
  const read = relationsRead(program);
  const infos = new Map<string, RelationInfo | null>();
  const infoOf = (rel: string): RelationInfo | null => {
    let info = infos.get(rel);
    if (info === undefined) {
      const r = program.relation(rel);
      info = r?.input && (read.has(rel) || r.output) ? r : null;
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
