import { describe, expect, it } from 'vitest';
import type { ModeCase, ModesReport } from './modes';
import { casesAcrossRuntimes, runtimesModesVerdict } from './modes-runtimes';

const mode = (id: string, flowing: ModeCase['flowing']): ModeCase => ({
  id,
  title: `case ${id}`,
  explanation: '',
  code: '',
  flowing,
  error: null,
  article: null,
});
const report = (nodeVersion: string, cases: ModeCase[]): ModesReport => ({ nodeVersion, helpers: '', cases, measuredAt: 0, durationMs: 1 });

describe('stream modes across runtimes', () => {
  it('marks the cases where a runtime measured another value, and names them with each value', () => {
    const reports = [report('20.20.2', [mode('a', true), mode('b', null)]), report('22.23.3', [mode('a', true), mode('b', false)])];
    expect(casesAcrossRuntimes(reports).map((c) => [c.id, c.differs])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    expect(runtimesModesVerdict(reports)).toBe(
      'Node 20.20.2, Node 22.23.3 disagree on 1 case: case b (Node 20.20.2: null (no mode yet), Node 22.23.3: false (paused)).',
    );
  });

  it('says when every runtime agrees, and when there is only one to compare', () => {
    const same = [report('20.20.2', [mode('a', true)]), report('24.21.0', [mode('a', true)])];
    expect(runtimesModesVerdict(same)).toBe('Node 20.20.2, Node 24.21.0 give the same readableFlowing in all 1 cases.');
    expect(runtimesModesVerdict(same.slice(0, 1))).toMatch(/^Only Node 20.20.2 is installed/);
  });
});
