/**
 * The ptolog language server on a given connection: diagnostics (debounced; per document only
 * the programs whose text changed are re-analysed, the others reuse the document's previous
 * per-program results; a stale result is never published over a newer one), code actions
 * (markers for one finding, fix all, a suppression comment), hover (the explain summary) and
 * formatting (`fmt`, which keeps comments). Each analysis is logged (`window/logMessage`, type
 * Log): how many programs were analysed of how many.
 */
import { fileURLToPath } from 'node:url';
import {
  CodeActionKind, TextDocuments, TextDocumentSyncKind, type CodeAction, type Connection,
  type Hover, type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { RuleSession } from '../passes/rule-session.js';
import { explainLine } from '../passes/explain.js';
import { passByName } from '../passes/registry.js';
import type { Analysis } from '../passes/analyze.js';
import { fixAllText, fixOneText, hoverSummary } from './analysis.js';
import { auditProgramsSteps, type ProgramAudit, type ProgramsAudit } from './programs.js';
import { formatText } from './format.js';
import type { LspSettings } from './settings.js';
import { toLspDiagnostic, type FindingData } from './convert.js';
import { ruleHelpLinks } from './help.js';
import { suppressionEdit, textEdits } from './text-edits.js';
import type { ServerOptions } from './settings.js';

/** The command that returns the full explain text (with proofs) of a line: arguments [uri, 1-based line]. */
export const EXPLAIN_COMMAND = 'ptolog.explain';

interface Published {
  text: string;
  rulesGeneration: number;
  programs: ProgramsAudit['programs'];
}

/** What, besides the rules generation, decides a document's analyses: its settings. */
function settingsSalt(settings: LspSettings, rulesGeneration: number): string {
  return JSON.stringify([rulesGeneration, settings.passes.map((p) => p.name), settings.ruleDirs, [...settings.defines], settings.stage ?? 'pipeline']);
}

/** The file path ptolog names a document by (its file path, or the URI when it is not a file). */
export function documentPath(uri: string): string {
  return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
}

/** Serves the ptolog language server on `connection` (the caller calls `connection.listen()`). */
export function startServer(connection: Connection, options: ServerOptions, base: string): void {
  const documents = new TextDocuments(TextDocument);
  const debounceMs = options.debounceMs ?? 200;
  const filter = options.filterFindings ?? ((fs) => fs);
  const help = ruleHelpLinks();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const published = new Map<string, Published>();
  /** Per document: its programs' analyses from the last analysis (reused for unchanged programs). */
  const caches = new Map<string, ReadonlyMap<string, ProgramAudit>>();
  let rulesGeneration = 0;
  /** The rule programs this server has loaded (paths shown relative to the workspace base). */
  const session = new RuleSession(base);
  let stopWatching: (() => void) | undefined;

  const logError = (what: string, e: unknown): void => {
    const msg = e instanceof Error ? (e.stack ?? e.message) : String(e);
    connection.console.error(`ptolog: internal error while ${what}: ${msg}`);
  };

  /**
   * Analyses a document pass by pass, letting queued messages in between; stops as soon as a
   * newer text (or a rules change, or a close) makes the result stale, so it is never published.
   */
  const analyseNow = async (uri: string): Promise<void> => {
    timers.delete(uri);
    const doc = documents.get(uri);
    if (!doc) return;
    const text = doc.getText();
    const last = published.get(uri);
    if (last && last.text === text && last.rulesGeneration === rulesGeneration) return;
    const version = doc.version;
    const generation = rulesGeneration;
    const stale = (): boolean => documents.get(uri)?.version !== version || generation !== rulesGeneration;
    const path = documentPath(uri);
    try {
      const settings = options.settingsFor(path);
      const steps = auditProgramsSteps(text, path, settings, settingsSalt(settings, generation), caches.get(uri) ?? new Map(), session);
      let step = steps.next();
      while (!step.done) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (stale()) return;
        step = steps.next();
      }
      if (stale()) return;
      const audit = step.value;
      caches.set(uri, audit.cache);
      connection.console.log(`ptolog: analysed ${audit.analysed} of ${audit.total} programs of ${path}`);
      const filtered = filter(audit.findings.map((f) => f.diagnostic), text, path);
      const kept = new Set(filtered);
      const diagnostics = audit.findings.filter((f) => kept.has(f.diagnostic)).map((f) => toLspDiagnostic(f, path, uri, base, help));
      // What the filter itself reports (a configuration file that does not load) is published too.
      const own = new Set(audit.findings.map((f) => f.diagnostic));
      for (const d of filtered) if (!own.has(d)) diagnostics.push(toLspDiagnostic({ pass: '', diagnostic: d }, path, uri, base, help));
      published.set(uri, { text, rulesGeneration: generation, programs: audit.programs });
      void connection.sendDiagnostics({ uri, version, diagnostics });
    } catch (e) {
      logError(`analysing ${uri}`, e);
    }
  };

  const schedule = (uri: string, delay = debounceMs): void => {
    const t = timers.get(uri);
    if (t) clearTimeout(t);
    timers.set(uri, setTimeout(() => void analyseNow(uri), delay));
  };

  const rulesChanged = (): void => {
    session.forget();
    rulesGeneration++;
    for (const doc of documents.all()) schedule(doc.uri);
  };

  connection.onInitialize((): InitializeResult => ({
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.SourceFixAll] },
      hoverProvider: true,
      documentFormattingProvider: true,
      executeCommandProvider: { commands: [EXPLAIN_COMMAND] },
    },
    serverInfo: { name: 'ptolog' },
  }));

  connection.onInitialized(() => {
    if (!options.watch) return;
    try {
      const dirs = [...new Set(documents.all().flatMap((d) => options.settingsFor(documentPath(d.uri)).ruleDirs))];
      const paths = dirs.length > 0 ? dirs : options.settingsFor(base).ruleDirs;
      if (paths.length > 0) stopWatching = options.watch(paths, rulesChanged);
    } catch (e) {
      logError('watching the rule files', e);
    }
  });

  documents.onDidChangeContent((e) => schedule(e.document.uri));
  documents.onDidClose((e) => {
    const t = timers.get(e.document.uri);
    if (t) clearTimeout(t);
    timers.delete(e.document.uri);
    published.delete(e.document.uri);
    caches.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onCodeAction((params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    try {
      const path = documentPath(doc.uri);
      const settings = options.settingsFor(path);
      const text = doc.getText();
      const actions: CodeAction[] = [];
      const ours = params.context.diagnostics.filter((d) => d.source === 'ptolog');
      const only = params.context.only;
      const wants = (kind: string): boolean => !only || only.some((k) => kind === k || kind.startsWith(`${k}.`));
      if (wants(CodeActionKind.QuickFix)) {
        for (const d of ours) {
          const data = d.data as FindingData | undefined;
          if (data && data.pass !== '' && data.start >= 0 && doc.offsetAt(d.range.start) === data.start) {
            const next = fixOneText(text, path, settings, session, data.pass, data.start);
            if (next !== undefined && next !== text) {
              actions.push({
                title: `ptolog: insert the markers for this ${String(d.code)}`,
                kind: CodeActionKind.QuickFix,
                diagnostics: [d],
                isPreferred: true,
                edit: { changes: { [doc.uri]: textEdits(doc, next) } },
              });
            }
          }
          if (typeof d.code === 'string' && data && data.pass !== '') {
            actions.push({
              title: `ptolog: ignore ${d.code} on this line`,
              kind: CodeActionKind.QuickFix,
              diagnostics: [d],
              edit: { changes: { [doc.uri]: [suppressionEdit(doc, d.range.start.line, d.code)] } },
            });
          }
        }
      }
      if (wants(CodeActionKind.SourceFixAll) || (wants(CodeActionKind.QuickFix) && ours.length > 0)) {
        const next = fixAllText(text, path, settings, session);
        if (next !== undefined && next !== text) {
          actions.push({
            title: 'Fix all ptolog findings',
            kind: wants(CodeActionKind.SourceFixAll) && !wants(CodeActionKind.QuickFix) ? CodeActionKind.SourceFixAll : CodeActionKind.QuickFix,
            edit: { changes: { [doc.uri]: textEdits(doc, next) } },
          });
        }
      }
      return actions;
    } catch (e) {
      logError('computing code actions', e);
      return [];
    }
  });

  /** The analyses (per pass) of the program holding 1-based `line` of the document, if any. */
  const analysesOf = (uri: string, line: number): Map<string, Analysis> | undefined => {
    const doc = documents.get(uri);
    if (!doc) return undefined;
    const last = published.get(uri);
    let programs: ProgramsAudit['programs'];
    if (last && last.text === doc.getText() && last.rulesGeneration === rulesGeneration) programs = last.programs;
    else {
      const path = documentPath(uri);
      const settings = options.settingsFor(path);
      const steps = auditProgramsSteps(doc.getText(), path, settings, settingsSalt(settings, rulesGeneration), caches.get(uri) ?? new Map(), session);
      let step = steps.next();
      while (!step.done) step = steps.next();
      programs = step.value.programs;
    }
    return programs.find((p) => line >= p.fromLine && line <= p.toLine)?.analyses;
  };

  connection.onHover((params): Hover | null => {
    try {
      const line = params.position.line + 1;
      const analyses = analysesOf(params.textDocument.uri, line);
      if (!analyses) return null;
      const parts = hoverSummary(analyses, line);
      if (parts.length === 0) return null;
      const body = parts.map((p) => `**${p.pass}**\n${p.lines.map((l) => `- ${l.replace(/[\\`*_[\]<>]/g, '\\$&')}`).join('\n')}`).join('\n\n');
      return {
        contents: { kind: 'markdown', value: `${body}\n\n_Proof: \`ptolog explain ${documentPath(params.textDocument.uri)}:${line}\` (command \`${EXPLAIN_COMMAND}\`)._` },
      };
    } catch (e) {
      logError('computing a hover', e);
      return null;
    }
  });

  connection.onExecuteCommand((params) => {
    if (params.command !== EXPLAIN_COMMAND) return null;
    try {
      const [uri, line] = params.arguments ?? [];
      if (typeof uri !== 'string' || typeof line !== 'number') return null;
      const analyses = analysesOf(uri, line);
      if (!analyses) return null;
      return [...analyses].map(([pass, a]) => `== ${pass}\n${explainLine(a, line, passByName(pass))}`).join('\n');
    } catch (e) {
      logError('explaining a line', e);
      return null;
    }
  });

  connection.onDocumentFormatting((params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return null;
    try {
      const path = documentPath(doc.uri);
      const next = formatText(doc.getText(), path, options.settingsFor(path).defines);
      // A document that does not read (or holds no program) is left as it is.
      if (next === undefined || next === doc.getText()) return [];
      return textEdits(doc, next);
    } catch (e) {
      logError('formatting', e);
      return null;
    }
  });

  connection.onShutdown(() => {
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
    stopWatching?.();
  });

  documents.listen(connection);
}
