import { describe, expect, it } from 'vitest';
import { makeCpuSummary as summary } from '../../../lib/test-fixtures';
import { cpuVerdict } from './verdict';
import { contentionOf } from './contention';
import { traitsOf } from '../../test-traits';

// The run: a worker pool on 2 cores, 1.1× faster than one thread, each of its threads given
// 2.6 s of CPU in a 7.1 s makespan while two busy loops held the cores.
const oneThread = summary({ runId: 'st', makespanMs: 7800, computeMsAlone: 2188, computeMsMin: 1408 });
const threads = [
  { pid: 10, tid: 11, cpuMs: 2600 },
  { pid: 10, tid: 12, cpuMs: 2600 },
  { pid: 10, tid: 10, cpuMs: 200 },
];
const busy = summary({
  runId: 'wp',
  strategy: 'worker-pool',
  makespanMs: 7100,
  computeMsAlone: 2188,
  computeMsMin: 1408,
  speedup: 0.8,
  speedupMeasured: 0.8,
  servers: 2,
  threadCpu: threads,
  otherCpuMs: 8300,
  cpuWindowMs: 7150,
});

describe('the CPU verdict on a busy machine', () => {
  it('blames the busy machine, not fib(n), when other processes took the cores and each thread got little CPU', () => {
    const v = cpuVerdict(busy, [oneThread], traitsOf(busy));
    expect(v.text).toMatch(
      /^Not what 2 cores should show: the machine was busy: each thread got 2\.6 s of CPU in a 7\.1 s makespan, while other processes used 1\.2 of its 2 cores\. /,
    );
    expect(v.text).not.toContain('larger n');
    expect(v.figures).toMatchObject({ perThreadCpuMs: 2600, makespanMs: 7100, otherCpuMs: 8300, cpuWindowMs: 7150, cores: 2 });
    expect(v.expected).toBe(false);
  });

  it('still blames the task size on a quiet machine, quoting fib(n) alone as the run page does', () => {
    const quiet = { ...busy, otherCpuMs: 300 };
    expect(contentionOf(quiet, 2)).toBeNull();
    const text = cpuVerdict(quiet, [oneThread], traitsOf(quiet)).text;
    expect(text).toMatch(/^Not what 2 cores should show: fib\(40\) alone takes 2188 ms here, too little to outweigh the hand-over; try a larger n\. /);
    expect(text).not.toContain('1408');
  });

  it('does not call it contention when the threads got their cores (others busy elsewhere), or when it was not measured', () => {
    const fed = { ...busy, threadCpu: threads.map((t) => ({ ...t, cpuMs: t.tid === 10 ? 200 : 6900 })) };
    expect(contentionOf(fed, 2)).toBeNull();
    expect(contentionOf({ ...busy, otherCpuMs: null, cpuWindowMs: null }, 2)).toBeNull();
    expect(contentionOf({ ...busy, otherCpuMs: undefined, cpuWindowMs: undefined }, 2)).toBeNull();
  });
});
