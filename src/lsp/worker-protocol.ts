/** The messages between the language server and its analysis thread (analysis-worker.ts). */

import type { ConstValue } from '../ir/nodes.js';
import type { AuditStage } from '../passes/analyze.js';
import type { WireBundle } from '../report/wire.js';
import type { CacheSpec } from '../runner/rule-cache.js';

/** A document's settings as plain data (the thread finds the passes by name among contractsWith(ruleDirs)). */
export interface WireSettings {
  passes: string[];
  ruleDirs: string[];
  defines: [string, ConstValue][];
  stage?: AuditStage;
  importRoots?: string[];
}

/** Analyse a document's text (a newer request for the same uri replaces it). */
export interface AnalysisRequest {
  kind: 'analyse';
  id: number;
  uri: string;
  path: string;
  text: string;
  settings: WireSettings;
  salt: string;
  /** Bumped when rule files change: the thread loads the rules again. */
  rulesGeneration: number;
  /** The directory rule paths are shown relative to. */
  base: string;
  /** Where compiled rule programs are cached (ServerOptions.cacheSpec). */
  cacheSpec?: CacheSpec;
}

/**
 * Before any document: load the rules of these settings and run them once over a small kernel
 * (warm.ts), so that the first document's analysis finds them loaded and the engine's code
 * compiled. Given up as soon as a request comes, and not run once a document has been analysed.
 */
export interface WarmMessage {
  kind: 'warm';
  path: string;
  settings: WireSettings;
  rulesGeneration: number;
  base: string;
  cacheSpec?: CacheSpec;
}

/** The document was closed: drop its cache and pending requests. */
export interface CloseMessage {
  kind: 'close';
  uri: string;
}

export type WorkerMessage = AnalysisRequest | CloseMessage | WarmMessage;

/** The outcome of a request (none for a request made stale by a newer one), or a warm-up run to its end. */
export type AnalysisReply =
  | { kind: 'result'; id: number; uri: string; passes: string[]; findings: WireBundle; analysed: number; total: number }
  | { kind: 'failed'; id: number; uri: string; message: string }
  | { kind: 'warmed' };
