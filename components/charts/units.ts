/**
 * Units of chart series and how an axis shows them. A series says what its numbers are (bytes,
 * ms, percent, a 0–1 ratio, a count, a rate); the axis picks the display scale that fits the
 * largest value shown (KB/MB/GB, ms/s, k/M). "MB" is MiB (1024²), like the rest of the app. Pure.
 */

export type SeriesUnit = 'bytes' | 'ms' | 'percent' | 'ratio' | 'count' | 'perSec';

/** A display scale: divide a raw value by `divisor` and write `suffix` after it. */
export interface DisplayScale {
  unit: SeriesUnit;
  divisor: number;
  /** Shown on the axis and in readouts: "MB", "ms", "%", "/s", "" for a plain count. */
  suffix: string;
}

const KIB = 1024;
const BYTE_SCALES: Array<[number, string]> = [
  [KIB ** 3, 'GB'],
  [KIB ** 2, 'MB'],
  [KIB, 'KB'],
];
const COUNT_SCALES: Array<[number, string]> = [
  [1e6, 'M'],
  [1e3, 'k'],
];

/** The scale for values up to `maxAbs`: the largest step that keeps the top value at 1 or more. */
export function pickScale(unit: SeriesUnit, maxAbs: number): DisplayScale {
  switch (unit) {
    case 'bytes': {
      const step = BYTE_SCALES.find(([d]) => maxAbs >= d) ?? BYTE_SCALES[BYTE_SCALES.length - 1];
      return { unit, divisor: step[0], suffix: step[1] };
    }
    case 'ms':
      return maxAbs >= 10_000 ? { unit, divisor: 1000, suffix: 's' } : { unit, divisor: 1, suffix: 'ms' };
    case 'percent':
      return { unit, divisor: 1, suffix: '%' };
    case 'ratio':
      // Event-loop utilization and other 0–1 shares read best as percentages.
      return { unit, divisor: 0.01, suffix: '%' };
    case 'count':
    case 'perSec': {
      const step = COUNT_SCALES.find(([d]) => maxAbs >= d);
      const rate = unit === 'perSec' ? '/s' : '';
      return step ? { unit, divisor: step[0], suffix: `${step[1]}${rate}` } : { unit, divisor: 1, suffix: rate };
    }
    default: {
      const never: never = unit;
      throw new Error(`unknown unit ${String(never)}`);
    }
  }
}

/** A bytes scale by name, for callers that fix the unit (the lessons draw KB on purpose). */
export function bytesScale(suffix: 'KB' | 'MB' | 'GB'): DisplayScale {
  const step = BYTE_SCALES.find(([, s]) => s === suffix)!;
  return { unit: 'bytes', divisor: step[0], suffix };
}

/** A scaled number with as many digits as tell neighbouring values apart: "120", "12.3", "0.42". */
export function formatScaled(scaled: number): string {
  const abs = Math.abs(scaled);
  if (abs >= 100 || abs === 0) return scaled.toFixed(0);
  if (abs >= 1) return scaled.toFixed(1).replace(/\.0$/, '');
  return Number(scaled.toPrecision(2)).toString();
}

/** A raw value in a scale, with its suffix: "12.3 MB", "250 ms", "40%". */
export function formatWithScale(value: number, scale: DisplayScale): string {
  const text = formatScaled(value / scale.divisor);
  if (scale.suffix === '') return text;
  return scale.suffix === '%' ? `${text}%` : `${text} ${scale.suffix}`;
}

/** Seconds on the time axis: two decimals for short runs so neighbouring ticks differ. */
export function formatSecondsTick(seconds: number): string {
  return `${seconds >= 10 ? Math.round(seconds) : Number(seconds.toFixed(2))} s`;
}

/** Seconds in a readout: samples can be 50 ms apart, so two decimals under 10 s. */
export function formatSecondsReadout(ms: number): string {
  const s = ms / 1000;
  return `${s.toFixed(s < 10 ? 2 : 1)} s`;
}

/**
 * Ticks from 0 for an axis up to `max`: steps of 1, 2 or 5 × 10ⁿ, about `count` of them, the last
 * one at or above `max` (so the axis ends on a labelled value). For the SVG charts drawn by hand.
 */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const rough = max / count;
  const pow = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= rough)!;
  const n = Math.ceil(max / step - 1e-9);
  return Array.from({ length: n + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}

/** The step of 1, 2 or 5 × 10ⁿ nearest (on a log scale) to cutting `span` into `count` parts. */
export function niceStep(span: number, count = 4): number {
  const rough = span / count;
  const pow = 10 ** Math.floor(Math.log10(rough));
  const steps = [1, 2, 5, 10].map((m) => m * pow);
  return steps.reduce((best, s) => (Math.abs(Math.log(s / rough)) < Math.abs(Math.log(best / rough)) ? s : best));
}

/** Ticks on multiples of a nice step inside [min, max] (both ends included when they fall on one). */
export function ticksBetween(min: number, max: number, count = 4): number[] {
  if (!(max > min) || !Number.isFinite(max - min)) return [min];
  const step = niceStep(max - min, count);
  const out: number[] = [];
  for (let i = Math.ceil(min / step - 1e-9); i * step <= max * (1 + 1e-12) + 1e-12; i++) out.push(Number((i * step).toPrecision(12)));
  return out;
}
