/**
 * The deadlines lab with real processes: the store, the service (the run's child, with its pool's
 * threads) and the open-loop load. A short schedule whose spike asks several cores of CPU work of
 * the service; the figures that matter are recorded with `npm run bench` (docs/results.md §10).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { summaryOfLab, type LabSummary } from '../../lib/protocol';
import { prepareAndStart } from '../../server/runner/lab-run';
import { liveChildCount } from '../../server/runner/runner';
import { benchStrategyFiles, runLeftovers, withTempDataDir } from '../../server/test-support';
import { deadlineLab } from './parent/index';
import { arrivalTimesMs, deadlineParamsSchema, DEFAULT_DEADLINE_PARAMS, type DeadlineParams } from './shared/params';
import { OUTCOMES } from './shared/schema';

type DeadlineSummary = LabSummary<'deadline'>;
/** 1 request/s, then 8/s for 4 s of 100 objects × 5 ms: about 4 cores of work asked of one main thread. */
const SPIKE: Partial<DeadlineParams> = {
  durationS: 7,
  spikeStartS: 1,
  spikeS: 4,
  baselineRps: 1,
  spikeRps: 8,
  objects: 100,
  cpuMs: 5,
  budgetMb: null,
  timeoutS: 90,
};
const params = (over: Partial<DeadlineParams> = {}): DeadlineParams => ({ ...DEFAULT_DEADLINE_PARAMS, ...SPIKE, ...over });
let seq = 0;

async function run(strategy: string, p: DeadlineParams, onSample?: (s: Record<string, number>, stop: () => void) => void): Promise<DeadlineSummary> {
  let stop = () => undefined as void;
  const handle = prepareAndStart({
    lab: 'deadline',
    runId: `deadline-test-${++seq}`,
    strategy,
    params: p,
    onSample: (s) => onSample?.(s as Record<string, number>, stop),
  });
  stop = () => handle.stop();
  return summaryOfLab(await handle.done, 'deadline');
}

/** sent = on time + late + timed out + refused + errors, and every planned request was sent. */
function expectAccounted(s: DeadlineSummary): void {
  expect(s.sent).toBe(OUTCOMES.reduce((n, k) => n + s[k], 0));
  expect(s.sent).toBe(s.requestsPlanned);
}

