import { describe, expect, it } from 'vitest';
import { decimateMinMax, type Point } from './decimate';

const line = (n: number, y: (i: number) => number): Point[] => Array.from({ length: n }, (_, i) => ({ x: i, y: y(i) }));

describe('decimateMinMax', () => {
  it('returns a short series unchanged', () => {
    const points = line(50, (i) => i);
    expect(decimateMinMax(points, 400)).toBe(points);
  });

  it('never returns more points than asked for', () => {
    for (const n of [401, 1000, 1200, 20_000]) {
      expect(decimateMinMax(line(n, Math.sin), 400).length).toBeLessThanOrEqual(400);
    }
  });

  it('keeps the first and last point and the global min and max', () => {
    const points = line(5000, (i) => (i === 1234 ? 999 : i === 4321 ? -999 : i % 7));
    const out = decimateMinMax(points, 400);
    expect(out[0]).toBe(points[0]);
    expect(out.at(-1)).toBe(points.at(-1));
    expect(out.some((p) => p.y === 999 && p.x === 1234)).toBe(true);
    expect(out.some((p) => p.y === -999 && p.x === 4321)).toBe(true);
  });

  it('keeps the points in ascending x', () => {
    const out = decimateMinMax(
      line(3000, (i) => Math.cos(i / 10)),
      300,
    );
    for (let i = 1; i < out.length; i++) expect(out[i].x).toBeGreaterThan(out[i - 1].x);
  });
});
