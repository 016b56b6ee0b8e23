import { describe, expect, it } from 'vitest';
import { MIB } from '../../../lib/protocol/params';
import { makeCpuSummary as summary } from '../../../lib/test-fixtures';
import { cpuVerdict, ceilingOf, listenersLeaked, speedupText } from './verdict';
import { cpuCard } from './card';
import type { CpuSummary } from '../shared/schema';
import { traitsOf } from '../../test-traits';
import { verdictOf } from '../../verdict-of';

/** The sentence of a run's verdict, as the card shows it. */
const verdictFor = (...args: Parameters<typeof verdictOf>) => verdictOf(...args).text;

/** The lab's verdict with the run's strategy's declared traits (labs/test-traits.ts). */
const verdict = (s: CpuSummary, others: readonly CpuSummary[] = []) => cpuVerdict(s, others, traitsOf(s)).text;

// One experiment on 2 cores, 4 requests of fib(40) 4 at once: one thread (the fixture) and a pool.
const oneThread = summary({ runId: 'st' });
const pool = summary({
  runId: 'wp',
  strategy: 'worker-pool',
  makespanMs: 2100,
  latencyP50Ms: 2000,
  speedup: 1.9,
  speedupMeasured: 1.9,
  pingMaxMs: 12,
  peakTreeRss: 80 * MIB,
  peakThreads: 13,
  servers: 2,
});

