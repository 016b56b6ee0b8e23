import { describe, expect, it } from 'vitest';
import { makeDeadlineSummary } from '../../../lib/test-fixtures';
import { deadlineVerdict, outcomesText, recoveryText } from './verdict';
import type { DeadlineSummary } from '../shared/schema';
import { traitsOf } from '../../test-traits';

/** The lab's verdict with the run's strategy's declared traits (labs/test-traits.ts). */
const verdict = (s: DeadlineSummary) => deadlineVerdict(s, traitsOf(s)).text;

describe('deadline verdict', () => {
  it('says the deadline was missed, how late the timers were, the recovery and the capacity arithmetic', () => {
    const v = verdict(makeDeadlineSummary());
    expect(v).toContain('170 of 240 requests missed the 1200 ms deadline (70 on time, 121 late, 49 timed out, 0 refused, 0 errors of 240 sent');
    expect(v).toContain('timers fired up to 3519 ms late');
    expect(v).toContain('was back 22.2 s after the spike ended (timers under 225 ms, as before the spike)');
    expect(v).toContain('8 req/s × 50 objects × 2.5 ms per object = 1.0 core of work in the spike');
    expect(v).toContain("One request's work is 50 × 2.5 ms = 127 ms on the main thread");
    expect(v).not.toMatch(/^Not /);
  });

  it('says so when a strategy meant to keep timers on time did not', () => {
    const v = verdict(makeDeadlineSummary({ strategy: 'worker-pool', spikeLatenessP99Ms: 400 }));
    expect(v).toMatch(/^Not what worker-pool should show: its timers were late in the spike \(p99 400 ms, more than 200 ms\)\. /);
  });

  it('says so when unbounded met every deadline although the spike asked for more than a core', () => {
    const s = makeDeadlineSummary({ onTime: 240, late: 0, timedOut: 0, spikeLatenessP99Ms: 20, latenessMaxMs: 40, spikeDemandCores: 1.5 });
    expect(verdict(s)).toMatch(/^Not the failure unbounded should show: /);
    expect(verdict(s)).toContain('Every request met the 1200 ms deadline');
  });

  it('does not call a spike within one core harmless when requests missed the deadline, and says where the lateness came from', () => {
    // The default fixture: 1.0 core of demand, 170 of 240 missed.
    const v = verdict(makeDeadlineSummary({ spikeDemandCores: 0.9 }));
    expect(v).toContain('170 of 240 requests missed');
    expect(v).not.toContain('no strategy needed to fall behind');
    expect(v).toContain('within one core on average, yet 170 requests missed the deadline: the lateness came from bursts');
    const calm = verdict(makeDeadlineSummary({ spikeDemandCores: 0.9, onTime: 240, late: 0, timedOut: 0, spikeLatenessP99Ms: 20 }));
    expect(calm).toContain('within one core, so no strategy needed to fall behind');
  });

  it('states no capacity arithmetic, and no contradiction from it, where the demand was not measured', () => {
    const v = deadlineVerdict(
      makeDeadlineSummary({ spikeDemandCores: null, baselineDemandCores: null, onTime: 240, late: 0, timedOut: 0, spikeLatenessP99Ms: 20 }),
      undefined,
    );
    expect(v.text).toContain("The spike's demand on the CPU was not measured.");
    expect(v.text).not.toContain('core');
    expect(v.figures).not.toHaveProperty('spikeDemandCores');
  });

  it('words the outcomes and the recovery', () => {
    expect(outcomesText(makeDeadlineSummary())).toBe('70 on time, 121 late, 49 timed out, 0 refused, 0 errors of 240 sent');
    expect(recoveryText({ recoveryMs: -1, latenessMaxMs: 900, recoveredBelowMs: 100 })).toBe(
      'had not recovered by the end of the schedule (timers under 100 ms, as before the spike)',
    );
    expect(recoveryText({ recoveryMs: 0, latenessMaxMs: 40, recoveredBelowMs: 100 })).toBe('never fell behind');
  });
});

describe('the verdict’s expected and figures', () => {
  const judged = (s: DeadlineSummary) => deadlineVerdict(s, traitsOf(s));

  it('confirms unbounded falling behind and a worker pool keeping its timers on time, quoting the figures in ms', () => {
    const unbounded = judged(makeDeadlineSummary());
    expect(unbounded.expected).toBe(true);
    expect(unbounded.figures).toMatchObject({ onTime: 70, late: 121, timedOut: 49, sent: 240, 'params.deadlineMs': 1200, latenessMaxMs: 3519 });
    const pool = makeDeadlineSummary({ strategy: 'worker-pool', onTime: 240, late: 0, timedOut: 0, spikeLatenessP99Ms: 20, spikeDemandCores: 1.5 });
    expect(judged(pool).expected).toBe(true);
  });

  it('contradicts a pool with late timers, unbounded that met every deadline, and shed-load that refused nothing', () => {
    expect(judged(makeDeadlineSummary({ strategy: 'worker-pool', spikeLatenessP99Ms: 400 })).expected).toBe(false);
    const calm = { onTime: 240, late: 0, timedOut: 0, spikeLatenessP99Ms: 20, latenessMaxMs: 40, spikeDemandCores: 1.5 };
    expect(judged(makeDeadlineSummary(calm)).expected).toBe(false);
    expect(judged(makeDeadlineSummary({ ...calm, strategy: 'shed-load', refused: 0 })).expected).toBe(false);
  });

  it('cannot tell when the spike never asked for more than a core and unbounded kept up, without the catalog, or when stopped', () => {
    expect(judged(makeDeadlineSummary({ spikeDemandCores: 0.9, onTime: 240, late: 0, timedOut: 0, spikeLatenessP99Ms: 20 })).expected).toBeNull();
    expect(deadlineVerdict(makeDeadlineSummary(), undefined).expected).toBeNull();
    expect(judged(makeDeadlineSummary({ outcome: 'stopped' })).expected).toBeNull();
  });

  it('counts a crash as worse than the completed run declared', () => {
    expect(judged(makeDeadlineSummary({ outcome: 'crashed', reason: 'exit code 1' })).expected).toBe(false);
  });
});
