/**
 * The sweep's planning on a synthetic cost curve with a fake clock: which steps it measures, skips
 * or lets the watchdog stop, and the slopes and cliff it reads from them. The real processes and
 * the real watchdog are in hotcode.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  estimateStepMs,
  findCliff,
  fitExponent,
  localSlopes,
  measuredPoints,
  measureStep,
  REPEAT_MAX,
  runSweep,
  type StepResult,
  type SweepStep,
} from './sweep-steps';

/**
 * A driver whose steps cost `cost[rows]` ms of CPU and wall time: a repeated step runs 3 times, a
 * step past its limit is stopped there (as the child's watchdog does). The clock only moves by the
 * steps' time.
 */
function syntheticDriver(cost: Record<number, number>, budgetMs: number) {
  let clock = 0;
  const asked: Array<{ rows: number; limitMs: number }> = [];
  return {
    asked,
    driver: {
      budgetMs,
      now: () => clock,
      async measure(rows: number, limitMs: number, repeat: boolean): Promise<StepResult> {
        asked.push({ rows, limitMs });
        const ms = cost[rows];
        if (ms > limitMs) {
          clock += limitMs;
          return { stopped: true, cpuMs: limitMs, wallMs: limitMs };
        }
        clock += repeat ? 3 * ms : ms;
        return { stopped: false, cpuMs: ms, wallMs: ms };
      },
    },
  };
}

const statuses = (steps: SweepStep[]) => steps.map((s) => `${s.rows}:${s.status}`);

