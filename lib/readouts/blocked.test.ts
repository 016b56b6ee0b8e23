import { describe, expect, it } from 'vitest';
import { makeSample } from '@/lib/test-fixtures';
import { blockedMsAt, blockedNowMs, blockedText } from './blocked';

const proc = (at: number, sinceSampleMs: number | null | undefined) => ({ t: at, at, rss: 1, cpuPct: 97, sinceSampleMs });

describe('a blocked loop, from the /proc readings', () => {
  it('is blocked once the sampler is silent past three intervals and half a second: the silence less one interval', () => {
    expect(blockedMsAt(proc(0, 499), 50)).toBeNull();
    expect(blockedMsAt(proc(0, 4850), 50)).toBe(4800);
    // A slow sampler (250 ms) needs three of its intervals.
    expect(blockedMsAt(proc(0, 700), 250)).toBeNull();
    expect(blockedMsAt(proc(0, 800), 250)).toBe(550);
    expect(blockedText(4800)).toBe('event loop blocked for 4.8 s');
  });

  it('is not known without the reading (old records, sampler off, no sample yet), and over once a sample came after it', () => {
    expect(blockedMsAt(proc(0, undefined), 50)).toBeNull();
    expect(blockedMsAt(proc(0, null), 50)).toBeNull();
    expect(blockedMsAt(proc(0, 5000), null)).toBeNull();
    expect(blockedNowMs(makeSample({ at: 100 }), proc(5000, 4900), 50)).toBe(4850);
    expect(blockedNowMs(makeSample({ at: 5001 }), proc(5000, 4900), 50)).toBeNull();
  });
});
