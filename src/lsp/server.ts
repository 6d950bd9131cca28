/**
 * The ptolog language server on a given connection. Diagnostics are `ptolog audit`'s findings
 * for the document's text (at once when a document is opened, debounced after a change; per document only the units — programs with the
 * `@pl.inline` helpers they call — whose text changed are re-analysed; an analysis a newer edit
 * makes stale stops at its next step and is never published). Hover and code actions answer
 * from the last published result without analysing: hover shows the code's catalog summary, the
 * marker as it would be inserted, the rule that derived it and how to see the proof; quick fixes
 * ("insert the markers", "ignore on this line"), "Fix all" (`source.fixAll`, only where there are
 * findings) and "Canonicalize as PyPTO prints it" are resolved (`codeAction/resolve`) only when
 * chosen. Imported `@pl.inline` helpers are read from disk as the CLI reads them; saving a file
 * re-analyses the other open documents (those whose imports read differently). Formatting
 * changes layout only (layout.ts). The editor's `ptolog` settings are read
 * with `workspace/configuration` and re-read when they change. Each analysis is logged
 * (`window/logMessage`, type Log): how many units were analysed of how many.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type CodeAction,
  CodeActionKind,
  type Connection,
  type Hover,
  type InitializeParams,
  type InitializeResult,
  TextDocumentSyncKind,
  TextDocuments,
  type TextEdit,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { type Catalog, loadCatalog } from '../passes/catalog.js';
import { readExtraRules } from '../passes/extra-rules.js';
import { ruleFilesUnder, rulesDir } from '../passes/registry.js';
import { RuleSession } from '../passes/rule-session.js';
import { type Diagnostic, DiagnosticError } from '../report/diagnostic.js';
import { auditUnitsSteps, type ProgramCache } from '../runner/incremental.js';
import { withPrebuiltPlans } from '../runner/prebuilt-plans.js';
import { notAKernelsFile } from '../runner/quiet.js';
import { ruleCacheOf } from '../runner/rule-cache.js';
import { type PassFinding, runnerOf } from './analysis.js';
import { type Audited, analysisThread, workerScript } from './analysis-thread.js';
import { type ClientSettings, NO_CLIENT_SETTINGS, readClientSettings, withClientSettings } from './client-settings.js';
import { type FindingData, toLspDiagnostic } from './convert.js';
import { formatText } from './format.js';
import { indexRules, type RuleIndex, ruleHelpLinks, ruleOfFinding } from './help.js';
import { layoutText } from './layout.js';
import type { LspSettings, ServerOptions } from './settings.js';
import { suppressionEdit, textEdits } from './text-edits.js';
import type { WireSettings } from './worker-protocol.js';

/** The command that returns the full explain text (with proofs) of a line: arguments [uri, 1-based line]. */
export const EXPLAIN_COMMAND = 'ptolog.explain';
/** The command that applies every fix of a document (workspace/applyEdit): arguments [uri]. */
export const FIX_ALL_COMMAND = 'ptolog.fixAll';
/** The command that rewrites a document's programs as PyPTO prints them (workspace/applyEdit): arguments [uri]. */
export const CANONICALIZE_COMMAND = 'ptolog.canonicalize';
/** The code action kind of "Canonicalize as PyPTO prints it". */
export const CANONICALIZE_KIND = 'source.canonicalize.ptolog';

interface Published {
  text: string;
  version: number;
  /** The findings published (after configuration and suppressions), with the pass of each. */
  findings: PassFinding[];
}

/** What a code action carries until it is resolved. */
interface ActionData {
  uri: string;
  /** The document version the action was offered for. */
  version: number;
  what: 'fixOne' | 'fixAll' | 'canonicalize';
  pass?: string;
  start?: number;
  code?: string;
}

