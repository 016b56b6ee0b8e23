import { describe, expect, it } from 'vitest';
import { makeDeadlineSummary as summary } from '../../../lib/test-fixtures';
import { concludeLateTimers, concludeLimitVsShed } from './conclusions';
import { DEADLINE_LESSON_STEPS } from './steps';

// The four runs of docs/results.md §10 (run 3, the default schedule: 8 req/s of 50 objects in the spike).
const unbounded = summary(); // timers 2212 ms late in the spike (p99), 1.02 cores asked of the main thread
const pool = summary({
  strategy: 'worker-pool',
  onTime: 236,
  late: 1,
  timedOut: 3,
  latencyMaxMs: 1208,
  latenessP99Ms: 38,
  latenessMaxMs: 87,
  spikeLatenessP99Ms: 80,
  deadlineTimersFired: 3,
  deadlineLatenessMaxMs: 0.8,
  workMsPerObject: 2.55,
  spikeDemandCores: 1.02,
});
const limited = summary({
  strategy: 'limited-concurrency',
  onTime: 111,
  late: 3,
  timedOut: 126,
  latencyMaxMs: 1352,
  latenessMaxMs: 210,
  spikeLatenessP99Ms: 97,
  workMsPerObject: 2.52,
  spikeDemandCores: 1.008,
});
const shed = summary({
  strategy: 'shed-load',
  onTime: 158,
  late: 0,
  timedOut: 0,
  refused: 82,
  latencyMaxMs: 726,
  latenessMaxMs: 639,
  spikeLatenessP99Ms: 262,
  deadlineTimersFired: 0,
  workMsPerObject: 2.6,
  spikeDemandCores: 1.04,
});

describe('the deadlines walkthrough’s conclusions', () => {
  it('step 1: unbounded’s timers late in the spike, the pool’s on time, and why the pool still missed a few deadlines', () => {
    const c = concludeLateTimers(unbounded, pool);
    expect(c.asExpected).toBe(true);
    expect(c.text).toMatch(
      /^The spike asked 8 req\/s × 50 objects × 2\.5 ms = 1\.0 core of unbounded's main thread\. unbounded: timers 2212 ms late in the spike \(p99\), 3519 ms at most; 70 on time, 121 late, 49 timed out/,
    );
    expect(c.text).toContain(
      'worker-pool: timers 80.0 ms late in the spike (p99), 87.0 ms at most; 236 on time, 1 late, 3 timed out, 0 refused, 0 errors of 240 sent, the slowest answered 1208 ms after it was due.',
    );
    expect(c.text).toContain('worker-pool still missed 4 deadlines: its threads took 2.5 ms an object');
    expect(c.text).toContain('its deadline timers fired at most 0.80 ms late, so the 3 that timed out were cut at the deadline');
    expect(concludeLateTimers(unbounded, { ...pool, late: 0, timedOut: 0, onTime: 240 }).text).toContain(
      "Every one of worker-pool's 240 requests met the 1200 ms deadline.",
    );
  });

  it('step 1: says so when the pool’s timers were late too, or the spike fit in one core', () => {
    const latePool = concludeLateTimers(unbounded, { ...pool, spikeLatenessP99Ms: 400 });
    expect(latePool.asExpected).toBe(false);
    expect(latePool.text).toContain("Not what this lesson expects: unbounded's timers should be late in the spike (p99 over 200 ms) and worker-pool's not.");
    const small = concludeLateTimers({ ...unbounded, workMsPerObject: 1.5, spikeDemandCores: 0.6 }, pool);
    expect(small.asExpected).toBe(false);
    expect(small.text).toContain(
      'Not what this lesson expects: the spike should ask more than one core of the main thread, and this time its objects took 1.5 ms each (the preset asks 3.0 ms)',
    );
    // A crash is not a result of the lesson; unbounded still owing answers is.
    expect(concludeLateTimers(unbounded, { ...pool, outcome: 'crashed' }).text).toContain('worker-pool ended as crashed');
    expect(concludeLateTimers({ ...unbounded, outcome: 'data-lost' }, pool).asExpected).toBe(true);
  });

  it('step 2: the limiter’s requests wait past the deadline, shed-load refuses the excess and its timers are still late', () => {
    const c = concludeLimitVsShed(limited, shed);
    expect(c.asExpected).toBe(true);
    expect(c.text).toContain(
      'The limiter adds no CPU: 129 requests waited their turn past the deadline. shed-load answered 82 with 503 at once and missed 0 of the 158 it took.',
    );
    expect(c.text).toContain(
      "The limiter's timers were not late by the run card's line (97.0 ms p99 in the spike, under 200 ms): 16 objects at most wait in a turn",
    );
    expect(c.text).toContain(
      "shed-load's own timers were still 262 ms late in the spike (p99): it refuses only once the loop is 50.0 ms late, and an admitted request's work (50 × 2.6 ms = 130 ms)",
    );
  });

  it('step 2: says so when shed-load refused nothing, or the limiter kept up', () => {
    const none = concludeLimitVsShed(limited, { ...shed, refused: 0, onTime: 200, timedOut: 40 });
    expect(none.asExpected).toBe(false);
    expect(none.text).toContain('Not what this lesson expects: shed-load should refuse part of the spike with 503.');
    const keptUp = concludeLimitVsShed({ ...limited, onTime: 240, late: 0, timedOut: 0, spikeLatenessP99Ms: 300 }, shed);
    expect(keptUp.asExpected).toBe(false);
    expect(keptUp.text).toContain('limited-concurrency should miss deadlines');
    expect(keptUp.text).toContain("The limiter's timers were late too (300 ms p99 in the spike).");
  });

  it('concludes each step from its own presets’ runs, in order', () => {
    expect(DEADLINE_LESSON_STEPS.map((s) => s.presets[0].strategies)).toEqual([
      ['unbounded', 'worker-pool'],
      ['limited-concurrency', 'shed-load'],
    ]);
    expect(DEADLINE_LESSON_STEPS.every((s) => s.lab === 'deadline' && s.presets[0].params.timeoutS === 120)).toBe(true);
  });
});
