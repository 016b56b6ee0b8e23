import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareFigure, compareWithBaseline, direction, readBaseline, repeatStats } from './baseline';
import { makeSummary } from '../../lib/test-fixtures';

const where = (figure: string, unit: 'ms' | 'bytes' | 'count' = 'ms') => ({ strategy: 'pipeline-generator', nodeVersion: '20.20.2', figure, unit });

describe('comparing with a baseline', () => {
  it('five runs against five: a clear shift past the tolerance is a regression, the reverse an improvement', () => {
    const before = [100, 104, 98, 101, 99];
    const slower = compareFigure(where('durationMs'), before, [130, 128, 135, 131, 127], 0.1);
    expect(slower).toMatchObject({ rule: 'mann-whitney', change: 'regression' });
    expect(slower.p).toBeLessThan(0.05);
    expect(slower.message).toMatch(/^pipeline-generator: durationMs REGRESSION: median 130\.0 ms against 100\.0 ms \(\+30\.0%; Mann–Whitney p = 0\.0079/);
    expect(compareFigure(where('durationMs'), before, [70, 72, 69, 71, 75], 0.1).change).toBe('improvement');
  });

  it('no change: the same spread again, a sure but small shift, a shift under the floor, or a figure nobody ranks', () => {
    expect(compareFigure(where('durationMs'), [100, 104, 98, 101, 99], [103, 97, 100, 99, 102], 0.1).change).toBe('no change');
    // Every run 5 % slower: the test is sure (p < 0.05), but 5 % is within the 10 % tolerance.
    expect(compareFigure(where('durationMs'), [100, 101, 102, 103, 104], [105, 106, 107, 108, 109], 0.1)).toMatchObject({ change: 'no change' });
    // +22 % of GC time, but 1.1 ms: under the 5 ms floor.
    expect(compareFigure(where('gc.totalMs'), [4.6, 4.7, 4.7, 4.8, 4.5], [5.8, 5.9, 5.7, 5.8, 6.0], 0.1).change).toBe('no change');
    // A count with no better direction (chunks) is "changed", never a regression.
    expect(compareFigure(where('chunks', 'count'), [10, 10, 10, 10, 10], [20, 20, 20, 20, 20], 0.1).change).toBe('changed');
  });

  it('from a baseline median of 0, any change past the floor counts, whatever the tolerance', () => {
    const late = { ...where('late', 'count') };
    expect(compareFigure(late, [0, 0, 0, 0, 0], [3, 4, 2, 5, 3], 10)).toMatchObject({ change: 'regression' });
    expect(compareFigure(late, [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], 10)).toMatchObject({ change: 'no change' });
  });

  it('fewer than five runs a side: outside the baseline min–max widened by the tolerance', () => {
    const before = [100, 120];
    expect(compareFigure(where('durationMs'), before, [125, 130], 0.1)).toMatchObject({ rule: 'range', p: null, change: 'no change' }); // 127.5 ≤ 132
    expect(compareFigure(where('durationMs'), before, [140, 150], 0.1).change).toBe('regression');
    expect(compareFigure(where('durationMs'), before, [60, 70], 0.1).change).toBe('improvement');
  });

  it('knows which way is worse', () => {
    expect(direction('rss.peak', 'bytes')).toBe(1);
    expect(direction('latencyP99Ms', 'ms')).toBe(1);
    expect(direction('reqPerSec', 'count')).toBe(-1);
    expect(direction('mbPerSec', 'count')).toBe(-1);
    expect(direction('badResponses', 'count')).toBe(1);
    expect(direction('rows', 'count')).toBe(0);
  });

  it('compares each strategy with its own baseline runs, by Node major, skipping stopped runs and strategies the baseline lacks', () => {
    const run = (strategy: string, durationMs: number, nodeVersion = '20.20.2', outcome: 'completed' | 'stopped' = 'completed') =>
      makeSummary({ strategy, durationMs, nodeVersion, outcome, runId: `${strategy}-${durationMs}-${Math.random()}` });
    const before = [run('for-await', 100, '20.19.0'), run('for-await', 110, '20.19.0')];
    const now = [run('for-await', 300), run('for-await', 320), run('for-await', 1, '20.20.2', 'stopped'), run('rxjs-from', 50)];
    const { comparisons: cmp, missing } = compareWithBaseline('streams', now, before, 0.1);
    expect(new Set(cmp.map((c) => c.strategy))).toEqual(new Set(['for-await']));
    expect(missing).toEqual(['rxjs-from on Node 20.20.2']);
    // The same strategy on another Node major has nothing to compare with: said, not silently dropped.
    expect(compareWithBaseline('streams', [run('for-await', 300, '22.23.0')], before, 0.1)).toEqual({
      comparisons: [],
      missing: ['for-await on Node 22.23.0'],
    });
    const duration = cmp.find((c) => c.figure === 'durationMs')!;
    expect(duration).toMatchObject({ change: 'regression', rule: 'range' });
    expect(duration.current.n).toBe(2); // the stopped run is not counted
    expect(compareWithBaseline('streams', now, before, 0.1, ['durationMs', 'rss.peak']).comparisons.map((c) => c.figure)).toEqual(['durationMs', 'rss.peak']);
    const stats = repeatStats('streams', now);
    expect(stats.find((s) => s.strategy === 'for-await' && s.figure === 'durationMs')!.stats).toMatchObject({ n: 2, median: 310, min: 300, max: 320 });
  });

  describe('reading a baseline file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stream-lab-baseline-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };

    it('takes a --json output back, extra fields and all', () => {
      const path = file('ok.json', JSON.stringify([{ ...makeSummary(), round: 1, checks: [] }]));
      expect(readBaseline(path, 'streams')).toHaveLength(1);
    });

    it.each([
      ['missing.json', null, /missing\.json: no such file$/],
      ['bad.json', '{', /bad\.json: not JSON \(/],
      ['empty.json', '[]', /empty\.json: must be the JSON array `npm run bench -- --json` prints, with at least one run/],
      ['notruns.json', '[{"strategy":"x"}]', /notruns\.json: run 1 is not a run summary \(/],
    ])('refuses %s naming the file and what is wrong', (name, text, message) => {
      const path = text === null ? join(dir, name) : file(name, text);
      expect(() => readBaseline(path, 'streams')).toThrow(message);
    });

    it("refuses another lab's runs", () => {
      const path = file('streams.json', JSON.stringify([makeSummary()]));
      expect(() => readBaseline(path, 'http')).toThrow(/streams\.json: run 1 is of the streams lab, not http/);
    });
  });
});
