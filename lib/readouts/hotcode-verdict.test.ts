import { describe, expect, it } from 'vitest';
import type { HotcodeSummary } from '../protocol';
import { MIB } from '../protocol/params';
import { DEFAULT_HOTCODE_PARAMS } from '../../server/labs/hotcode/params';
import { hotcodeVerdict } from './hotcode-verdict';
import { verdictFor } from './verdict';

function summary(over: Partial<HotcodeSummary> = {}): HotcodeSummary {
  return {
    lab: 'hotcode',
    runId: 'h1',
    strategy: 'report-slow',
    outcome: 'completed',
    reason: null,
    durationMs: 9000,
    peak: { rss: 60 * MIB, heapTotal: 20 * MIB, heapUsed: 15 * MIB, external: 2 * MIB, arrayBuffers: MIB / 8 },
    idle: null,
    aboveIdle: null,
    procPeakRss: 61 * MIB,
    eventLoopDelayMs: { p50: 1, p99: 3000, max: 3000 },
    gc: { count: 20, totalMs: 30 },
    cpu: null,
    sampleCount: 100,
    nodeVersion: '20.20.2',
    library: { name: 'node', version: '20.20.2' },
    params: { ...DEFAULT_HOTCODE_PARAMS },
    startedAt: 1_700_000_000_000,
    reportsPlanned: 3,
    reportsOk: 3,
    badReports: 0,
    reportMsMin: 3000,
    reportMsMax: 3200,
    latencyP50Ms: 3100,
    probeP50Ms: 900,
    probeMaxMs: 3150,
    probes: 40,
    sweepExponent: 0,
    sweepSkipped: 0,
    sweep: [],
    ...over,
  } as HotcodeSummary;
}

const slow = summary();
const fixed = summary({ runId: 'h2', strategy: 'report-fixed', reportMsMin: 100, reportMsMax: 120, probeP50Ms: 2, probeMaxMs: 110 });

describe('hotcodeVerdict', () => {
  it('measures a slow report against its fix in the same experiment, with what /health waited', () => {
    expect(hotcodeVerdict(slow, [slow, fixed])).toBe(
      '3 reports of 20,000 rows took 3000 ms–3200 ms each of synchronous work; /health waited up to 3150 ms meanwhile (median 900 ms): ' +
        '30× slower than report-fixed: 100 ms, /health up to 110 ms.',
    );
    expect(verdictFor(slow, undefined, [slow, fixed])).toBe(hotcodeVerdict(slow, [fixed]));
  });

  it('says so when the slow strategy was not slower than its fix', () => {
    expect(hotcodeVerdict(summary({ reportMsMin: 120 }), [fixed])).toMatch(/^Not the hot spot report-slow should show: .*, only 1\.2× the report-fixed/);
  });

  it('gives a sweep’s exponent, and flags a growth the strategy should not show', () => {
    const sweep = [{ rows: 1000, ms: 1 }, { rows: 10_000, ms: 90 }];
    const spread = summary({ strategy: 'groupby-spread', params: { ...DEFAULT_HOTCODE_PARAMS, sweep: true, rows: 10_000 }, sweep, sweepExponent: 1.95, sweepSkipped: 1 });
    expect(hotcodeVerdict(spread)).toBe(
      "From 1,000 to 10,000 rows the report's CPU time went from 1.0 ms to 90.0 ms: k ≈ 1.95 (quadratic: 2× the rows, 3.9× the time); " +
        '1 larger step skipped (they would have passed the 600 s timeout).',
    );
    expect(hotcodeVerdict({ ...spread, sweepExponent: 1.1 })).toMatch(/^Not the quadratic growth groupby-spread should show: /);
    expect(hotcodeVerdict({ ...spread, strategy: 'groupby-push' })).toMatch(/^Not the linear growth groupby-push should show: /);
  });
});
