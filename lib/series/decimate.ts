/**
 * Bounds the number of points a chart draws. Min/max bucketing keeps the shape that matters here
 * (peaks and dips of memory), which plain every-nth sampling would cut off.
 */

export interface Point {
  /** x, e.g. seconds since the run started. Points are expected in ascending x. */
  x: number;
  y: number;
}

/** Default bound per series: enough for a smooth line, cheap enough to redraw 10×/s. */
export const MAX_POINTS_PER_SERIES = 400;

/**
 * At most `maxPoints` points: the first and last point, then the min and max of each bucket in
 * x order. Returns the input itself when it is already small enough.
 */
export function decimateMinMax<P extends Point>(points: readonly P[], maxPoints: number = MAX_POINTS_PER_SERIES): readonly P[] {
  const n = points.length;
  if (n <= maxPoints || n <= 2) return points;
  if (maxPoints < 4) return [points[0], points[n - 1]].slice(0, Math.max(maxPoints, 0));
  const inner = points.slice(1, n - 1);
  // Two points per bucket, plus the first and last point.
  const buckets = Math.floor((maxPoints - 2) / 2);
  const out: P[] = [points[0]];
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * inner.length) / buckets);
    const to = Math.floor(((b + 1) * inner.length) / buckets);
    if (to <= from) continue;
    let min = from;
    let max = from;
    for (let i = from + 1; i < to; i++) {
      if (inner[i].y < inner[min].y) min = i;
      if (inner[i].y > inner[max].y) max = i;
    }
    if (min === max) out.push(inner[min]);
    else if (min < max) out.push(inner[min], inner[max]);
    else out.push(inner[max], inner[min]);
  }
  out.push(points[n - 1]);
  return out;
}
