import { describe, expect, it } from 'vitest';
import { formatCount, formatCountOf } from './format';

describe('formatCount and formatCountOf', () => {
  it('writes thousands separators and a noun that agrees with its count', () => {
    expect(formatCount(100000)).toBe('100,000');
    expect(formatCountOf(1, 'probe')).toBe('1 probe');
    expect(formatCountOf(2, 'probe')).toBe('2 probes');
    expect(formatCountOf(1200, 'probe')).toBe('1,200 probes');
    expect(formatCountOf(0, 'probe')).toBe('0 probes');
  });
});
