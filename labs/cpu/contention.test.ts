/**
 * The CPU verdict on a busy machine, with real processes: a worker pool run beside two busy loops
 * (started here, killed after) is told the machine was busy, with the CPU its threads got and the
 * CPU the others took, instead of being told to try a larger n.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { summaryOfLab, type LabSummary } from '../../lib/protocol';
import { prepareAndStart } from '../../server/runner/lab-run';
import { liveChildCount } from '../../server/runner/runner';
import { withTempDataDir } from '../../server/test-support';
import { verdictFor } from '../verdicts';
import { DEFAULT_CPU_PARAMS } from './shared/params';

describe('cpu lab beside busy loops', () => {
  withTempDataDir('cpu-contention');
  let loops: ChildProcess[] = [];
  beforeEach(() => {
    loops = [0, 1].map(() => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  });
  afterEach(async () => {
    await Promise.all(loops.map((p) => new Promise((resolve) => (p.exitCode !== null ? resolve(null) : (p.once('exit', resolve), p.kill('SIGKILL'))))));
    expect(liveChildCount()).toBe(0);
  });

  it('says the machine was busy, each thread given a fraction of the makespan in CPU, not that fib(n) was too small', async () => {
    const params = { ...DEFAULT_CPU_PARAMS, n: 35, requests: 8, concurrency: 2, workers: 2, pingMs: 0, budgetMb: null };
    const handle = prepareAndStart({ lab: 'cpu', runId: 'cpu-busy-1', strategy: 'worker-pool', params });
    const s = summaryOfLab(await handle.done, 'cpu') as LabSummary<'cpu'>;
    expect([s.outcome, s.reason]).toEqual(['completed', null]);
    const said = JSON.stringify({ otherCpuMs: s.otherCpuMs, cpuWindowMs: s.cpuWindowMs, makespanMs: s.makespanMs, threadCpu: s.threadCpu.slice(0, 3) });
    // The two loops alone are about a core's worth; the run's own tree and load are left out.
    expect(s.otherCpuMs! / s.cpuWindowMs!, said).toBeGreaterThan(0.5);
    // Two threads computing beside two loops on two cores: each got well under the makespan.
    expect(s.threadCpu[0].cpuMs, said).toBeLessThan(0.75 * s.makespanMs!);
    const v = verdictFor(s);
    expect(v.text, said).toMatch(
      /the machine was busy: each thread got \d+(\.\d+)? m?s of CPU in a \d+(\.\d+)? m?s makespan, while other processes used \d+\.\d of its \d+ cores/,
    );
    expect(v.text).not.toContain('larger n');
    expect(v.figures.otherCpuMs).toBe(s.otherCpuMs);
  }, 120_000);
});
