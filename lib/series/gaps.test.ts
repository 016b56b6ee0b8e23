import { describe, expect, it } from 'vitest';
import { gapStarts, isolatedTimes, lineGaps } from './gaps';

/** Times every `step` ms from `from` to `to` (inclusive). */
const every = (step: number, from: number, to: number) => Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);

describe('gapStarts', () => {
  it('finds a 5 s stall in a series sampled every 50 ms, and nothing else', () => {
    const x = [...every(50, 0, 1000), ...every(50, 6000, 7000)];
    expect(gapStarts(x)).toEqual([21]);
  });

  it('finds every stall of repeated ones (5 s blocked, one sample, 5 s blocked): the spacing stays the sampler’s', () => {
    const x = [...every(50, 0, 500), 5500, 5550, 10_550, 10_600, 15_600];
    expect(gapStarts(x)).toEqual([11, 13, 15]);
  });

  it('sees no gap in a thinned series (every other point dropped, twice) nor in jitter under 250 ms', () => {
    expect(gapStarts(every(200, 0, 10_000))).toEqual([]);
    expect(gapStarts([0, 50, 100, 150, 340, 390, 440, 600, 650])).toEqual([]);
  });

  it('is not fooled by two samples close together (the final one right after the last)', () => {
    expect(gapStarts([0, 50, 100, 150, 155, 205, 255, 305])).toEqual([]);
  });
});

describe('lineGaps', () => {
  it('gives the stall as [last reading before, first after]', () => {
    const x = [0, 50, 100, 5100, 5150];
    expect(lineGaps(x, [1, 2, 3, 4, 5], gapStarts(x))).toEqual([[100, 5100]]);
  });

  it('treats a row without a number (not measured) as a gap from the reading before to the one after, merged with a stall beside it', () => {
    const x = [0, 50, 100, 150, 200, 5200, 5250];
    expect(lineGaps(x, [1, NaN, NaN, 4, NaN, 6, 7], gapStarts(x))).toEqual([
      [0, 150],
      [150, 5200],
    ]);
    // Trailing rows without a number: a gap to the end.
    expect(lineGaps([0, 50, 100], [1, 2, NaN], [])).toEqual([[50, 100]]);
  });

  it('has none for a line read at every row', () => {
    expect(lineGaps([0, 50, 100], [0, 0, 0], [])).toEqual([]);
  });
});

describe('isolatedTimes', () => {
  it('finds the one reading between two stalls, and a last reading after a stall', () => {
    const x = [0, 50, 5050, 10_050];
    const gaps = lineGaps(x, [1, 2, 5000, 4000], [2, 3]);
    expect(gaps).toEqual([
      [50, 5050],
      [5050, 10_050],
    ]);
    expect(isolatedTimes(gaps, 0, 10_050)).toEqual([5050, 10_050]);
  });
});
