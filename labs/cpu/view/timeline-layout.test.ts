import { describe, expect, it } from 'vitest';
import { layoutTimeline, servedByText, TIMELINE_MAX_PX } from './timeline-layout';
import { SERIES_COLORS } from '../../../components/charts/palette';

const bar = (startMs: number, endMs: number, servedBy: string) => ({ startMs, firstByteMs: endMs, endMs, servedBy, ok: true });

describe('layoutTimeline', () => {
  it('gives each server its own colour in the order it first answered, with its count', () => {
    const l = layoutTimeline([bar(0, 1000, '20/1'), bar(0, 1000, '20/2'), bar(0, 2000, '20/1')]);
    expect(l.servers).toEqual([
      { id: '20/1', requests: 2, color: SERIES_COLORS[0] },
      { id: '20/2', requests: 1, color: SERIES_COLORS[1] },
    ]);
    expect(l.colorOf.get('20/2')).toBe(SERIES_COLORS[1]);
  });

  it('ends the axis on a round step past the last request', () => {
    const l = layoutTimeline([bar(0, 2100, '1')]);
    expect(l.ticksMs).toEqual([0, 500, 1000, 1500, 2000, 2500]);
    expect(l.axisMs).toBe(2500);
    // The walkthrough's 62 ms leaky-pool run: steps of 20 ms (1, 2 or 5 × 10ⁿ), not 15.
    expect(layoutTimeline([bar(0, 62, '1')]).ticksMs).toEqual([0, 20, 40, 60, 80]);
  });

  it('shrinks rows to fit many requests, one px each at least', () => {
    expect(layoutTimeline([bar(0, 1, '1')]).rowPx).toBe(14);
    const many = layoutTimeline(Array.from({ length: 1000 }, (_, i) => bar(i, i + 5, '1')));
    expect(many.rowPx).toBe(1);
    expect(many.gapPx).toBe(0);
    expect(layoutTimeline(Array.from({ length: 50 }, () => bar(0, 1, '1'))).rowPx * 50).toBeLessThanOrEqual(TIMELINE_MAX_PX);
  });
});

describe('servedByText', () => {
  it('names the process, and the thread when there is one', () => {
    expect(servedByText('1234')).toBe('pid 1234');
    expect(servedByText('1234/3')).toBe('pid 1234 / thread 3');
  });
});