/** What, besides the rules generation, decides a document's analyses: its settings. */
function settingsSalt(settings: LspSettings, rulesGeneration: number): string {
  return JSON.stringify([
    rulesGeneration,
    settings.passes.map((p) => p.name),
    settings.ruleDirs,
    [...settings.defines],
    settings.stage ?? 'pipeline',
    settings.importRoots ?? [],
  ]);
}

/**
 * What `f` gives, or, when the rule files do not load (DiagnosticError: the analysis reports
 * them), `otherwise` (called with their errors when a function).
 */
function ruleErrorsAs<T>(otherwise: T | ((ds: Diagnostic[]) => T), f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof DiagnosticError)) throw e;
    return typeof otherwise === 'function' ? (otherwise as (ds: Diagnostic[]) => T)(e.diagnostics) : otherwise;
  }
}

/** The file path ptolog names a document by (its file path, or the URI when it is not a file). */
export function documentPath(uri: string): string {
  return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
}

/** A document's settings as the analysis thread is sent them. */
function wireSettings(settings: LspSettings): WireSettings {
  return {
    passes: settings.passes.map((p) => p.name),
    ruleDirs: [...settings.ruleDirs],
    defines: [...settings.defines],
    ...(settings.stage !== undefined ? { stage: settings.stage } : {}),
    ...(settings.importRoots !== undefined ? { importRoots: [...settings.importRoots] } : {}),
  };
}

