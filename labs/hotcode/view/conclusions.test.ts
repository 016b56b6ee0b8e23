import { describe, expect, it } from 'vitest';
import type { HotcodeSummary } from '../shared/schema';
import { DEFAULT_HOTCODE_PARAMS } from '../shared/params';
import { concludeDates, concludeFrozen, concludeGrowth } from './conclusions';
import { HOTCODE_LESSON_STEPS } from './steps';

const run = (over: Partial<HotcodeSummary>): HotcodeSummary =>
  ({
    lab: 'hotcode',
    runId: 'r',
    strategy: 'report-slow',
    outcome: 'completed',
    reason: null,
    params: DEFAULT_HOTCODE_PARAMS,
    reportsOk: 1,
    reportsPlanned: 1,
    reportMsMin: 100,
    probeMaxMs: 100,
    sweepExponent: 0,
    sweep: [],
    ...over,
  }) as HotcodeSummary;

describe('hot-code lesson conclusions', () => {
  it('step 1: the fix is faster and /health waits less, or the text says it is not', () => {
    const fixed = run({ strategy: 'report-fixed', reportMsMin: 50, probeMaxMs: 60 });
    expect(concludeFrozen(run({ reportMsMin: 2000, probeMaxMs: 2100 }), fixed)).toMatchObject({ asExpected: true });
    expect(concludeFrozen(run({ reportMsMin: 2000, probeMaxMs: 2100 }), fixed).text).toMatch(/: 40× faster, and the server answers other requests again\.$/);
    expect(concludeFrozen(run({ reportMsMin: 60 }), fixed)).toMatchObject({ asExpected: false });
    expect(concludeFrozen(run({ outcome: 'timed-out' }), fixed).text).toMatch(/^report-slow ended as timed-out/);
  });

  it('step 2 and 3 conclude from the ratio and the exponents', () => {
    expect(concludeDates(run({ reportMsMin: 800 }), run({ reportMsMin: 30 }), run({ reportMsMin: 10 })).asExpected).toBe(true);
    expect(concludeDates(run({ reportMsMin: 40 }), run({ reportMsMin: 30 }), run({ reportMsMin: 10 })).asExpected).toBe(false);
    expect(concludeGrowth(run({ sweepExponent: 1.9 }), run({ sweepExponent: 1 })).asExpected).toBe(true);
    expect(concludeGrowth(run({ sweepExponent: 1.1 }), run({ sweepExponent: 1 })).asExpected).toBe(false);
  });

  it('every step runs hot-code presets with a short watchdog', () => {
    expect(HOTCODE_LESSON_STEPS.every((s) => s.lab === 'hotcode' && s.presets.every((p) => p.params.timeoutS === 120))).toBe(true);
  });
});