describe('sweep planning', () => {
  it('a cliff it could not project is stopped by the watchdog at the time left, and the sweep completes', async () => {
    // Costs 1, 2, 4, then 400× more: the last local slope (1) projects 2 × 4 × 2 = 16 ms for 1e4.
    const { driver, asked } = syntheticDriver({ 1000: 1, 2000: 2, 5000: 4, 10_000: 1600, 20_000: 6400 }, 1000);
    const { steps, failed } = await runSweep([1000, 2000, 5000, 10_000, 20_000], driver);
    expect(failed).toBe(false);
    expect(statuses(steps)).toEqual(['1000:measured', '2000:measured', '5000:measured', '10000:stopped', '20000:skipped']);
    // The stopped step had all the time that was left, and the sweep kept within its budget.
    const stopped = steps[3];
    expect(stopped.projectedMs).toBeCloseTo(2 * 4 * (10_000 / 5000) ** 1, 6);
    expect(asked[3].limitMs).toBe(1000 - 3 * (1 + 2 + 4));
    expect(stopped.wallMs).toBe(asked[3].limitMs);
    expect(driver.now()).toBeLessThanOrEqual(driver.budgetMs);
    // Nothing is asked for after a stopped step; the skipped one still carries a projection.
    expect(asked.map((a) => a.rows)).toEqual([1000, 2000, 5000, 10_000]);
    expect(steps[4].projectedMs).toBeGreaterThan(stopped.wallMs!);
  });

  it('skips a step whose projection from the last two steps passes the time left, with that projection', async () => {
    // Quadratic: 100, 400, 2500 ms (slope 2 from 2e3 to 5e3); 1e4 projects 2 × 2500 × 2² = 20 s against ~8.6 s left.
    const { driver, asked } = syntheticDriver({ 1000: 100, 2000: 400, 5000: 2500, 10_000: 10_000 }, 12_000);
    const { steps, failed } = await runSweep([1000, 2000, 5000, 10_000], driver);
    expect(failed).toBe(false);
    expect(statuses(steps)).toEqual(['1000:measured', '2000:measured', '5000:measured', '10000:skipped']);
    expect(steps[3].projectedMs).toBeCloseTo(20_000, 6);
    expect(asked.map((a) => a.rows)).toEqual([1000, 2000, 5000]);
  });

  it('projects from the last local slope, not the whole fit', () => {
    // Flat, then steep: the fit over all points is ~1.3, the last slope 3.
    const points = [
      { rows: 1000, ms: 10 },
      { rows: 2000, ms: 20 },
      { rows: 4000, ms: 40 },
      { rows: 8000, ms: 320 },
    ];
    expect(fitExponent(points)).toBeLessThan(2);
    expect(estimateStepMs(points, 16_000)).toBeCloseTo(2 * 320 * 8, 6);
    // Never less than linear, even if the last two steps got cheaper per row.
    expect(
      estimateStepMs(
        [
          { rows: 1000, ms: 10 },
          { rows: 2000, ms: 10 },
        ],
        4000,
      ),
    ).toBeCloseTo(2 * 10 * 2, 6);
  });

  it('reads the local slopes and names the cliff where one jumps far above the fit', () => {
    const steps: SweepStep[] = [
      { rows: 1000, status: 'measured', ms: 3, wallMs: 3, projectedMs: null },
      { rows: 2000, status: 'measured', ms: 12, wallMs: 12, projectedMs: 12 },
      { rows: 5000, status: 'measured', ms: 75, wallMs: 75, projectedMs: 150 },
      { rows: 10_000, status: 'measured', ms: 300, wallMs: 300, projectedMs: 600 },
      { rows: 20_000, status: 'measured', ms: 15_000, wallMs: 15_000, projectedMs: 2400 },
    ];
    const slopes = localSlopes(steps);
    expect(slopes.map((s) => s.slope.toFixed(2))).toEqual(['2.00', '2.00', '2.00', '5.64']);
    const k = fitExponent(measuredPoints(steps));
    expect(findCliff(slopes, steps, k)).toMatchObject({ fromRows: 10_000, toRows: 20_000, growth: 50, atLeast: false });
    // A clean quadratic has no cliff; neither have sub-millisecond steps whose noise doubles them.
    expect(findCliff(slopes.slice(0, 3), steps, 2)).toBeNull();
    const tiny: SweepStep[] = [
      { rows: 1000, status: 'measured', ms: 0.02, wallMs: 0.02, projectedMs: null },
      { rows: 2000, status: 'measured', ms: 0.3, wallMs: 0.3, projectedMs: 0.08 },
    ];
    expect(findCliff(localSlopes(tiny), tiny, 1)).toBeNull();
  });

  it('a stopped step makes an at-least slope and cliff; nothing is read past it', () => {
    const steps: SweepStep[] = [
      { rows: 5000, status: 'measured', ms: 80, wallMs: 80, projectedMs: null },
      { rows: 10_000, status: 'measured', ms: 320, wallMs: 320, projectedMs: 320 },
      { rows: 20_000, status: 'stopped', ms: 6000, wallMs: 7000, projectedMs: 2560 },
      { rows: 50_000, status: 'skipped', ms: null, wallMs: null, projectedMs: 90_000 },
    ];
    const slopes = localSlopes(steps);
    expect(slopes).toHaveLength(2);
    expect(slopes[1]).toMatchObject({ fromRows: 10_000, toRows: 20_000, atLeast: true });
    expect(findCliff(slopes, steps, fitExponent(measuredPoints(steps)))).toMatchObject({ toRows: 20_000, atLeast: true });
  });

  describe('one step, repeated while quick', () => {
    /** Reports that take `times[i]` ms each (the last one after that), stopped past their limit; the clock moves by them. */
    function reports(times: number[]) {
      let clock = 0;
      const limits: number[] = [];
      return {
        limits,
        now: () => clock,
        report: async (limitMs: number): Promise<StepResult> => {
          limits.push(limitMs);
          const ms = times[Math.min(limits.length - 1, times.length - 1)];
          if (ms > limitMs) {
            clock += limitMs;
            return { stopped: true, cpuMs: limitMs / 2, wallMs: limitMs };
          }
          clock += ms;
          return { stopped: false, cpuMs: ms / 2, wallMs: ms };
        },
      };
    }

    it('keeps a slow first try instead of repeating it into the watchdog (projected quick, took 21 s of 25)', async () => {
      const r = reports([21_000, 21_000]);
      expect(await measureStep(r.report, 25_000, true, r.now)).toEqual({ stopped: false, cpuMs: 10_500, wallMs: 21_000 });
      expect(r.limits).toEqual([25_000]);
    });

    it('repeats a quick step at least three times and for 200 ms, keeping the fastest', async () => {
      const r = reports([10, 8, 9, 12]);
      expect(await measureStep(r.report, 10_000, true, r.now)).toEqual({ stopped: false, cpuMs: 4, wallMs: 8 });
      // 10 + 8 + 9 + 12 × 15 ≥ 200 ms of tries.
      expect(r.limits.length).toBe(4 + 14);
      expect(r.limits[1]).toBe(10_000 - 10);
      const tiny = reports([0.1]);
      await measureStep(tiny.report, 10_000, true, tiny.now);
      expect(tiny.limits.length).toBe(REPEAT_MAX);
    });

    it('a stopped repeat leaves the tries before it; a stopped first try is the step stopped; a failure fails it', async () => {
      const late = reports([100, 5000]);
      expect(await measureStep(late.report, 1000, true, late.now)).toEqual({ stopped: false, cpuMs: 50, wallMs: 100 });
      const first = reports([5000]);
      expect(await measureStep(first.report, 1000, false, first.now)).toEqual({ stopped: true, cpuMs: 500, wallMs: 1000 });
      expect(
        await measureStep(
          async () => null,
          1000,
          true,
          () => 0,
        ),
      ).toBeNull();
    });
  });
});
