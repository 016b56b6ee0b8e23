import { describe, expect, it } from 'vitest';
import { makeSample } from '@/lib/test-fixtures';
import { MAX_SAMPLES_PER_RUN } from '@/lib/series';
import { ChartColumns, maxOfLines, valueNear } from './line-columns';
import { EXTRA_SERIES, memorySpecs, metricLines, MEMORY_SERIES, sampleLines, viewLines } from './chart-lines';
import type { ProcSample } from '@/lib/protocol';
import { ArraySource, LiveFeed } from './sample-source';

const style = { color: '#000000', dash: [] };

describe('ChartColumns', () => {
  it('reads only the rows added since the last pull into typed columns', () => {
    const feed = new LiveFeed('r1');
    const columns = new ChartColumns(sampleLines(feed, MEMORY_SERIES));
    feed.append([makeSample({ t: 0, rss: 10 }), makeSample({ t: 50, rss: 20 })]);
    expect(columns.pull()[0].rows).toHaveLength(2);
    feed.append([makeSample({ t: 100, rss: 30 })]);
    expect(columns.pull()[0].rows).toHaveLength(1);
    expect(columns.pull()).toEqual([]);
    const [x, rss] = columns.aligned();
    expect([...x]).toEqual([0, 50, 100]);
    expect([...rss]).toEqual([10, 20, 30]);
    expect(columns.rowCount()).toBe(3);
  });

  it('starts over when the feed is thinned past the cap', () => {
    const feed = new LiveFeed('r1');
    const columns = new ChartColumns(sampleLines(feed, MEMORY_SERIES));
    feed.append(Array.from({ length: MAX_SAMPLES_PER_RUN }, (_, i) => makeSample({ t: i })));
    columns.pull();
    feed.append([makeSample({ t: MAX_SAMPLES_PER_RUN })]);
    columns.pull();
    expect(columns.rowCount()).toBe(feed.rows().length);
    expect(columns.rowCount()).toBeLessThan(MAX_SAMPLES_PER_RUN);
  });

  it('joins runs sampled at different times on one time axis, in line order', () => {
    const a = new ArraySource([makeSample({ t: 0, arrayBuffers: 1 }), makeSample({ t: 100, arrayBuffers: 3 })]);
    const b = new ArraySource([makeSample({ t: 40, arrayBuffers: 7 })]);
    const columns = new ChartColumns(
      metricLines(
        [
          { key: 'b', label: 'b', style, source: b },
          { key: 'a', label: 'a', style, source: a },
        ],
        'arrayBuffers',
      ),
    );
    columns.pull();
    const [x, first, second] = columns.aligned();
    expect([...x]).toEqual([0, 40, 100]);
    expect([...first]).toEqual([NaN, 7, NaN]);
    expect([...second]).toEqual([1, NaN, 3]);
    expect(maxOfLines(columns, new Set())).toBe(7);
    expect(maxOfLines(columns, new Set(['b']))).toBe(3);
  });

  it('treats a replaced array that does not extend the old one as new rows', () => {
    const source = new ArraySource([makeSample({ t: 0 }), makeSample({ t: 1 })]);
    const columns = new ChartColumns(sampleLines(source, MEMORY_SERIES));
    columns.pull();
    source.set([makeSample({ t: 5 })]);
    columns.pull();
    expect([...columns.aligned()[0]]).toEqual([5]);
  });
});

describe('valueNear', () => {
  it('returns the sample nearest in time', () => {
    const x = [0, 50, 100, 150];
    const y = [1, 2, 3, 4];
    expect(valueNear(x, y, 60)).toEqual({ t: 50, value: 2 });
    expect(valueNear(x, y, 80)).toEqual({ t: 100, value: 3 });
    expect(valueNear(x, y, 1000)).toEqual({ t: 150, value: 4 });
    expect(valueNear([], [], 10)).toBeNull();
    expect(valueNear([0], [NaN], 0)).toBeNull();
  });
});

describe('a blocked loop on a card', () => {
  // Child samples every 50 ms, then silent for 5 s (the loop held); /proc read every 50 ms throughout.
  const samples = [0, 50, 100, 5100, 5150].map((t) => makeSample({ t, at: 1_000_000 + t, rss: 100 + t, cpuPct: 90 }));
  const proc: ProcSample[] = Array.from({ length: 104 }, (_, i) => ({
    t: i * 50,
    at: 1_000_000 + i * 50,
    rss: 200 + i,
    cpuPct: 98,
    sinceSampleMs: i > 2 && i < 102 ? i * 50 - 100 : 10,
  }));

  it("draws every memory, CPU and delay view's readings from /proc beside the child's, which go on through the block", () => {
    const lines = viewLines(
      new ArraySource(samples),
      new ArraySource(proc),
      [...memorySpecs(['heapUsed', 'rss']), EXTRA_SERIES.cpuPct, EXTRA_SERIES.elMaxMs],
      50,
    );
    expect(lines.map((l) => l.key)).toEqual(['heapUsed', 'rss', 'procRss', 'cpuPct', 'procCpuPct', 'elMaxMs', 'blockedMs']);
    const columns = new ChartColumns(lines);
    columns.pull();
    // The chart holds the /proc rows too: it grows while the child is silent.
    expect(columns.rowCount()).toBe(samples.length + proc.length);
    const blocked = columns.columnsOf(6);
    // The block so far, from the sampler's silence less one interval, only past half a second of it.
    expect(blocked.y[20]).toBe(20 * 50 - 100 - 50);
    expect(Number.isNaN(blocked.y[5])).toBe(true);
  });

  it('draws the heap read while blocked only for a lab that reads it, and only where it was read', () => {
    const withHeap = proc.map((p, i) => (i > 10 && i < 100 ? { ...p, heapUsed: 5e6 + i, heapTotal: 8e6 } : p));
    const lines = viewLines(new ArraySource(samples), new ArraySource(withHeap), memorySpecs(['heapUsed', 'heapTotal']), 50, true);
    expect(lines.map((l) => l.key)).toEqual(['heapUsed', 'blockedHeapUsed', 'heapTotal', 'blockedHeapTotal']);
    const columns = new ChartColumns(lines);
    columns.pull();
    const read = Array.from(columns.columnsOf(1).y).filter((v) => !Number.isNaN(v));
    expect(read.length).toBe(89);
    // A lab that never reads it (the streams lab) gets no such line, not an empty one in its legend.
    expect(viewLines(new ArraySource(samples), new ArraySource(withHeap), memorySpecs(['heapUsed']), 50).map((l) => l.key)).toEqual(['heapUsed']);
  });

  it("breaks the child's lines over the block (never a line across it) and leaves the /proc lines whole", () => {
    const columns = new ChartColumns(viewLines(new ArraySource(samples), new ArraySource(proc), memorySpecs(['rss']), 50));
    columns.pull();
    expect(columns.breaksOf(0)).toEqual({ gaps: [[100, 5100]], isolated: [] });
    expect(columns.breaksOf(1)).toEqual({ gaps: [], isolated: [] });
  });
});
