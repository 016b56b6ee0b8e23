import { describe, expect, it } from 'vitest';
import type { RunSummary } from '@/lib/protocol';
import { truthfulFigures, type Figure } from './figures';

const proc = (at: number, sinceSampleMs: number) => ({ t: at, at, rss: 1, cpuPct: 97, sinceSampleMs });

describe('truthfulFigures', () => {
  const figures: Figure[] = [
    { id: 'el-delay', term: 'Event-loop delay', value: 0.5, text: '0.5 ms', kind: 'now' },
    { id: 'cpu', term: 'CPU', value: 2, text: '2% of a core', kind: 'now' },
    { id: 'rss', term: 'RSS', value: 0, text: '0.0 MB', kind: 'peak' },
  ];

  it('while blocked, says the delay is at least the block and takes the CPU from /proc', () => {
    const out = truthfulFigures(figures, null, 4800, proc(0, 4850));
    expect(out.map((f) => f.text)).toEqual(['≥ 4.8 s (blocked)', '97% of a core (from /proc)', '0.0 MB']);
    expect(truthfulFigures(figures, null, null, proc(0, 10))).toBe(figures);
  });

  it('while blocked, takes the heap the watcher thread read, and keeps the sample’s when it read none', () => {
    const heap: Figure = { id: 'heap-used', term: 'heapUsed', value: 1e6, text: '1.0 MB', kind: 'now' };
    const read = truthfulFigures([heap], null, 4800, { ...proc(0, 4850), heapUsed: 23.4e6, heapTotal: 30e6 });
    expect(read.map((f) => [f.text, f.value])).toEqual([['22.3 MB (read while blocked)', 23.4e6]]);
    expect(truthfulFigures([heap], null, 4800, proc(0, 4850))).toEqual([heap]);
  });

  it('gives dashes, not zeros, for a run that ended without a sample', () => {
    const out = truthfulFigures(figures, { sampleCount: 0 } as RunSummary, null, undefined);
    expect(out.map((f) => [f.text, f.value])).toEqual([
      ['–', null],
      ['–', null],
      ['–', null],
    ]);
  });
});