describe('deadline lab', () => {
  // Every process of a run inherits this environment: the unique folder marks them.
  const dir = withTempDataDir('deadline');
  afterEach(async () => {
    expect(liveChildCount()).toBe(0);
    // No process of the run outlives it: the store, the load, the service.
    const until = Date.now() + 2000;
    while (Date.now() < until && runLeftovers(dir.path).length > 0) await new Promise((r) => setTimeout(r, 50));
    expect(runLeftovers(dir.path)).toEqual([]);
  });

  it("finds the issue's strategies", () => {
    expect(deadlineLab.strategies.map((s) => s.id)).toEqual(['unbounded', 'limited-concurrency', 'worker-pool', 'shed-load']);
  });

  it('in a spike above one core, unbounded fires its timers more than a second late; worker-pool keeps them near on time', async () => {
    const unbounded = await run('unbounded', params());
    const pool = await run('worker-pool', params());
    const figures = (s: DeadlineSummary) => ({
      strategy: s.strategy,
      outcome: s.outcome,
      reason: s.reason,
      ...Object.fromEntries(OUTCOMES.map((k) => [k, s[k]])),
      latenessP99Ms: s.latenessP99Ms,
      latenessMaxMs: s.latenessMaxMs,
      latencyMaxMs: s.latencyMaxMs,
    });
    console.log(JSON.stringify([figures(unbounded), figures(pool)]));
    expect([pool.outcome, pool.reason]).toEqual(['completed', null]);
    // Unbounded may still owe answers 10 s after the schedule (it does not always recover): those count as errors.
    if (unbounded.outcome !== 'completed')
      expect(unbounded.reason).toMatch(/requests failed \(first: request \d+: no answer 11.2 s after the schedule ended\)$/);
    for (const s of [unbounded, pool]) {
      expectAccounted(s);
      expect(s.spikeDemandCores).toBeGreaterThan(1);
      expect(s.lateness.length).toBeGreaterThan(0);
    }
    // The ordering is the claim. Unbounded blocks its loop with whole requests (100 objects × 5 ms
    // = 500 ms each, back to back in the spike), so its timers are structurally seconds late; the
    // pool's are late only by how long the OS keeps its main thread off a core, which a loaded
    // machine stretches: measured 58 and 72 ms (load average 7–12), 194 ms (a CI run beside other
    // work), 452 ms (test files two at a time on a loaded machine, unbounded then at most 1.4 s).
    // So the pool stays well below unbounded's worst, measured in the same run, not below a fixed
    // number of ms: a fixed 500 ms (one request's work) failed at 502 ms beside two busy loops and
    // two builds (2026-11-27, unbounded then 1 702 ms). Unbounded's lateness is structural (whole
    // requests block its loop), so starving both runs alike keeps the pool's at most half of it:
    // the quiet and busy runs since gave pool/unbounded 1/18 to 1/48, the starved one 1/3.4.
    expect(unbounded.latenessMaxMs).toBeGreaterThan(1000);
    expect(pool.latenessP99Ms).toBeLessThan(unbounded.latenessP99Ms);
    expect(pool.latenessP99Ms * 2).toBeLessThan(unbounded.latenessMaxMs);
    // Unbounded's requests wait behind the work; the pool's deadline timers cut them on time.
    expect(unbounded.late + unbounded.timedOut).toBeGreaterThan(0);
    expect(unbounded.latencyMaxMs).toBeGreaterThan(pool.latencyMaxMs);
  }, 90_000);

  it("each sample's event-loop delay shows the spike's stalls (it read 0 ms for 9 s of 500 ms stalls)", async () => {
    const samples: Array<Record<string, number>> = [];
    const s = await run('unbounded', params(), (sample) => samples.push(sample));
    expect(s.eventLoopDelayMs.max).toBeGreaterThan(200);
    // Samples whose interval held a stall of ≥ 200 ms (the long-task watcher's own timer saw it).
    const stalled = samples.filter((x) => (x.longTaskMs ?? 0) >= 200);
    expect(stalled.length).toBeGreaterThan(2);
    // The sampler's delay says so too (a stall may fall in the next sample's interval, whose own timer came that late).
    const seen = samples.filter((x) => x.elMaxMs >= 100);
    expect(seen.length).toBeGreaterThanOrEqual(stalled.length / 2);
    expect(Math.max(...samples.map((x) => x.elMaxMs))).toBeGreaterThan(0.5 * Math.max(...stalled.map((x) => x.longTaskMs)));
  }, 90_000);

  it('a stopped run takes the store, the load and the pool along', async () => {
    const s = await run('worker-pool', params({ durationS: 30, spikeStartS: 5, spikeS: 5 }), (sample, stop) => {
      if (sample.sent >= 3) stop();
    });
    expect(s.outcome).toBe('stopped');
    expect(s.sent).toBeGreaterThanOrEqual(3);
  }, 30_000);

  it('runs strategies of yours fenced: a new limiter of its own serves every request; a file write in a request ends the run refused', async () => {
    const forbidden = join(dir.path, 'written-by-deadline.txt');
    const result = await benchStrategyFiles<DeadlineSummary>({
      lab: 'deadline',
      files: {
        // New code: a first-come queue of its own instead of p-limit, the lab's service helpers for the rest.
        'queue-limit.ts': `import { Agent } from 'undici';
    import { forEachObject, getObject, serveDeadline, workHere } from '@stream-lab/labs/deadline/child/service';

    export const strategy = {
      id: 'queue-limit',
      role: 'limits',
      async run(ctx) {
        let active = 0;
        const waiting: Array<() => void> = [];
        const slot = () => (active < ctx.concurrency ? (active++, Promise.resolve()) : new Promise<void>((r) => waiting.push(r)));
        const free = () => { const next = waiting.shift(); if (next) next(); else active--; };
        const agent = new Agent({ connections: ctx.concurrency });
        const server = await serveDeadline(ctx, (req) =>
          forEachObject(ctx, req, async (objectId) => {
            await slot();
            try {
              if (req.signal.aborted) return false;
              const body = await getObject(ctx, agent, objectId, req.signal);
              if (req.signal.aborted) return false;
              workHere(ctx, body);
              return true;
            } finally {
              free();
            }
          }),
        );
        return { port: server.port, close: async () => void (await server.close(), await agent.destroy()) };
      },
    };`,
        // The write comes inside a request, where the harness would answer a failure with a 500.
        'writes-file.mjs': `import { writeFileSync } from 'node:fs';
    import { serveDeadline } from '@stream-lab/labs/deadline/child/service';
    export const strategy = {
      id: 'writes-file',
      role: 'limits',
      async run(ctx) {
        const server = await serveDeadline(ctx, async () => { writeFileSync(${JSON.stringify(forbidden)}, 'x'); });
        return { port: server.port, close: () => server.close() };
      },
    };`,
      },
      args: ['--duration-s', '3', '--spike-start-s', '1', '--spike-s', '1', '--baseline-rps', '2', '--spike-rps', '4', '--objects', '10', '--cpu-ms', '1'],
      dataDir: dir.path,
    });
    expect(result.code, result.stderr).toBe(1);
    const [mine, writes] = ['queue-limit', 'writes-file'].map(result.run);
    expect(mine.outcome, mine.reason ?? '').toBe('completed');
    expectAccounted(mine);
    expect(mine.objectsWorked).toBeGreaterThan(0);
    expect([writes.outcome, writes.reason]).toEqual(['refused', `no permission to write ${forbidden}`]);
    expect(existsSync(forbidden)).toBe(false);
  }, 180_000);

  it('refuses bad knobs naming the field and its range', () => {
    const message = (p: Record<string, unknown>) => deadlineParamsSchema.safeParse({ ...DEFAULT_DEADLINE_PARAMS, ...p }).error?.issues[0].message;
    expect(message({ objects: 0 })).toBe('objects must be between 10 and 100');
    expect(message({ spikeRps: 1e6 })).toBe('spikeRps must be between 0.1 and 200');
    expect(message({ deadlineMs: 0 })).toBe('deadlineMs must be between 10 and 60000');
    expect(() => deadlineLab.checkLimits(params({ durationS: 10, spikeStartS: 8, spikeS: 5 }))).toThrow(
      'spikeS: the spike (from 8 s for 5 s) must end within durationS (10 s)',
    );
  });

  it('sends the schedule open loop: baseline, spike, baseline', () => {
    const times = arrivalTimesMs({ baselineRps: 2, spikeRps: 6, spikeStartS: 1, spikeS: 2, durationS: 4 });
    expect(times.length).toBe(2 + 12 + 2);
    expect(times.filter((t) => t >= 1000 && t < 3000)).toHaveLength(12);
    expect(arrivalTimesMs(DEFAULT_DEADLINE_PARAMS)).toHaveLength(15 * 2 + 20 * 8 + 25 * 2);
  });
});
