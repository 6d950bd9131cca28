import type { Diagnostic, Severity } from '../report/diagnostic.js';
import type { CliIO } from './io.js';

/** `--color`: auto colours a terminal unless NO_COLOR is set; always / never force it. */
export type ColorMode = 'auto' | 'always' | 'never';

/**
 * Whether to colour a stream: `always` / `never` as said; `auto` colours when FORCE_COLOR is set
 * (and not `0` or `false`), else a terminal unless NO_COLOR is set.
 */
export function useColor(mode: ColorMode, isTTY: boolean | undefined, env: CliIO['env']): boolean {
  if (mode !== 'auto') return mode === 'always';
  const force = env?.['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  const noColor = env?.['NO_COLOR'];
  return isTTY === true && (noColor === undefined || noColor === '');
}

const SGR = { bold: [1, 22], red: [31, 39], yellow: [33, 39], cyan: [36, 39] } as const;

/** `text` in the given styles (ANSI escapes written here: the caller has decided to colour). */
function styleText(styles: keyof typeof SGR | (keyof typeof SGR)[], text: string): string {
  const list = Array.isArray(styles) ? styles : [styles];
  return `${list.map((s) => `\x1b[${SGR[s][0]}m`).join('')}${text}${list
    .map((s) => `\x1b[${SGR[s][1]}m`)
    .reverse()
    .join('')}`;
}

const SEVERITY_STYLE: Record<Severity, 'red' | 'yellow' | 'cyan'> = { error: 'red', warning: 'yellow', note: 'cyan' };

/** Colours the header lines (`file:line:col: severity[code]: message`) and carets of rendered diagnostics. */
export function colorize(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const h = /^(\S.*?): (error|warning|note)\[([^\]]+)\]: (.*)$/.exec(line);
      if (h) {
        const sev = h[2] as Severity;
        return `${styleText('bold', h[1]!)}: ${styleText(['bold', SEVERITY_STYLE[sev]], `${sev}[${h[3]}]`)}: ${h[4]}`;
      }
      if (/^ +\| *\^+$/.test(line)) return line.replace(/\^+/, (c) => styleText('red', c));
      return line;
    })
    .join('\n');
}

const RANK: Record<Severity, number> = { note: 0, warning: 1, error: 2 };

/** Exit 1 when a finding is at least `failOn` severe or there are more than `maxWarnings` warnings; else 0. */
export function thresholdExit(ds: readonly Diagnostic[], failOn: Severity, maxWarnings: number | undefined): number {
  if (ds.some((d) => RANK[d.severity] >= RANK[failOn])) return 1;
  if (maxWarnings !== undefined && ds.filter((d) => d.severity === 'warning').length > maxWarnings) return 1;
  return 0;
}

/** `--statistics`: one line per code, most frequent first: count, code, severity. */
export function statistics(ds: readonly Diagnostic[]): string {
  const counts = new Map<string, { n: number; severity: Severity }>();
  for (const d of ds) {
    const c = counts.get(d.code) ?? { n: 0, severity: d.severity };
    c.n++;
    if (RANK[d.severity] > RANK[c.severity]) c.severity = d.severity;
    counts.set(d.code, c);
  }
  const rows = [...counts].sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]));
  const w = Math.max(1, ...rows.map(([, c]) => String(c.n).length));
  return rows.map(([code, c]) => `${String(c.n).padStart(w)}  ${code} (${c.severity})`).join('\n');
}

/**
 * A progress line on a terminal's stderr (`ptolog: 12/40 files`), shown only once a run has
 * taken more than a second; cleared when the run ends.
 */
export class Progress {
  private readonly started: number;
  private shown = false;

  constructor(
    private readonly io: CliIO,
    private readonly total: number,
    private readonly enabled: boolean,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  /** Called after each finished file. */
  tick(done: number): void {
    if (!this.enabled || this.total < 2 || this.now() - this.started < 1000) return;
    this.shown = true;
    this.io.stderr(`\rptolog: ${done}/${this.total} files\x1b[K`);
  }

  /** Removes the line. */
  end(): void {
    if (this.shown) this.io.stderr('\r\x1b[K');
  }
}
