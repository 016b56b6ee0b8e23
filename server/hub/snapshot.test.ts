import { describe, expect, it } from 'vitest';
import { makeSample } from '../../lib/test-fixtures';
import { SharedSnapshot, SNAPSHOT_POINTS, thinForSnapshot, type Covered } from './snapshot';

describe('snapshot size', () => {
  it('stays near 3 MB with 30 runs of 20,000 samples each, keeping every run’s first and last sample', () => {
    const runs = new Map(
      Array.from({ length: 30 }, (_, r) => [`r-${r}`, Array.from({ length: 20_000 }, (_, i) => makeSample({ t: i * 50, at: 1e12 + i * 50 }))]),
    );
    const thin = thinForSnapshot(runs);
    const bytes = Buffer.byteLength(JSON.stringify(thin));
    expect(bytes).toBeLessThan(4 * 2 ** 20);
    const total = Object.values(thin).reduce((n, s) => n + s.length, 0);
    expect(total).toBeLessThanOrEqual(SNAPSHOT_POINTS);
    for (const [id, series] of runs) {
      expect(thin[id][0]).toBe(series[0]);
      expect(thin[id].at(-1)).toBe(series.at(-1));
    }
  });

  it('leaves short series whole', () => {
    const runs = new Map([
      ['a', [makeSample({ t: 0 }), makeSample({ t: 50 })]],
      ['b', []],
    ]);
    expect(thinForSnapshot(runs)).toEqual({ a: runs.get('a'), b: [] });
  });
});

describe('shared snapshot', () => {
  function counting() {
    let builds = 0;
    let now = 0;
    const shared = new SharedSnapshot(
      () => {
        builds += 1;
        return {
          message: { type: 'data.progress', data: { lab: 'streams', unit: 'bytes', sizeBytes: builds, writtenBytes: 0, state: 'ready', message: null } },
          covered: new Map() as Covered,
        };
      },
      1000,
      () => now,
    );
    return { shared, builds: () => builds, advance: (ms: number) => (now += ms) };
  }

  it('builds once for many requests, and rebuilds after new samples only once it is a second old', () => {
    const c = counting();
    const first = c.shared.get();
    expect(c.shared.get()).toBe(first);
    c.shared.invalidate('series');
    c.advance(500);
    expect(c.shared.get()).toBe(first);
    c.advance(500);
    expect(c.shared.get()).not.toBe(first);
    expect(c.builds()).toBe(2);
  });

  it('rebuilds at once after a change of structure (a run queued or ended), and after being released', () => {
    const c = counting();
    c.shared.get();
    c.shared.invalidate('structure');
    c.shared.get();
    expect(c.builds()).toBe(2);
    c.shared.release();
    c.shared.get();
    expect(c.builds()).toBe(3);
  });
});
