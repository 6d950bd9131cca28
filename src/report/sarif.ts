import type { Log, Notification, ReportingDescriptor, Result } from 'sarif';
import type { Diagnostic, Severity } from './diagnostic.js';

/** What the diagnostic catalog says about a code (src/passes/catalog.ts CatalogEntry fits). */
export interface CodeHelp {
  severity: Severity;
  contract: string;
  summary: string;
  help: string;
  example: string;
}

/** A SARIF rule for `id`, described from the catalog when `help` is given. */
function sarifRule(id: string, help: CodeHelp | undefined): ReportingDescriptor {
  if (!help) return { id, name: id };
  const example = help.example === '' ? '' : `\n\nExample:\n${help.example}`;
  const exampleMd = help.example === '' ? '' : `\n\n**Example**\n\n\`\`\`\n${help.example}\n\`\`\``;
  return {
    id,
    name: id,
    shortDescription: { text: help.summary },
    fullDescription: { text: help.help },
    help: { text: `${help.help}${example}`, markdown: `${help.help}${exampleMd}` },
    defaultConfiguration: { level: LEVEL[help.severity] },
    properties: { contract: help.contract },
  };
}

const LEVEL: Record<Diagnostic['severity'], Result.level> = { error: 'error', warning: 'warning', note: 'note' };

/**
 * A path as a SARIF artifact URI (RFC 3986): each segment percent-encoded (spaces, `#`, `%`,
 * non-ASCII); an absolute path as a `file://` URI.
 */
export function artifactUri(path: string): string {
  const p = path.replaceAll('\\', '/');
  const drive = /^[A-Za-z]:\//.test(p) ? p.slice(0, 2) : '';
  const encoded = p
    .slice(drive.length)
    .split('/')
    .map((seg) => encodeURIComponent(seg))
    .join('/');
  if (drive !== '') return `file:///${drive}${encoded}`;
  return p.startsWith('/') ? `file://${encoded}` : encoded;
}

/** A sentence ended by a full stop unless it already ends in one (or in `?`, `!`, `:`). */
function sentence(text: string): string {
  const t = text.trimEnd();
  return /[.!?:]$/.test(t) ? t : `${t}.`;
}

/** The SARIF location of a diagnostic (file and region), or undefined. */
function sarifLocations(d: Diagnostic): Result['locations'] {
  const loc = d.location;
  if (loc) {
    const s = loc.source.position(loc.start);
    const e = loc.source.position(loc.end);
    return [
      {
        physicalLocation: {
          artifactLocation: { uri: artifactUri(loc.source.path) },
          region: { startLine: s.line, startColumn: s.col, endLine: e.line, endColumn: e.col },
        },
      },
    ];
  }
  if (d.path) return [{ physicalLocation: { artifactLocation: { uri: artifactUri(d.path) } } }];
  return undefined;
}

/**
 * Renders diagnostics as a SARIF 2.1.0 log (one run, one rule per diagnostic code; fixes as
 * artifactChanges).
 * `notifications`: what kept ptolog from reading part of the input (unreadable files, programs
 * or functions with errors), as the invocation's `toolExecutionNotifications`.
 * `describe`: the catalog's entry for a code (short/full description, help, default level).
 */
export function renderSarif(
  ds: readonly Diagnostic[],
  toolVersion = '0.1.0',
  notifications: readonly Diagnostic[] = [],
  describe: (code: string) => CodeHelp | undefined = () => undefined,
): string {
  const codes = [...new Set(ds.map((d) => d.code))].sort();
  const rules: ReportingDescriptor[] = codes.map((id) => sarifRule(id, describe(id)));
  const results: Result[] = ds.map((d) => {
    const r: Result = { ruleId: d.code, ruleIndex: codes.indexOf(d.code), level: LEVEL[d.severity], message: { text: d.message } };
    const loc = d.location;
    if (loc) {
      const s = loc.source.position(loc.start);
      const e = loc.source.position(loc.end);
      r.locations = [
        {
          physicalLocation: {
            artifactLocation: { uri: artifactUri(loc.source.path) },
            region: { startLine: s.line, startColumn: s.col, endLine: e.line, endColumn: e.col },
          },
        },
      ];
    } else if (d.path) {
      r.locations = [{ physicalLocation: { artifactLocation: { uri: artifactUri(d.path) } } }];
    }
    // The rules' finding_related places (the notify an unreleased write reaches, ...).
    if (d.related && d.related.length > 0) {
      r.relatedLocations = d.related.map((x, i) => {
        const a = x.location.source.position(x.location.start);
        const b = x.location.source.position(x.location.end);
        return {
          id: i + 1,
          physicalLocation: {
            artifactLocation: { uri: artifactUri(x.location.source.path) },
            region: { startLine: a.line, startColumn: a.col, endLine: b.line, endColumn: b.col },
          },
          message: { text: x.message },
        };
      });
    }
    if (d.fix) r.message.text = `${sentence(d.message)} Fix: ${sentence(d.fix)}`;
    if (d.fix && d.fixEdits && loc) {
      const src = loc.source;
      r.fixes = [
        {
          description: { text: d.fix },
          artifactChanges: [
            {
              artifactLocation: { uri: artifactUri(src.path) },
              replacements: d.fixEdits.map((x) => {
                const a = src.position(x.start);
                const b = src.position(x.end);
                return {
                  deletedRegion: { startLine: a.line, startColumn: a.col, endLine: b.line, endColumn: b.col },
                  insertedContent: { text: x.text },
                };
              }),
            },
          ],
        },
      ];
    }
    return r;
  });
  const toolExecutionNotifications: Notification[] = notifications.map((d) => {
    const n: Notification = { level: LEVEL[d.severity], message: { text: d.message }, descriptor: { id: d.code } };
    const locations = sarifLocations(d);
    if (locations) n.locations = locations;
    return n;
  });
  const log: Log = {
    version: '2.1.0',
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    runs: [
      {
        tool: { driver: { name: 'ptolog', version: toolVersion, rules } },
        invocations: [
          {
            executionSuccessful: !notifications.some((d) => d.severity === 'error'),
            toolExecutionNotifications,
          },
        ],
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2);
}
