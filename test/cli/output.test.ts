import { describe, expect, it } from 'vitest';
import { Progress, statistics, thresholdExit, useColor } from '../../src/cli/output.js';
import type { Diagnostic } from '../../src/index.js';

describe('progress line', () => {
  const capture = (): { io: { stdout: (t: string) => void; stderr: (t: string) => void }; text: () => string } => {
    let err = '';
    return { io: { stdout: () => {}, stderr: (t) => (err += t) }, text: () => err };
  };

  it('appears only after a second, on a terminal, and is erased at the end', () => {
    let t = 0;
    const c = capture();
    const p = new Progress(c.io, 3, true, () => t);
    p.tick(1);
    expect(c.text()).toBe('');
    t = 1500;
    p.tick(2);
    expect(c.text()).toBe('\rptolog: 2/3 files\x1b[K');
    p.end();
    expect(c.text()).toBe('\rptolog: 2/3 files\x1b[K\r\x1b[K');
  });

  it('never appears when disabled (not a terminal, --quiet)', () => {
    let t = 0;
    const c = capture();
    const p = new Progress(c.io, 3, false, () => t);
    t = 5000;
    p.tick(3);
    p.end();
    expect(c.text()).toBe('');
  });
});

describe('thresholds and colour', () => {
  const d = (severity: Diagnostic['severity']): Diagnostic => ({ severity, code: 'c', message: 'm' });
  it('fail-on and max-warnings', () => {
    expect(thresholdExit([d('note')], 'warning', undefined)).toBe(0);
    expect(thresholdExit([d('note')], 'note', undefined)).toBe(1);
    expect(thresholdExit([d('warning'), d('warning')], 'error', 1)).toBe(1);
    expect(thresholdExit([d('warning')], 'error', 1)).toBe(0);
  });
  it('NO_COLOR only matters for auto', () => {
    expect(useColor('auto', true, {})).toBe(true);
    expect(useColor('auto', true, { NO_COLOR: '1' })).toBe(false);
    expect(useColor('auto', true, { NO_COLOR: '' })).toBe(true);
    expect(useColor('auto', false, {})).toBe(false);
    expect(useColor('always', false, { NO_COLOR: '1' })).toBe(true);
    expect(useColor('never', true, {})).toBe(false);
  });
  it('statistics: most frequent first', () => {
    expect(statistics([d('warning'), { ...d('error'), code: 'b' }, d('warning')])).toBe('2  c (warning)\n1  b (error)');
  });
});
