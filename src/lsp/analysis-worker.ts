// The language server's analysis thread: audits documents (auditUnitsSteps) off the thread
// that answers the editor, so that hover and code actions never wait behind an analysis. Between
// steps it reads its control port synchronously: a newer request for the same document (or a
// close) cancels the one in progress, whose result is never sent.
// This file is a thread's entry, as src/cli/ is the process's: the module-level state below (rule
// session, queue, port) is the thread's own and stays here (scripts/check-imports.mjs allows it in
// this file only); the modules it calls take everything as arguments.
import { type MessagePort, parentPort, receiveMessageOnPort } from 'node:worker_threads';
import { contractsWith, type PassSpec } from '../passes/registry.js';
import { RuleSession } from '../passes/rule-session.js';
import { toWire } from '../report/wire.js';
import { auditUnitsSteps, type ProgramCache } from '../runner/incremental.js';
import { withPrebuiltPlans } from '../runner/prebuilt-plans.js';
import { ruleCacheOf } from '../runner/rule-cache.js';
import { runnerOf } from './analysis.js';
import type { LspSettings } from './settings.js';
import { WARM_KERNEL } from './warm.js';
import type { AnalysisReply, AnalysisRequest, WarmMessage, WireSettings, WorkerMessage } from './worker-protocol.js';

/** The settings a request carries, with its passes found by name. */
function settingsOf(w: WireSettings): LspSettings {
  const all = contractsWith(w.ruleDirs);
  const passes = w.passes.map((n) => all.find((p) => p.name === n)).filter((p): p is PassSpec => p !== undefined);
  return {
    passes,
    ruleDirs: w.ruleDirs,
    defines: new Map(w.defines),
    ...(w.stage !== undefined ? { stage: w.stage } : {}),
    ...(w.importRoots !== undefined ? { importRoots: w.importRoots } : {}),
  };
}

const caches = new Map<string, ProgramCache>();
let session: RuleSession | undefined;
let generation = -1;
/** Requests received, newest last per document (the older ones for a document are dropped). */
const queue: AnalysisRequest[] = [];
/** The warm-up asked for and not run yet (run only while no request waits). */
let warmup: WarmMessage | undefined;
let port: MessagePort | undefined;
/** Whether a document has been analysed (the warm-up is then given up). */
let analysedAny = false;

/** Takes the control messages waiting on the port: queues requests, forgets closed documents. */
function drain(): void {
  if (!port) return;
  for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) take(m.message as WorkerMessage);
}

function take(m: WorkerMessage): void {
  if (m.kind === 'warm') {
    // (After a document's analysis the rules are loaded: a warm-up would only repeat work.)
    if (!analysedAny) warmup = m;
    return;
  }
  if (m.kind === 'close') {
    caches.delete(m.uri);
    for (let i = queue.length - 1; i >= 0; i--) if (queue[i]!.uri === m.uri) queue.splice(i, 1);
    return;
  }
  for (let i = queue.length - 1; i >= 0; i--) if (queue[i]!.uri === m.uri) queue.splice(i, 1);
  queue.push(m);
}

/** The rule session of a request's rules generation (a new one when the rules changed). */
function sessionOf(r: AnalysisRequest | WarmMessage): RuleSession {
  if (r.rulesGeneration !== generation || !session) {
    session = withPrebuiltPlans(new RuleSession(r.base, r.cacheSpec ? ruleCacheOf(r.cacheSpec) : undefined), r.cacheSpec);
    generation = r.rulesGeneration;
  }
  return session;
}

/** Audits the warm-up kernel with `w`'s settings, nothing kept but the loaded rules; stops when a request comes. */
function warm(w: WarmMessage): void {
  try {
    const s = sessionOf(w);
    const steps = auditUnitsSteps(() => runnerOf(settingsOf(w.settings), s), WARM_KERNEL, w.path, '');
    for (let step = steps.next(); !step.done; step = steps.next()) {
      drain();
      if (queue.length > 0) return;
    }
    port!.postMessage({ kind: 'warmed' } satisfies AnalysisReply);
  } catch {
    // (The first request reports what went wrong, analysing its own document.)
  }
}

function run(r: AnalysisRequest): void {
  analysedAny = true;
  warmup = undefined;
  sessionOf(r);
  queue.splice(queue.indexOf(r), 1);
  try {
    const steps = auditUnitsSteps(() => runnerOf(settingsOf(r.settings), session!), r.text, r.path, r.salt, caches.get(r.uri));
    let step = steps.next();
    while (!step.done) {
      drain();
      if (queue.some((q) => q.uri === r.uri)) return; // a newer text: this one is stale
      step = steps.next();
    }
    caches.set(r.uri, step.value.cache);
    const passes = step.value.findings.map((f) => f.pass);
    const reply: AnalysisReply = {
      kind: 'result',
      id: r.id,
      uri: r.uri,
      passes,
      findings: toWire(step.value.findings.map((f) => f.diagnostic)),
      analysed: step.value.analysed,
      total: step.value.total,
    };
    port!.postMessage(reply);
  } catch (e) {
    const reply: AnalysisReply = { kind: 'failed', id: r.id, uri: r.uri, message: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    port!.postMessage(reply);
  }
}

/** Runs the queued requests one by one, reading new ones in between. */
function pump(): void {
  drain();
  const next = queue[0];
  if (!next) {
    const w = warmup;
    warmup = undefined;
    if (w) warm(w);
    if (queue.length > 0) setImmediate(pump);
    return;
  }
  run(next);
  setImmediate(pump);
}

parentPort?.once('message', (m: { port: MessagePort }) => {
  port = m.port;
  port.on('message', (msg: WorkerMessage) => {
    take(msg);
    setImmediate(pump);
  });
});
