/** The frontier's points and lines: which runs are drawn, which are joined, in what order. */
import { describe, expect, it } from 'vitest';
import { MIB } from '@/lib/protocol/params';
import { makeSummary } from '@/lib/test-fixtures';
import type { Measured } from '@/lib/protocol';
import type { StreamsSummary } from '../shared/schema';
import { frontierOf, sweepKey } from './frontier';

type Run = { strategy: string; concurrency: number | null; recordsPerSec: number; abMb: number; params?: Partial<StreamsSummary['params']> } & Partial<
  Omit<Measured<StreamsSummary>, 'concurrency' | 'recordsPerSec' | 'params'>
>;

/** A finished 4 MB, 2 ms run of `strategy` at `concurrency`, with its rate and peak arrayBuffers (MB). */
function run({ strategy, concurrency, recordsPerSec, abMb, params, ...rest }: Run, i = 0): Measured<StreamsSummary> {
  return makeSummary({
    runId: `r${strategy}-${concurrency}-${i}`,
    strategy,
    concurrency,
    recordsPerSec,
    peak: { arrayBuffers: abMb * MIB },
    params: { sizeMb: 4, delayMs: 2, concurrency: concurrency ?? 1, ...params },
    ...rest,
  });
}

const ORDER = ['for-await', 'readable-map', 'ixjs-flatMap'];

describe('frontierOf', () => {
  it('joins each strategy’s concurrency sweep in concurrency order, whatever order the runs came in', () => {
    const runs = [
      run({ strategy: 'ixjs-flatMap', concurrency: 4, recordsPerSec: 7000, abMb: 3 }),
      run({ strategy: 'readable-map', concurrency: 8, recordsPerSec: 9000, abMb: 6 }),
      run({ strategy: 'readable-map', concurrency: 1, recordsPerSec: 1800, abMb: 1 }),
      run({ strategy: 'ixjs-flatMap', concurrency: 1, recordsPerSec: 1700, abMb: 1.5 }),
      run({ strategy: 'readable-map', concurrency: 4, recordsPerSec: 6500, abMb: 2 }),
    ];
    const f = frontierOf(runs, ORDER);
    expect(f.series.map((s) => [s.strategy, s.points.length])).toEqual([
      ['readable-map', 3],
      ['ixjs-flatMap', 2],
    ]);
    expect(f.lines.map((l) => [l.strategy, l.vertices.map((v) => [v.concurrency, v.recordsPerSec, v.peakArrayBuffers / MIB])])).toEqual([
      [
        'readable-map',
        [
          [1, 1800, 1],
          [4, 6500, 2],
          [8, 9000, 6],
        ],
      ],
      [
        'ixjs-flatMap',
        [
          [1, 1700, 1.5],
          [4, 7000, 3],
        ],
      ],
    ]);
    expect(f.series[0].points[0]).toMatchObject({ runId: 'rreadable-map-8-0', concurrency: 8, consumer: 'sleep', sizeMb: 4, delayMs: 2, records: false });
  });

  it('does not join runs that differ by more than concurrency, nor runs of one concurrency', () => {
    const f = frontierOf([
      run({ strategy: 'readable-map', concurrency: 1, recordsPerSec: 1800, abMb: 1 }),
      run({ strategy: 'readable-map', concurrency: 4, recordsPerSec: 5000, abMb: 2, params: { consumer: 'http' } }),
      run({ strategy: 'readable-map', concurrency: 8, recordsPerSec: 9000, abMb: 6, params: { delayMs: 5 } }),
      // A sequential strategy ignores the knob: both its runs ran one call at a time.
      run({ strategy: 'for-await', concurrency: 1, recordsPerSec: 1500, abMb: 1, params: { concurrency: 1 } }),
      run({ strategy: 'for-await', concurrency: 1, recordsPerSec: 1550, abMb: 1, params: { concurrency: 4 } }),
    ]);
    expect(f.series.flatMap((s) => s.points)).toHaveLength(5);
    expect(f.lines).toEqual([]);
  });

  it('draws one vertex per concurrency at the mean of its repeated runs', () => {
    const f = frontierOf([
      run({ strategy: 'readable-map', concurrency: 1, recordsPerSec: 1000, abMb: 1 }, 0),
      run({ strategy: 'readable-map', concurrency: 1, recordsPerSec: 2000, abMb: 3 }, 1),
      run({ strategy: 'readable-map', concurrency: 2, recordsPerSec: 3000, abMb: 2 }),
    ]);
    expect(f.lines[0].vertices).toEqual([
      { concurrency: 1, recordsPerSec: 1500, peakArrayBuffers: 2 * MIB, runs: 2 },
      { concurrency: 2, recordsPerSec: 3000, peakArrayBuffers: 2 * MIB, runs: 1 },
    ]);
  });

  it('keeps runs that did not complete and unbounded ones as points off the line, and counts runs without records/s', () => {
    const f = frontierOf([
      run({ strategy: 'readable-map', concurrency: 1, recordsPerSec: 1800, abMb: 1 }),
      run({ strategy: 'readable-map', concurrency: 4, recordsPerSec: 6500, abMb: 2 }),
      run({ strategy: 'readable-map', concurrency: 8, recordsPerSec: 400, abMb: 900, outcome: 'out-of-memory' }),
      run({ strategy: 'readable-map', concurrency: null, recordsPerSec: 9900, abMb: 50 }),
      makeSummary({ strategy: 'readable-map' }),
    ]);
    expect(f.series[0].points.map((p) => [p.concurrency, p.outcome])).toEqual([
      [1, 'completed'],
      [4, 'completed'],
      [8, 'out-of-memory'],
      [null, 'completed'],
    ]);
    expect(f.lines[0].vertices.map((v) => v.concurrency)).toEqual([1, 4]);
    expect(f.withoutRecords).toBe(1);
  });
});

describe('sweepKey', () => {
  it('is the same for params recorded before the consumer knobs and params with them at their defaults', () => {
    const before = makeSummary({ strategy: 'readable-map' });
    const { consumer: _consumer, apiP99Ms: _p99, apiErrorRate: _rate, apiPool: _pool, dbBatchRows: _batch, concurrency: _c, ...old } = before.params;
    expect(sweepKey({ ...before, params: old })).toBe(sweepKey({ ...before, params: { ...before.params, records: false, concurrency: 16 } }));
    expect(sweepKey({ ...before, params: old })).not.toBe(sweepKey({ ...before, params: { ...before.params, records: true } }));
    expect(sweepKey(before)).not.toBe(sweepKey({ ...before, nodeVersion: '22.12.0' }));
  });
});