describe('cpuVerdict', () => {
  it('says one thread queued the requests, with the wait and the ping', () => {
    expect(verdict(oneThread, [oneThread, pool])).toBe(
      '4 requests of fib(40) on one thread took 4.0 s, p50 latency 2500 ms; /ping waited up to 1000 ms: the requests queued behind each ' +
        'other, each waiting for the whole computation of those before it (fib(40) alone: 1000 ms).',
    );
  });

  it('measures a pool against the experiment’s one thread and names the ceiling', () => {
    expect(verdict(pool, [oneThread, pool])).toBe(
      "4 requests of fib(40) on 2 cores: 1.9× faster than one thread (2.1 s vs 4.0 s), the ceiling is 2×; the tree's RSS peaked at 80 MB " +
        'with 1 process and 13 threads: 30 MB more than one thread; /ping waited up to 12.0 ms (one thread: 1000 ms).',
    );
    // It goes through verdictFor with the experiment's other runs.
    expect(verdictFor(pool, traitsOf(pool), [oneThread, pool])).toBe(verdict(pool, [oneThread]));
  });

  it('without a single-thread run, uses the run’s own speed-up against fib(n) alone', () => {
    expect(verdict(pool)).toMatch(/^4 requests of fib\(40\) on 2 cores: 1\.9× the work of one thread in 2\.1 s, the ceiling is 2×; /);
  });

  it('says what each extra process cost, and what forking per request paid', () => {
    const fork = summary({
      runId: 'f',
      strategy: 'fork-per-request',
      makespanMs: 2400,
      speedup: 1.7,
      spawnP50Ms: 210,
      peakTreeRss: 250 * MIB,
      peakProcesses: 5,
      servers: 4,
    });
    expect(verdict(fork, [oneThread])).toBe(
      '4 requests of fib(40) on 2 cores: 1.7× faster than one thread (2.4 s vs 4.0 s), the ceiling is 2×; fork-per-request paid 210 ms to ' +
        "start a process per request; the tree's RSS peaked at 250 MB with 5 processes and 11 threads: each worker process added about 50 MB; " +
        '/ping waited up to 1000 ms (one thread: 1000 ms).',
    );
  });

  it('says so when a multi-core strategy was no faster, and why', () => {
    const fork = summary({ runId: 'f', strategy: 'fork-per-request', makespanMs: 3900, spawnP50Ms: 1500, peakProcesses: 5, servers: 4 });
    expect(verdict(fork, [oneThread])).toMatch(
      /^Not what 2 cores should show: starting a worker \(1500 ms\) cost more than fib\(40\) alone \(1000 ms\)\. 4 requests of fib\(40\) on 2 cores: no faster than one thread \(3\.9 s vs 4\.0 s\), where the ceiling is 2×/,
    );
    const cluster = summary({ runId: 'c', strategy: 'cluster', makespanMs: 6000, peakProcesses: 3, servers: 1, params: { keepAlive: true } });
    expect(verdict(cluster, [oneThread])).toMatch(
      /^Not what 2 cores should show: only one process or thread answered \(keep-alive kept every request on one connection’s process\)\. .* 1\.5× slower than one thread \(6\.0 s vs 4\.0 s\)/,
    );
  });

  it('does not expect a gain when one request at a time is all there is to spread', () => {
    const serial = summary({ runId: 'p', strategy: 'worker-pool', params: { concurrency: 1 } });
    expect(ceilingOf(serial, traitsOf(serial))).toBe(1);
    expect(verdict(serial, [oneThread])).toMatch(
      /^4 requests of fib\(40\) on 2 cores: no faster than one thread \(4\.0 s vs 4\.0 s\), where the ceiling is 1× \(1 at once\);/,
    );
  });

  it('says so when one thread’s requests overlapped, which one thread cannot do', () => {
    expect(verdict(summary({ speedupMeasured: 1.8, speedup: 1.8 }))).toMatch(
      /^Not what one thread should show: the requests overlapped \(1\.8× the work of one thread\)\./,
    );
  });

  it('counts the leaky pool’s listeners and the requests that got another request’s answer', () => {
    const leaky = summary({
      strategy: 'cluster-pool-leaky',
      outcome: 'data-lost',
      reason: '2 of 4 requests got no right answer (first: request 2 got the answer computed for request 0)',
      requestsOk: 2,
      badRequests: 2,
      peakProcesses: 3,
      peakMessageListeners: 6,
    });
    expect(listenersLeaked(leaky)).toBe(true);
    // Wrong answers are the leak's doing: the run showed what the leaky pool is there to show.
    expect(cpuVerdict(leaky, [], traitsOf(leaky)).expected).toBe(true);
    expect(verdict(leaky)).toBe(
      "cluster-pool-leaky: 6 'message' listeners after 4 requests, and 2 of 4 requests got another request's answer: 2 of 4 requests got " +
        'no right answer (first: request 2 got the answer computed for request 0).',
    );
  });

  it('says when the leaky pool completed, and when it did not leak at all', () => {
    const leaked = summary({ strategy: 'cluster-pool-leaky', makespanMs: 2100, peakProcesses: 3, peakMessageListeners: 4, servers: 2 });
    expect(verdict(leaked)).toMatch(
      /; 4 'message' listeners after 4 requests on 2 workers, one added per request and never removed, yet every answer reached its own request this time/,
    );
    const fixed = summary({ strategy: 'cluster-pool-leaky', makespanMs: 2100, peakProcesses: 3, peakMessageListeners: 2, servers: 2 });
    expect(listenersLeaked(fixed)).toBe(false);
    expect(verdict(fixed)).toMatch(/; only 2 'message' listeners on 2 workers: not the leak it should show/);
  });

  it('names how far a stopped or timed-out run got', () => {
    expect(verdict(summary({ outcome: 'stopped', requestsOk: 1, peakTreeRss: 60 * MIB }))).toBe(
      "Stopped after 5.0 s with 1 of 4 requests answered; the tree's RSS peaked at 60 MB.",
    );
    expect(verdict(summary({ outcome: 'timed-out', requestsOk: 0, params: { timeoutS: 5 } }))).toBe(
      'Timed out after 5 s with 0 of 4 requests answered: fib(40) takes 1000 ms alone here; try a smaller n or fewer requests.',
    );
  });
});

describe('speedupText', () => {
  it('writes the speed-up with the cores as its ceiling', () => {
    expect(speedupText({ speedup: 1.94, cores: 2 })).toBe('1.9× (ceiling 2 cores)');
    expect(speedupText({ speedup: 1, cores: 1 })).toBe('1× (ceiling 1 core)');
  });

  it('writes a dash, not 0×, for a run that timed no request', () => {
    expect(speedupText({ speedup: null, cores: 2 })).toBe('–');
  });
});

describe('the cpu card’s speed-up figure', () => {
  const speedup = (s: CpuSummary, role: string | null) => cpuCard.figures(s, undefined, undefined, role).find((f) => f.id === 'speedup')!;

  it('labels the one-thread baseline "baseline", whatever its own ratio', () => {
    // The case: the baseline's own ratio 0.3× read as a loss beside the others.
    const low = { ...oneThread, speedup: 0.3, speedupMeasured: 0.3 };
    expect(speedup(low, 'one-thread')).toMatchObject({ text: 'baseline', value: 0.3 });
  });

  it('gives every other strategy its ratio and ceiling', () => {
    expect(speedup(pool, 'pool').text).toBe('1.9× (ceiling 2 cores)');
    // Without a known role (a catalog not loaded yet) nothing is called a baseline.
    expect(speedup(oneThread, null).text).not.toBe('baseline');
  });
});

