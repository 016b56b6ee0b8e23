import { describe, expect, it } from 'vitest';
import { bytesScale, formatScaled, formatWithScale, niceTicks, pickScale, ticksBetween } from './units';
import { niceCeil, ScaleGroup } from './scale-group';

const MIB = 1024 ** 2;

describe('pickScale', () => {
  it('picks KB, MB or GB (powers of 1024) from the largest value', () => {
    expect(pickScale('bytes', 900).suffix).toBe('KB');
    expect(pickScale('bytes', 512 * 1024).suffix).toBe('KB');
    expect(pickScale('bytes', 150 * MIB)).toEqual({ unit: 'bytes', divisor: MIB, suffix: 'MB' });
    expect(pickScale('bytes', 3 * 1024 * MIB).suffix).toBe('GB');
  });

  it('switches ms to s from 10 s up, shows ratios as percent and counts with k/M', () => {
    expect(pickScale('ms', 250).suffix).toBe('ms');
    expect(pickScale('ms', 12_000)).toEqual({ unit: 'ms', divisor: 1000, suffix: 's' });
    expect(formatWithScale(0.42, pickScale('ratio', 1))).toBe('42%');
    expect(formatWithScale(180, pickScale('percent', 200))).toBe('180%');
    expect(formatWithScale(12_500, pickScale('perSec', 12_500))).toBe('12.5 k/s');
    expect(formatWithScale(7, pickScale('count', 7))).toBe('7');
  });

  it('formats with the digits that tell neighbours apart', () => {
    expect(formatScaled(0)).toBe('0');
    expect(formatScaled(0.0625)).toBe('0.063');
    expect(formatScaled(1.25)).toBe('1.3');
    expect(formatScaled(12)).toBe('12');
    expect(formatScaled(148.4)).toBe('148');
    expect(formatWithScale(12.8 * MIB, bytesScale('MB'))).toBe('12.8 MB');
    expect(formatWithScale(64 * 1024, bytesScale('KB'))).toBe('64 KB');
  });
});

describe('ScaleGroup', () => {
  it('rounds tops up to round numbers of MiB', () => {
    expect(niceCeil(91 * MIB, 1024)).toBe(100 * MIB);
    expect(niceCeil(54 * MIB, 1024)).toBe(60 * MIB);
    expect(niceCeil(0)).toBe(1);
  });

  it('shares the largest member value and tells the other members only when the rounded top changes', () => {
    const group = new ScaleGroup();
    const a = {};
    const b = {};
    const calls: string[] = [];
    group.join(a, () => calls.push('a'));
    const leaveB = group.join(b, () => calls.push('b'));
    group.report(a, 50 * MIB);
    expect(group.max()).toBe(60 * MIB);
    expect(calls).toEqual(['b']);
    group.report(a, 52 * MIB); // still under 60 MiB with headroom: nobody redraws
    expect(calls).toEqual(['b']);
    group.report(b, 200 * MIB);
    expect(group.max()).toBe(250 * MIB);
    expect(calls).toEqual(['b', 'a']);
    leaveB();
    expect(group.max()).toBe(60 * MIB);
    expect(calls).toEqual(['b', 'a', 'a']);
  });
});

describe('niceTicks', () => {
  it('steps by 1, 2 or 5 × 10ⁿ from 0 to the first tick at or above the maximum', () => {
    expect(niceTicks(100)).toEqual([0, 50, 100]);
    expect(niceTicks(3870)).toEqual([0, 1000, 2000, 3000, 4000]);
    expect(niceTicks(47)).toEqual([0, 20, 40, 60]);
    expect(niceTicks(0.3)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(niceTicks(10)).toEqual([0, 5, 10]);
  });

  it('gives a plain 0–1 axis for nothing to show', () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(Number.NaN)).toEqual([0, 1]);
  });
});

describe('ticksBetween (every chart axis: 1, 2 or 5 × 10ⁿ)', () => {
  it('gives round ticks inside the range, never 65 or 2.5 steps', () => {
    // The history axes: a 0–195 span read 0/65/130/195, a 0–13 s one 3.5/7/11.
    expect(ticksBetween(0, 195)).toEqual([0, 50, 100, 150]);
    expect(ticksBetween(0, 13, 5)).toEqual([0, 2, 4, 6, 8, 10, 12]);
    expect(ticksBetween(0, 9.6, 5)).toEqual([0, 2, 4, 6, 8]);
    expect(ticksBetween(2.3, 4.1)).toEqual([2.5, 3, 3.5, 4]);
    for (const [min, max] of [
      [0, 1],
      [0, 7.7],
      [0, 1234],
      [10, 11],
    ]) {
      const ticks = ticksBetween(min, max);
      const step = ticks[1] - ticks[0];
      expect(step / 10 ** Math.floor(Math.log10(step))).toSatisfy((m: number) => [1, 2, 5].some((n) => Math.abs(m - n) < 1e-9));
      expect(ticks.every((t) => t >= min - 1e-9 && t <= max + 1e-9)).toBe(true);
      expect(ticks.length).toBeGreaterThanOrEqual(2);
    }
  });

  it('has a single tick for an empty range', () => {
    expect(ticksBetween(3, 3)).toEqual([3]);
  });
});
