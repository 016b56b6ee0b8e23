import { describe, expect, it } from 'vitest';
import { CorePool, parseCpuList } from './cores';

describe("a worker's cores", () => {
  it("reads taskset's CPU lists", () => {
    expect(parseCpuList('0,1')).toEqual([0, 1]);
    expect(parseCpuList(' 0-2,5\n')).toEqual([0, 1, 2, 5]);
    expect(parseCpuList('3')).toEqual([3]);
  });

  it('gives each concurrent run the least used core, and shares only when all are taken', () => {
    const pool = new CorePool([2, 3]);
    const a = pool.take();
    const b = pool.take();
    expect([a, b]).toEqual([2, 3]);
    expect(pool.take()).toBe(2);
    pool.give(3);
    expect(pool.take()).toBe(3);
  });
});
