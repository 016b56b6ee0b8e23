import { describe, expect, it } from 'vitest';
import { formatCount, formatCountOf, formatDuration } from './format';

describe('formatCount and formatCountOf', () => {
  it('writes thousands separators and a noun that agrees with its count', () => {
    expect(formatCount(100000)).toBe('100,000');
    expect(formatCountOf(1, 'probe')).toBe('1 probe');
    expect(formatCountOf(2, 'probe')).toBe('2 probes');
    expect(formatCountOf(1200, 'probe')).toBe('1,200 probes');
    expect(formatCountOf(0, 'probe')).toBe('0 probes');
  });
});

describe('formatDuration', () => {
  it('never writes a measured 37 ms as "0.0 s"', () => {
    expect(formatDuration(37)).toBe('37.0 ms');
    expect(formatDuration(537)).toBe('537 ms');
    expect(formatDuration(4000)).toBe('4.0 s');
    expect(formatDuration(125_000)).toBe('2 min 05 s');
  });
});