describe('the verdict’s expected and figures', () => {
  const judged = (s: CpuSummary, others: readonly CpuSummary[] = []) => cpuVerdict(s, others, traitsOf(s));

  it('confirms one thread that queued and a pool faster than it, quoting both makespans in ms', () => {
    expect(judged(oneThread, [pool]).expected).toBe(true);
    const v = judged(pool, [oneThread]);
    expect(v.expected).toBe(true);
    expect(v.figures).toMatchObject({
      makespanMs: 2100,
      'single-thread.makespanMs': oneThread.makespanMs,
      gainRatio: oneThread.makespanMs! / 2100,
      ceiling: 2,
      cores: 2,
    });
  });

  it('contradicts a pool no faster than one thread, a leaky pool that did not leak, and one thread whose requests overlapped', () => {
    const slowFork = summary({ runId: 'f', strategy: 'fork-per-request', makespanMs: 3900, spawnP50Ms: 1500, peakProcesses: 5, servers: 4 });
    const v = judged(slowFork, [oneThread]);
    expect(v.expected).toBe(false);
    expect(v.figures).toMatchObject({ spawnP50Ms: 1500, computeMsAlone: slowFork.computeMsAlone });
    const fixed = summary({ strategy: 'cluster-pool-leaky', makespanMs: 2100, peakProcesses: 3, peakMessageListeners: 2, servers: 2 });
    expect(judged(fixed).expected).toBe(false);
    expect(judged({ ...oneThread, speedupMeasured: 1.8 }).expected).toBe(false);
  });

  it('counts a data-lost run as worse than the completed run every strategy declares', () => {
    const lost = summary({ strategy: 'worker-pool', outcome: 'data-lost', requestsOk: 3, badRequests: 1 });
    expect(judged(lost).expected).toBe(false);
  });

  it('cannot tell with nothing to spread (one request at a time), without the catalog, or for an interrupted run', () => {
    const serial = summary({ runId: 'p', strategy: 'worker-pool', params: { concurrency: 1 } });
    expect(judged(serial, [oneThread]).expected).toBeNull();
    expect(cpuVerdict(pool, [oneThread], undefined).expected).toBeNull();
    expect(judged(summary({ strategy: 'worker-pool', outcome: 'interrupted' })).expected).toBeNull();
  });
});

describe('figures the load did not measure', () => {
  const judged = (s: CpuSummary, others: readonly CpuSummary[] = []) => cpuVerdict(s, others, traitsOf(s));

  it('a run that answered no /ping says so, and quotes no 0 ms for it, nor for a worker start nobody timed', () => {
    const s = summary({ strategy: 'worker-pool', pingP50Ms: null, pingMaxMs: null, spawnP50Ms: null });
    const v = judged(s);
    expect(v.text).toContain('no /ping was answered');
    expect(v.text).not.toContain('0.0 ms');
    expect(v.figures).not.toHaveProperty('pingMaxMs');
    // Against a one-thread run that did get its pings answered: still no number for this run's.
    const one = summary({ runId: 'st', strategy: 'single-thread', makespanMs: 4000, pingMaxMs: 900 });
    expect(judged(s, [one]).text).not.toContain('one thread: 900');
    const card = cpuCard.figures(s, undefined, undefined, 'pool');
    expect(card.find((f) => f.id === 'ping')?.text).toBe('none answered');
    expect(card.find((f) => f.id === 'spawn')?.text).toBe('none per request');
  });

  it('a completed run without the load’s timings is not judged on zeros', () => {
    const v = judged(summary({ makespanMs: null, latencyP50Ms: null, latencyMaxMs: null, computeMsAlone: null, computeMsMin: null, servers: null }));
    expect(v.text).toMatch(/reported no timings/);
    expect(v.text).not.toMatch(/\b0(\.0)? m?s\b/);
  });

  it('a timed-out run whose load never timed fib(n) alone leaves that part out', () => {
    const v = judged(summary({ outcome: 'timed-out', computeMsAlone: null, requestsOk: 0 }));
    expect(v.text).not.toContain('alone here');
    expect(v.figures).not.toHaveProperty('computeMsAlone');
  });
});
