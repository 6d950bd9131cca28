// The playground page: two editors, the analysis worker, and the result tabs.

import { isolateHistory } from '@codemirror/commands';
import { type Diagnostic as CmDiagnostic, setDiagnostics } from '@codemirror/lint';
import { ChangeSet, EditorState, type Extension } from '@codemirror/state';
import { placeholder } from '@codemirror/view';
import { instance as vizInstance } from '@viz-js/viz';
import { basicSetup, EditorView } from 'codemirror';
import { datalog } from './datalog-mode.js';
import { kernelExtensions, loadText } from './kernel-editor.js';
import type { FactTable, Finding, Request, Response, TextChange } from './protocol.js';
import { stateFromHash, stateToHash } from './state.js';

const examples = import.meta.glob('../../examples/*.py', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
const exampleNames = Object.keys(examples).sort();
/** The kernel's file name in findings (the worker's). */
const KERNEL_FILE = 'kernel.py';
const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
let nextId = 1;
let lastAnalyze = 0;
let lastExplain = 0;
let lastFix = 0;
/** The kernel and rules of the analysis on show (fixes apply to exactly this text). */
let shown: { kernel: string; rules: string; applyChanges: TextChange[]; diff: string } | undefined;
/** The kernel of each analysis or fix request on its way, by id. */
const asked = new Map<number, { kernel: string; rules: string }>();
let analysedCount = 0;
/** Analyses the worker stopped (replaced by newer ones before they finished). */
let stoppedCount = 0;
/** What the status line adds to the next result (the fix just applied). */
let afterNote = '';
const started = performance.now();

/** The example shown when the link holds no kernel: a racy one (its findings and fixes show at once). */
const DEFAULT_EXAMPLE = '../../examples/ring_allreduce.py';
const initial = (await stateFromHash(location.hash)) ?? {
  kernel: examples[DEFAULT_EXAMPLE] ?? examples[exampleNames[0]!] ?? '',
  rules: '',
};
$<HTMLInputElement>('as-written').checked = initial.asWritten === true;

function debounce(f: () => void, ms: number): () => void {
  let t: ReturnType<typeof setTimeout> | undefined;
  return () => {
    if (t) clearTimeout(t);
    t = setTimeout(f, ms);
  };
}

const scheduleAnalyze = debounce(() => analyze(), 250);
const scheduleExplain = debounce(() => explainCursor(), 150);

const onChange = (explainToo: boolean): Extension =>
  EditorView.updateListener.of((u) => {
    if (u.docChanged) scheduleAnalyze();
    if (explainToo && (u.selectionSet || u.docChanged)) scheduleExplain();
  });

const kernelView = new EditorView({
  state: EditorState.create({ doc: initial.kernel, extensions: [basicSetup, kernelExtensions(initial.kernel), onChange(true)] }),
  parent: $('kernel'),
});
const rulesView = new EditorView({
  state: EditorState.create({
    doc: initial.rules,
    extensions: [
      basicSetup,
      datalog,
      EditorView.lineWrapping,
      placeholder(
        '// Rules added to the shipped ones, e.g.\n//   wait_op("pld.system.ttest").\n// extends InsertCommFence: ttest then needs its cacheinvalid.',
      ),
      onChange(false),
    ],
  }),
  parent: $('rules'),
});

function post(r: Request): void {
  worker.postMessage(r);
}

function analyze(): void {
  lastAnalyze = nextId++;
  const kernel = kernelView.state.doc.toString();
  const rules = rulesView.state.doc.toString();
  const asWritten = $<HTMLInputElement>('as-written').checked;
  const id = lastAnalyze;
  void stateToHash({ kernel, rules, asWritten }).then((hash) => {
    if (id === lastAnalyze) history.replaceState(null, '', hash);
  });
  $('status').textContent = 'analysing…';
  asked.set(lastAnalyze, { kernel, rules });
  post({ kind: 'analyze', id: lastAnalyze, kernel, rules, asWritten });
}

function explainCursor(): void {
  lastExplain = nextId++;
  const head = kernelView.state.selection.main.head;
  post({ kind: 'explain', id: lastExplain, line: kernelView.state.doc.lineAt(head).number });
}

worker.onmessage = (ev: MessageEvent<Response>) => {
  const r = ev.data;
  if (r.kind === 'explained') {
    if (r.id === lastExplain) $('explain').textContent = r.text;
    return;
  }
  if (r.kind === 'fixed') {
    const req = asked.get(r.id);
    asked.delete(r.id);
    if (r.id === lastFix && req) applyKernelChanges(req.kernel, r.changes, 'fix');
    return;
  }
  if (r.kind === 'progress') {
    if (r.id !== lastAnalyze) return;
    const bar = $<HTMLProgressElement>('progress');
    bar.hidden = false;
    bar.max = r.total;
    bar.value = r.done;
    $('status').textContent = `analysing… ${r.done + 1}/${r.total}: ${r.what}`;
    return;
  }
  const req = asked.get(r.id);
  asked.delete(r.id);
  if (r.id !== lastAnalyze || !req) return; // a newer analysis is on its way
  $('progress').hidden = true;
  if (r.kind === 'failed') {
    $('status').textContent = `internal error: ${r.message}`;
    return;
  }
  analysedCount++;
  const first = analysedCount === 1 ? `, first result ${Math.round(performance.now() - started)} ms after load` : '';
  stoppedCount += r.stopped;
  const reuse = r.cached
    ? ' (the same text analysed before)'
    : r.programs.cached > 0
      ? ` (${r.programs.cached} of ${r.programs.total} program(s) unchanged, not audited again)`
      : '';
  $('status').textContent = `${r.findings.length} finding(s), analysed in ${Math.round(r.ms)} ms${first}${reuse}${afterNote}`;
  afterNote = '';
  document.body.dataset['stopped'] = String(stoppedCount);
  showFindings(r.findings);
  shown = { ...req, applyChanges: r.applyChanges, diff: r.diff ?? '' };
  $<HTMLButtonElement>('apply-all').disabled = r.applyChanges.length === 0;
  $<HTMLButtonElement>('copy-diff').disabled = shown.diff === '';
  showDiff(r.diff, r.applyError);
  void showGraph(r.dot);
  showFacts(r.facts);
  document.body.dataset['analysed'] = String(analysedCount);
  scheduleExplain();
};

/** The lint diagnostics of `findings` in an editor holding `doc` (offsets clamped to it). */
function lintOf(findings: Finding[], length: number): CmDiagnostic[] {
  return findings.map((f) => ({
    from: Math.min(f.from, length),
    to: Math.min(Math.max(f.to, f.from), length),
    severity: f.severity === 'note' ? 'info' : f.severity,
    source: f.code,
    message: f.fix ? `${f.message}\nfix: ${f.fix}` : f.message,
    ...(fixable(f) ? { actions: [{ name: 'Fix', apply: () => requestFix(f) }] } : {}),
  }));
}

function showFindings(findings: Finding[]): void {
  const inKernel = findings.filter((f) => f.file === KERNEL_FILE);
  kernelView.dispatch(setDiagnostics(kernelView.state, lintOf(inKernel, kernelView.state.doc.length)));
  rulesView.dispatch(
    setDiagnostics(
      rulesView.state,
      lintOf(
        findings.filter((f) => f.inRules),
        rulesView.state.doc.length,
      ),
    ),
  );
  const list = $('findings');
  list.replaceChildren();
  if (findings.length === 0) {
    const li = document.createElement('li');
    li.textContent = 'No findings: the contracts are met.';
    list.append(li);
  }
  for (const f of findings) {
    const li = document.createElement('li');
    li.dataset['code'] = f.code;
    const loc = document.createElement('span');
    loc.className = `loc sev-${f.severity}`;
    loc.textContent = `${f.file === KERNEL_FILE ? '' : `${f.file}:`}${f.line}:${f.col}`;
    const head = document.createElement('span');
    head.className = `sev-${f.severity}`;
    head.textContent = ` ${f.severity}[${f.code}]`;
    li.append(loc, head, ` ${f.message}`);
    if (f.fix) {
      const fix = document.createElement('span');
      fix.className = 'fix';
      fix.textContent = `fix: ${f.fix}`;
      li.append(fix);
    }
    if (fixable(f)) {
      const button = document.createElement('button');
      button.className = 'fix-button';
      button.textContent = 'Fix';
      button.title = "Apply this finding's fix to the kernel (Ctrl+Z undoes it)";
      button.onclick = (ev) => {
        ev.stopPropagation();
        requestFix(f);
      };
      li.append(button);
    }
    // A click shows the place: in the kernel, or in the rules editor.
    const view = f.file === KERNEL_FILE ? kernelView : f.inRules ? rulesView : undefined;
    if (view) {
      li.onclick = () => {
        view.dispatch({ selection: { anchor: Math.min(f.from, view.state.doc.length) }, scrollIntoView: true });
        view.focus();
      };
    } else li.classList.add('elsewhere');
    list.append(li);
  }
}

/** Whether a finding has a quick fix: its pass derives one at its start. */
const fixable = (f: Finding): boolean => f.fixable && f.pass !== '' && f.file === KERNEL_FILE;

/** Asks the worker for the quick fix of `f` on the analysed kernel (which must still be the editor's text). */
function requestFix(f: Finding): void {
  if (!shown || shown.kernel !== kernelView.state.doc.toString()) {
    $('status').textContent = 'the kernel changed since this analysis: fix it once the new one is shown';
    return;
  }
  lastFix = nextId++;
  asked.set(lastFix, { kernel: shown.kernel, rules: shown.rules });
  post({ kind: 'fix', id: lastFix, kernel: shown.kernel, rules: shown.rules, pass: f.pass, start: f.from });
}

/** Applies `changes` (computed on `kernel`) to the editor as one undoable step, if it still holds `kernel`. */
function applyKernelChanges(kernel: string, changes: TextChange[], what: string): void {
  const state = kernelView.state;
  if (state.doc.toString() !== kernel) {
    $('status').textContent = `the kernel changed meanwhile: ${what} not applied`;
    return;
  }
  if (changes.length === 0) {
    $('status').textContent = `no ${what} to apply here`;
    return;
  }
  const set = ChangeSet.of(changes, state.doc.length);
  kernelView.dispatch({
    changes: set,
    userEvent: 'input.fix',
    annotations: isolateHistory.of('full'),
    effects: EditorView.scrollIntoView(set.mapPos(changes[0]!.from, 1), { y: 'center' }),
  });
  $('status').textContent = `${what} applied (Ctrl+Z undoes it)`;
  afterNote = ` · ${what} applied (Ctrl+Z undoes it)`;
}

function showDiff(diff: string | undefined, error: string | undefined): void {
  const pre = $('diff');
  pre.replaceChildren();
  if (diff === undefined) {
    pre.textContent = `apply refuses to rewrite this kernel:\n\n${error ?? ''}`;
    return;
  }
  if (diff === '') {
    pre.textContent = 'apply changes nothing.';
    return;
  }
  for (const line of diff.split('\n')) {
    const span = document.createElement('span');
    span.className =
      line.startsWith('+') && !line.startsWith('+++')
        ? 'diff-add'
        : line.startsWith('-') && !line.startsWith('---')
          ? 'diff-del'
          : line.startsWith('@@')
            ? 'diff-hunk'
            : '';
    span.textContent = `${line}\n`;
    pre.append(span);
  }
}

const viz = vizInstance();
let graphSeq = 0;
async function showGraph(dot: string): Promise<void> {
  const seq = ++graphSeq;
  const box = $('graph');
  if (dot === '') {
    box.textContent = 'No graph: the kernel has errors.';
    return;
  }
  try {
    // Graphviz sizes boxes with the metrics of fonts it knows: Courier for the monospace labels
    // (the page then draws them in any monospace font, all 0.6em wide).
    const svg = (await viz).renderSVGElement(dot.replace(/fontname="monospace"/g, 'fontname="Courier"'));
    if (seq === graphSeq) box.replaceChildren(svg);
  } catch (e) {
    if (seq === graphSeq) box.textContent = `Graphviz could not render the graph: ${e instanceof Error ? e.message : String(e)}`;
  }
}

function showFacts(tables: FactTable[]): void {
  const box = $('facts');
  box.replaceChildren();
  for (const t of tables) {
    const details = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = `${t.name}(${t.columns.join(', ')}) — ${t.rows.length} row(s)`;
    details.append(summary);
    details.addEventListener('toggle', () => {
      if (!details.open || details.querySelector('table')) return;
      const table = document.createElement('table');
      const head = table.createTHead().insertRow();
      for (const c of t.columns) head.append(Object.assign(document.createElement('th'), { textContent: c }));
      const body = table.createTBody();
      for (const row of t.rows) {
        const tr = body.insertRow();
        for (const v of row) tr.insertCell().textContent = String(v);
      }
      details.append(table);
    });
    box.append(details);
  }
}

// Examples menu: it shows the example loaded (until another text is loaded).
const select = $<HTMLSelectElement>('examples');
select.append(new Option('(choose a shipped example)', ''));
for (const name of exampleNames) select.append(new Option(name.split('/').pop()!, name));
/** Shows in the menu the example whose text `kernel` is, or none. */
const showExample = (kernel: string): void => {
  select.value = exampleNames.find((n) => examples[n] === kernel) ?? '';
};
showExample(initial.kernel);
select.onchange = () => {
  const text = examples[select.value];
  if (text === undefined) return;
  kernelView.dispatch(loadText(kernelView, text));
};

// Tabs.
for (const button of document.querySelectorAll<HTMLButtonElement>('nav button')) {
  button.onclick = () => {
    for (const b of document.querySelectorAll<HTMLButtonElement>('nav button')) {
      const on = b === button;
      b.setAttribute('aria-selected', String(on));
      $(`panel-${b.dataset['tab']!}`).hidden = !on;
    }
  };
}

window.addEventListener('hashchange', async () => {
  const s = await stateFromHash(location.hash);
  if (!s) return;
  showExample(s.kernel);
  const box = $<HTMLInputElement>('as-written');
  const stageChanged = box.checked !== (s.asWritten === true);
  box.checked = s.asWritten === true;
  const textChanged = s.kernel !== kernelView.state.doc.toString() || s.rules !== rulesView.state.doc.toString();
  if (s.kernel !== kernelView.state.doc.toString()) kernelView.dispatch(loadText(kernelView, s.kernel));
  if (s.rules !== rulesView.state.doc.toString())
    rulesView.dispatch({ changes: { from: 0, to: rulesView.state.doc.length, insert: s.rules } });
  if (stageChanged && !textChanged) analyze();
});

$('as-written').addEventListener('change', () => analyze());
$('apply-all').addEventListener('click', () => {
  if (!shown || shown.kernel !== kernelView.state.doc.toString()) {
    $('status').textContent = 'the kernel changed since this analysis: apply once the new one is shown';
    return;
  }
  applyKernelChanges(shown.kernel, shown.applyChanges, 'apply all');
});
$('copy-diff').addEventListener('click', () => {
  const text = shown?.diff ?? '';
  if (text === '') return;
  navigator.clipboard.writeText(text).then(
    () => ($('status').textContent = 'diff copied'),
    () => ($('status').textContent = 'the browser refused the clipboard: select the diff and copy it'),
  );
});
analyze();