/** Markdown text with its special characters escaped. */
const md = (s: string): string => s.replace(/[\\`*_[\]<>]/g, '\\$&');

/** Serves the ptolog language server on `connection` (the caller calls `connection.listen()`). */
export function startServer(connection: Connection, options: ServerOptions, base: string): void {
  const documents = new TextDocuments(TextDocument);
  const debounceMs = options.debounceMs ?? 200;
  const filter = options.filterFindings ?? ((fs) => fs);
  const help = ruleHelpLinks();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const published = new Map<string, Published>();
  /** Per document: its units' analyses from the last analysis (reused for unchanged units). */
  const caches = new Map<string, ProgramCache>();
  /** Per document: the salt and text its last analysis ran on (no analysis again for the same). */
  const analysedFor = new Map<string, string>();
  let rulesGeneration = 0;
  /** The rule programs this server has loaded (paths shown relative to the workspace base). */
  const session = withPrebuiltPlans(
    new RuleSession(base, options.cacheSpec ? ruleCacheOf(options.cacheSpec) : undefined),
    options.cacheSpec,
  );
  let stopWatching: (() => void) | undefined;
  let client: ClientSettings = NO_CLIENT_SETTINGS;
  let pullsConfiguration = false;
  let resolvesEdits = false;
  let clientCommands = false;
  /** The analysis thread (absent: analyses run in this thread, between messages). */
  const script = options.thread === false ? undefined : (options.worker ?? workerScript());
  if (options.thread === false) void options.worker?.terminate();
  let thread = script
    ? analysisThread(script, (e) => {
        logError('analysing in the analysis thread (analysing in the main thread from now on)', e);
        thread?.stop();
        thread = undefined;
      })
    : undefined;
  let requests = 0;
  /** Per rules generation: the rule index (hover's rule links) and the catalog (summaries), read when first asked. */
  let rulesInfo: { generation: number; index: RuleIndex; catalog: Catalog } | undefined;

  const logError = (what: string, e: unknown): void => {
    const msg = e instanceof Error ? (e.stack ?? e.message) : String(e);
    connection.console.error(`ptolog: internal error while ${what}: ${msg}`);
  };

  // At once (not at initialize): the analysis thread loads the rules and runs them once while
  // the editor starts up and opens its first document (given up when a document comes first).
  try {
    const path = join(base, 'ptolog-warm-up.py');
    thread?.warm({
      kind: 'warm',
      path,
      // (Its problems are told with the first document's.)
      settings: wireSettings(withClientSettings(options.settingsFor(path), client, base).settings),
      rulesGeneration,
      base,
      ...(options.cacheSpec ? { cacheSpec: options.cacheSpec } : {}),
    });
  } catch (e) {
    logError('warming the analysis thread', e);
  }

  /** A document's settings: the command line's and its configuration file's, then the editor's. */
  const settingsFor = (path: string): LspSettings => {
    const r = withClientSettings(options.settingsFor(path), client, base);
    for (const p of r.problems) connection.console.warn(p);
    return r.settings;
  };

  /**
   * Analyses a document unit by unit, letting queued messages in between; stops as soon as a
   * newer text (or a rules or settings change, or a close) makes the result stale, so it is never published.
   */
  const analyseNow = async (uri: string): Promise<void> => {
    timers.delete(uri);
    const doc = documents.get(uri);
    if (!doc) return;
    const text = doc.getText();
    const version = doc.version;
    const generation = rulesGeneration;
    const stale = (): boolean => documents.get(uri)?.version !== version || generation !== rulesGeneration;
    const path = documentPath(uri);
    try {
      const settings = settingsFor(path);
      const salt = settingsSalt(settings, generation);
      if (analysedFor.get(uri) === `${salt}\u0000${text}`) return;
      let audit: Audited | undefined;
      if (thread) {
        audit = await thread.analyse({
          kind: 'analyse',
          id: ++requests,
          uri,
          path,
          text,
          settings: wireSettings(settings),
          salt,
          rulesGeneration: generation,
          base,
          ...(options.cacheSpec ? { cacheSpec: options.cacheSpec } : {}),
        });
        // Stale (a newer request replaced it); after a failure of the thread, analysed here instead.
        if (!audit && thread) return;
      }
      if (!audit) {
        const steps = auditUnitsSteps(() => runnerOf(settings, session), text, path, salt, caches.get(uri));
        let step = steps.next();
        while (!step.done) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          if (stale()) return;
          step = steps.next();
        }
        caches.set(uri, step.value.cache);
        audit = step.value;
      }
      if (stale()) return;
      analysedFor.set(uri, `${salt}\u0000${text}`);
      connection.console.log(`ptolog: analysed ${audit.analysed} of ${audit.total} units of ${path}`);
      // (As the CLI: nothing is said about a file that is no kernels file.)
      const findings = filtered(
        audit.findings.filter((f) => !notAKernelsFile(f.diagnostic)),
        text,
        path,
      );
      published.set(uri, { text, version, findings });
      const diagnostics = findings.map((f) => toLspDiagnostic(f, path, uri, base, help));
      void connection.sendDiagnostics({ uri, version, diagnostics });
    } catch (e) {
      logError(`analysing ${uri}`, e);
    }
  };

  /** The findings the configuration and suppression comments keep (re-graded), each with its pass. */
  const filtered = (findings: readonly PassFinding[], text: string, path: string): PassFinding[] => {
    const key = (d: Diagnostic): string => `${d.location?.start ?? -1}\u0000${d.code}\u0000${d.message}`;
    const passOf = new Map(findings.map((f) => [key(f.diagnostic), f.pass]));
    // What the filter itself reports (a configuration file that does not load) is published too (pass '').
    return filter(
      findings.map((f) => f.diagnostic),
      text,
      path,
    ).map((d) => ({ pass: passOf.get(key(d)) ?? '', diagnostic: d }));
  };

  const schedule = (uri: string, delay = debounceMs): void => {
    const t = timers.get(uri);
    if (t) clearTimeout(t);
    timers.set(
      uri,
      setTimeout(() => void analyseNow(uri), delay),
    );
  };

  /** Rules or settings changed: every open document is analysed again. */
  const rulesChanged = (): void => {
    session.forget();
    rulesGeneration++;
    for (const doc of documents.all()) schedule(doc.uri);
  };

  /** Reads the editor's `ptolog` settings (workspace/configuration); re-analyses when they changed. */
  const pullSettings = async (): Promise<void> => {
    if (!pullsConfiguration) return;
    try {
      const [raw] = (await connection.sendRequest('workspace/configuration', { items: [{ section: 'ptolog' }] })) as unknown[];
      const r = readClientSettings(raw);
      for (const p of r.problems) connection.console.warn(p);
      if (JSON.stringify(r.settings) === JSON.stringify(client)) return;
      client = r.settings;
      rulesChanged();
    } catch (e) {
      logError('reading the settings', e);
    }
  };

  const info = (): { index: RuleIndex; catalog: Catalog } => {
    if (rulesInfo?.generation !== rulesGeneration) {
      const extra = readExtraRules(settingsFor(base).ruleDirs, settingsFor(base).passes).map((x) => x.path);
      let catalog: Catalog = new Map();
      try {
        catalog = loadCatalog(rulesDir(), extra);
      } catch {
        // A catalog that does not load is reported by the analysis; hover shows no summary.
      }
      rulesInfo = { generation: rulesGeneration, index: indexRules([...ruleFilesUnder(rulesDir()), ...extra]), catalog };
    }
    return rulesInfo;
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    pullsConfiguration = params.capabilities.workspace?.configuration === true;
    resolvesEdits = params.capabilities.textDocument?.codeAction?.resolveSupport?.properties.includes('edit') === true;
    const init = params.initializationOptions as { clientCommands?: boolean } | undefined;
    // An editor extension that contributes the commands itself (VS Code) asks for none to be registered for it.
    clientCommands = init?.clientCommands === true;
    return {
      capabilities: {
        // (Saves are told: a saved module may be a helper other open documents import.)
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        codeActionProvider: {
          codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.SourceFixAll, CANONICALIZE_KIND],
          resolveProvider: true,
        },
        hoverProvider: true,
        documentFormattingProvider: true,
        executeCommandProvider: { commands: clientCommands ? [] : [EXPLAIN_COMMAND, FIX_ALL_COMMAND, CANONICALIZE_COMMAND] },
      },
      serverInfo: { name: 'ptolog' },
    };
  });

  connection.onInitialized(() => {
    connection.console.log(
      thread ? 'ptolog: documents are analysed on their own thread' : 'ptolog: documents are analysed on this thread, between messages',
    );
    if (thread && options.worker) connection.console.log('ptolog: the analysis thread was started with the process');
    void pullSettings();
    if (!options.watch) return;
    try {
      const dirs = [...new Set(documents.all().flatMap((d) => settingsFor(documentPath(d.uri)).ruleDirs))];
      const paths = dirs.length > 0 ? dirs : settingsFor(base).ruleDirs;
      if (paths.length > 0) stopWatching = options.watch(paths, rulesChanged);
    } catch (e) {
      logError('watching the rule files', e);
    }
  });

  connection.onDidChangeConfiguration(() => void pullSettings());

  // A document just opened is analysed at once (its first diagnostics do not wait for the
  // debounce); later changes are debounced. (TextDocuments fires onDidOpen, then onDidChangeContent.)
  const opened = new Set<string>();
  documents.onDidOpen((e) => opened.add(e.document.uri));
  documents.onDidChangeContent((e) => {
    const now = opened.delete(e.document.uri);
    schedule(e.document.uri, now ? 0 : debounceMs);
  });
  // Imported modules are read from disk: a saved file may be one, so the other open documents
  // are analysed again (a unit whose imported modules read the same is taken from the cache).
  documents.onDidSave((e) => {
    for (const doc of documents.all()) {
      if (doc.uri === e.document.uri) continue;
      analysedFor.delete(doc.uri);
      schedule(doc.uri);
    }
  });
  documents.onDidClose((e) => {
    const t = timers.get(e.document.uri);
    if (t) clearTimeout(t);
    timers.delete(e.document.uri);
    published.delete(e.document.uri);
    caches.delete(e.document.uri);
    thread?.close(e.document.uri);
    analysedFor.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  /** The edits of a resolved action on the document's current text, or undefined when there are none. */
  const editsOf = (data: ActionData): TextEdit[] | undefined => {
    const doc = documents.get(data.uri);
    if (!doc) return undefined;
    const path = documentPath(doc.uri);
    const text = doc.getText();
    let next: string | undefined;
    if (data.what === 'fixAll') next = ruleErrorsAs(undefined, () => runnerOf(settingsFor(path), session).applied(text, path));
    else if (data.what === 'canonicalize') next = formatText(text, path, settingsFor(path).defines);
    else {
      if (doc.version !== data.version) return undefined;
      // The CLI's fix of the finding (its JSON `fixEdits`) when the text is the one analysed; else the pass's edits there.
      const last = published.get(data.uri);
      const f =
        last?.text === text
          ? last.findings.find(
              (x) => x.diagnostic.location?.start === data.start && x.diagnostic.code === data.code && x.diagnostic.fixEdits,
            )
          : undefined;
      if (f)
        return f.diagnostic.fixEdits!.map((e) => ({
          range: { start: doc.positionAt(e.start), end: doc.positionAt(e.end) },
          newText: e.text,
        }));
      next = ruleErrorsAs(undefined, () => runnerOf(settingsFor(path), session).fixAt(text, path, data.pass ?? '', data.start ?? -1));
    }
    return next === undefined || next === text ? undefined : textEdits(doc, next);
  };

  /** An action offered for `data`: resolved later when the client resolves edits, else now. */
  const lazyAction = (action: CodeAction, data: ActionData): CodeAction | undefined => {
    if (resolvesEdits) return { ...action, data };
    const edits = editsOf(data);
    return edits ? { ...action, edit: { changes: { [data.uri]: edits } } } : undefined;
  };

  connection.onCodeAction((params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    try {
      const ours = params.context.diagnostics.filter((d) => d.source === 'ptolog');
      const only = params.context.only;
      const wants = (kind: string): boolean =>
        only ? only.some((k) => kind === k || kind.startsWith(`${k}.`)) : kind === CodeActionKind.QuickFix;
      // A cursor move where there is no finding costs nothing.
      if (ours.length === 0 && !only) return [];
      const actions: CodeAction[] = [];
      const uri = doc.uri;
      const version = doc.version;
      if (wants(CodeActionKind.QuickFix)) {
        for (const d of ours) {
          const data = d.data as FindingData | undefined;
          if (!data || data.pass === '') continue;
          if (data.fix !== undefined && data.start >= 0 && doc.offsetAt(d.range.start) === data.start) {
            const a = lazyAction(
              { title: `ptolog: insert ${data.fix}`, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: true },
              { uri, version, what: 'fixOne', pass: data.pass, start: data.start, code: String(d.code) },
            );
            if (a) actions.push(a);
          }
          if (typeof d.code === 'string') {
            actions.push({
              title: `ptolog: ignore ${d.code} on this line`,
              kind: CodeActionKind.QuickFix,
              diagnostics: [d],
              edit: { changes: { [uri]: [suppressionEdit(doc, d.range.start.line, d.code)] } },
            });
          }
        }
      }
      // "Fix all" only where there is something to fix.
      const fixable = published.get(uri)?.findings.some((f) => f.pass !== '' && f.diagnostic.fixEdits !== undefined) === true;
      const fixAllKind = wants(CodeActionKind.SourceFixAll)
        ? CodeActionKind.SourceFixAll
        : wants(CodeActionKind.QuickFix) && ours.length > 0
          ? CodeActionKind.QuickFix
          : undefined;
      if (fixable && fixAllKind) {
        const a = lazyAction({ title: 'Fix all ptolog findings', kind: fixAllKind }, { uri, version, what: 'fixAll' });
        if (a) actions.push(a);
      }
      if (only && wants(CANONICALIZE_KIND)) {
        const a = lazyAction({ title: 'Canonicalize as PyPTO prints it', kind: CANONICALIZE_KIND }, { uri, version, what: 'canonicalize' });
        if (a) actions.push(a);
      }
      return actions;
    } catch (e) {
      logError('computing code actions', e);
      return [];
    }
  });

  connection.onCodeActionResolve((action) => {
    try {
      const data = action.data as ActionData | undefined;
      if (!data) return action;
      const edits = editsOf(data);
      return edits ? { ...action, edit: { changes: { [data.uri]: edits } } } : action;
    } catch (e) {
      logError('resolving a code action', e);
      return action;
    }
  });

  connection.onHover((params): Hover | null => {
    try {
      const last = published.get(params.textDocument.uri);
      if (!last) return null;
      const line = params.position.line;
      const path = documentPath(params.textDocument.uri);
      const here = last.findings.filter((f) => {
        const loc = f.diagnostic.location;
        return f.pass !== '' && loc !== undefined && loc.source.path === path && loc.source.position(loc.start).line - 1 === line;
      });
      if (here.length === 0) return null;
      const { index, catalog } = info();
      const parts = here.map((f) => hoverPart(f, catalog, index));
      const args = encodeURIComponent(JSON.stringify([params.textDocument.uri, line + 1]));
      const proof = `Proof: [Explain this line](command:${EXPLAIN_COMMAND}?${args}) (command \`${EXPLAIN_COMMAND}\`), or \`ptolog explain ${md(path)}:${line + 1}\``;
      return { contents: { kind: 'markdown', value: `${parts.join('\n\n---\n\n')}\n\n${proof}` } };
    } catch (e) {
      logError('computing a hover', e);
      return null;
    }
  });

  connection.onExecuteCommand(async (params) => {
    try {
      const [uri, line] = params.arguments ?? [];
      if (typeof uri !== 'string') return null;
      const doc = documents.get(uri);
      if (!doc) return null;
      const path = documentPath(uri);
      if (params.command === EXPLAIN_COMMAND) {
        if (typeof line !== 'number') return null;
        return ruleErrorsAs(
          (ds) => ds.map((d) => d.message).join('\n'),
          () => runnerOf(settingsFor(path), session).explain(doc.getText(), path, line),
        );
      }
      const what = params.command === FIX_ALL_COMMAND ? 'fixAll' : params.command === CANONICALIZE_COMMAND ? 'canonicalize' : undefined;
      if (!what) return null;
      const edits = editsOf({ uri, version: doc.version, what });
      if (!edits) return false;
      const r = await connection.workspace.applyEdit({
        label: what === 'fixAll' ? 'Fix all ptolog findings' : 'Canonicalize as PyPTO prints it',
        edit: { changes: { [uri]: edits } },
      });
      return r.applied;
    } catch (e) {
      logError(`running ${params.command}`, e);
      return null;
    }
  });

  connection.onDocumentFormatting((params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return null;
    try {
      const next = layoutText(doc.getText());
      // A document that does not tokenize, or whose layout is already the canonical one, is left as it is.
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
    thread?.stop();
  });

  documents.listen(connection);
}

/**
 * One finding's hover: its code with the catalog's summary, the message, the marker exactly as
 * `apply` inserts it, and the rule that derived it (a link to its line).
 */
function hoverPart(f: PassFinding, catalog: Catalog, index: RuleIndex): string {
  const d = f.diagnostic;
  const entry = catalog.get(d.code);
  const out = [`**${md(d.code)}** (${d.severity}, ${md(f.pass)})${entry ? `: ${md(entry.summary)}` : ''}`, '', md(d.message)];
  if (d.fixEdits && d.fixEdits.length > 0) {
    out.push('', 'Inserted after it:', '', '```python', ...d.fixEdits.map((e) => e.text.replace(/\r?\n$/, '')), '```');
  } else if (d.fix) {
    out.push('', `Fix: ${md(d.fix)}`);
  }
  const rule = ruleOfFinding(index, d.code, d.message);
  if (rule) out.push('', `Rule: [${md(rule.path.split(/[\\/]/).slice(-2).join('/'))}:${rule.line}](${rule.href})`);
  return out.join('\n');
}
