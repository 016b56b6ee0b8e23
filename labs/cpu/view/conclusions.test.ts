import { describe, expect, it } from 'vitest';
import { MIB } from '../../../lib/protocol/params';
import { makeCpuSummary as summary } from '../../../lib/test-fixtures';
import { concludeLeakyPool, concludeOneThread, concludeProcesses, concludeSpawn } from './conclusions';
import { CPU_LESSON_STEPS } from './steps';

// The fixture is one thread: 4 requests of fib(40), 1000 ms each alone, 4.0 s in all on 2 cores.
const one = summary();

describe('the CPU walkthrough’s conclusions', () => {
  it('step 1: one thread’s makespan is the computations back to back', () => {
    const c = concludeOneThread(one);
    expect(c.asExpected).toBe(true);
    expect(c.text).toContain('took 4.0 s on one thread; the slowest waited 4000 ms and /ping, which computes nothing, waited up to 1000 ms');
    // Faster than the computations back to back cannot be one thread's doing.
    expect(concludeOneThread(summary({ makespanMs: 2000 })).asExpected).toBe(false);
  });

  it('step 2: cluster is faster by the verdict’s threshold, and says what a process cost', () => {
    const cluster = summary({ strategy: 'cluster', makespanMs: 2100, peakProcesses: 3, peakTreeRss: 150 * MIB });
    const c = concludeProcesses(one, cluster);
    expect(c.asExpected).toBe(true);
    expect(c.text).toContain('1.9× faster on 2 cores, with 3 processes whose tree peaked at 150 MB (50 MB a process)');
    expect(concludeProcesses(one, { ...cluster, makespanMs: 3800 }).text).toContain('Not what this lesson expects');
  });

  it('step 3: a start per request costlier than the work, and slower than the pool', () => {
    const small = { n: 25, requests: 16 };
    const fork = summary({
      strategy: 'fork-per-request',
      spawnP50Ms: 60,
      computeMsMin: 1,
      makespanMs: 600,
      requestsOk: 16,
      requestsPlanned: 16,
      params: small,
    });
    const pool = summary({ strategy: 'worker-pool', computeMsMin: 1, makespanMs: 40, requestsOk: 16, requestsPlanned: 16, params: small });
    expect(concludeSpawn(fork, pool)).toMatchObject({ asExpected: true });
    expect(concludeSpawn(fork, pool).text).toMatch(
      /^fork-per-request paid 60\.0 ms \(p50\) to start a process per request, for fib\(25\) that takes 1\.0 ms: 600 ms for 16 requests against 40\.0 ms for worker-pool, whose threads started once\. /,
    );
    expect(concludeSpawn({ ...fork, spawnP50Ms: 0.5 }, pool).asExpected).toBe(false);
  });

  it('step 4: the leaky pool’s listeners outnumber its workers and answers went astray; the fixed pool’s do not', () => {
    const leaky = summary({
      strategy: 'cluster-pool-leaky',
      outcome: 'data-lost',
      requestsPlanned: 8,
      requestsOk: 6,
      badRequests: 2,
      peakProcesses: 3,
      peakMessageListeners: 10,
    });
    const fixed = summary({ strategy: 'cluster-pool', requestsPlanned: 8, requestsOk: 8, peakProcesses: 3, peakMessageListeners: 2 });
    const c = concludeLeakyPool(leaky, fixed);
    expect(c.asExpected).toBe(true);
    expect(c.text).toContain("cluster-pool-leaky ended with 10 'message' listeners after 8 requests and 2 requests without their own answer");
    expect(concludeLeakyPool({ ...leaky, peakMessageListeners: 2 }, fixed).asExpected).toBe(false);
    // A crash is not a result of the lesson.
    expect(concludeLeakyPool({ ...leaky, outcome: 'crashed' }, fixed).text).toContain('ended as crashed');
  });

  it('concludes each step from its own presets’ runs, in order', () => {
    expect(CPU_LESSON_STEPS.map((s) => s.presets[0].strategies)).toEqual([
      ['single-thread'],
      ['single-thread', 'cluster'],
      ['fork-per-request', 'worker-pool'],
      ['cluster-pool-leaky', 'cluster-pool'],
    ]);
    expect(CPU_LESSON_STEPS.every((s) => s.lab === 'cpu' && s.presets[0].params.timeoutS === 120)).toBe(true);
  });
});
