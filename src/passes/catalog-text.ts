/** `ptolog rules` as text: the contracts and codes, or one code's help. */

import { DiagnosticError } from '../report/diagnostic.js';
import { closestName } from '../report/suggest.js';
import type { Catalog, CatalogEntry } from './catalog.js';
import type { ContractManifest } from './manifest.js';

/** Left-aligned columns separated by two spaces (the last column unpadded). */
function table(rows: readonly string[][]): string[] {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

/** A code's severity as reported: the default stage's, then each stage where it differs (`note; as-written: warning`). */
export function severityText(e: CatalogEntry): string {
  return [e.severity, ...Object.entries(e.stages).map(([stage, sev]) => `${stage}: ${sev}`)].join('; ');
}

/** The listing: contracts in pipeline order (order, name, summary), then every code sorted by name. */
export function formatRulesList(contracts: readonly ContractManifest[], catalog: Catalog): string {
  const cs = table([['ORDER', 'CONTRACT', 'SUMMARY'], ...contracts.map((c) => [String(c.order), c.name, c.summary])]);
  const entries = [...catalog.values()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const ds = table([['CODE', 'SEVERITY', 'CONTRACT', 'SUMMARY'], ...entries.map((e) => [e.code, severityText(e), e.contract, e.summary])]);
  return `Contracts (in pipeline order):\n\n${cs.map((l) => `  ${l}`).join('\n')}\n\nDiagnostic codes (\`ptolog rules CODE\` for the help):\n\n${ds.map((l) => `  ${l}`).join('\n')}\n`;
}

/** One code's full entry: heading, summary, help, example and where it is declared. */
export function formatRuleHelp(e: CatalogEntry): string {
  const block = (title: string, text: string): string =>
    text === ''
      ? ''
      : `\n${title}:\n\n${text
          .split('\n')
          .map((l) => (l === '' ? '' : `    ${l}`))
          .join('\n')}\n`;
  const example = block('Example', e.example) + block('Not reported (the example done right)', e.ok);
  return `${e.code} (${severityText(e)}, contract ${e.contract})\n\n${e.summary}\n\n${e.help}\n${example}\nDeclared in ${e.path}.\n`;
}

/** The entry for `code`; an unknown code is an `unknown-code` error with the closest declared one. */
export function lookupCode(catalog: Catalog, code: string): CatalogEntry {
  const e = catalog.get(code);
  if (e) return e;
  const near = closestName(code, catalog.keys());
  throw new DiagnosticError([
    {
      severity: 'error',
      code: 'unknown-code',
      message: `unknown diagnostic code '${code}'${near ? ` (did you mean '${near}'?)` : ''}; \`ptolog rules\` lists the codes.`,
    },
  ]);
}
