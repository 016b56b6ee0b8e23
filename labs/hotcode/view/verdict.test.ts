import { describe, expect, it } from 'vitest';
import type { Measured } from '../../../lib/protocol';
import type { HotcodeSummary } from '../shared/schema';
import { MIB } from '../../../lib/protocol/params';
import { DEFAULT_HOTCODE_PARAMS } from '../shared/params';
import { healthText, hotcodeVerdict } from './verdict';
import { traitsOf } from '../../test-traits';
import { verdictOf } from '../../verdict-of';

/** The sentence of a run's verdict, as the card shows it. */
const verdictFor = (...args: Parameters<typeof verdictOf>) => verdictOf(...args).text;

/** The lab's verdict with the run's strategy's declared traits (labs/test-traits.ts). */
const verdict = (s: Measured<HotcodeSummary>, others: readonly Measured<HotcodeSummary>[] = []) => hotcodeVerdict(s, others, traitsOf(s)).text;

function summary(over: Partial<Measured<HotcodeSummary>> = {}): Measured<HotcodeSummary> {
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
    sweepStopped: 0,
    sweepSteps: [],
    sweepSlopes: [],
    sweepCliff: null,
    ...over,
  } as Measured<HotcodeSummary>;
}

const slow = summary();
const fixed = summary({ runId: 'h2', strategy: 'report-fixed', reportMsMin: 100, reportMsMax: 120, probeP50Ms: 2, probeMaxMs: 110 });

describe('hotcodeVerdict', () => {
  it('measures a slow report against its fix in the same experiment, with what /health waited', () => {
    expect(verdict(slow, [slow, fixed])).toBe(
      '3 reports of 20,000 rows took 3000 ms–3200 ms each of synchronous work; /health waited up to 3150 ms meanwhile (median 900 ms): ' +
        '30× slower than report-fixed: 100 ms, /health up to 110 ms.',
    );
    expect(verdictFor(slow, traitsOf(slow), [slow, fixed])).toBe(verdict(slow, [fixed]));
  });

  it('says how many probes a /health median rests on when they are few', () => {
    const twoProbes = summary({ probes: 2, probeP50Ms: 9775, probeMaxMs: 9800 });
    expect(verdict(twoProbes, [fixed])).toContain('/health waited up to 9800 ms meanwhile (median 9775 ms of 2 probes)');
    expect(hotcodeVerdict(twoProbes, [fixed], traitsOf(twoProbes)).figures).toMatchObject({ probes: 2, probeP50Ms: 9775 });
    expect(verdict(summary({ probes: 1 }), [fixed])).toContain('(median 900 ms of 1 probe)');
  });

  it('says so when the slow strategy was not slower than its fix', () => {
    expect(verdict(summary({ reportMsMin: 120 }), [fixed])).toMatch(/^Not the hot spot report-slow should show: .*, only 1\.2× the report-fixed/);
  });

  it('gives a sweep’s exponent, and flags a growth the strategy should not show', () => {
    const sweep = [
      { rows: 1000, ms: 1 },
      { rows: 10_000, ms: 90 },
    ];
    const sweepSteps = [
      { rows: 1000, status: 'measured' as const, ms: 1, wallMs: 1, projectedMs: null },
      { rows: 10_000, status: 'measured' as const, ms: 90, wallMs: 95, projectedMs: 20 },
      { rows: 20_000, status: 'skipped' as const, ms: null, wallMs: null, projectedMs: 760_000 },
    ];
    const spread = summary({
      strategy: 'groupby-spread',
      params: { ...DEFAULT_HOTCODE_PARAMS, sweep: true, rows: 20_000 },
      sweep,
      sweepSteps,
      sweepExponent: 1.95,
      sweepSkipped: 1,
    });
    expect(verdict(spread)).toBe(
      "From 1,000 to 10,000 rows the report's CPU time went from 1.0 ms to 90.0 ms: k ≈ 1.95 (quadratic: 2× the rows, 3.9× the time); " +
        '1 larger step skipped (would not fit the 600 s timeout, 20,000 rows projected at 12 min 40 s).',
    );
    expect(verdict({ ...spread, sweepExponent: 1.1 })).toMatch(/^Not the quadratic growth groupby-spread should show: /);
    expect(verdict({ ...spread, strategy: 'groupby-push' })).toMatch(/^Not the linear growth groupby-push should show: /);
  });

  it('names a cliff and a stopped step beside the exponent, from the figures', () => {
    const sweep = [
      { rows: 5000, ms: 20 },
      { rows: 10_000, ms: 100 },
    ];
    const cliff = { fromRows: 10_000, toRows: 20_000, slope: 4.73, growth: 26.5, atLeast: true };
    const s = summary({
      strategy: 'groupby-spread',
      params: { ...DEFAULT_HOTCODE_PARAMS, sweep: true, rows: 20_000, timeoutS: 12 },
      sweep,
      sweepExponent: 2.32,
      sweepStopped: 1,
      sweepSteps: [
        { rows: 5000, status: 'measured', ms: 20, wallMs: 20, projectedMs: null },
        { rows: 10_000, status: 'measured', ms: 100, wallMs: 130, projectedMs: 80 },
        { rows: 20_000, status: 'stopped', ms: 2650, wallMs: 6850, projectedMs: 1850 },
      ],
      sweepSlopes: [{ fromRows: 5000, toRows: 10_000, slope: 2.32, growth: 5, atLeast: false }, cliff],
      sweepCliff: cliff,
    });
    expect(verdict(s)).toBe(
      "From 5,000 to 10,000 rows the report's CPU time went from 20.0 ms to 100 ms: k ≈ 2.32 (faster than linear: 2× the rows, 5× the time); " +
        '20,000 rows stopped after 6.8 s (the time left). A cliff: from 10,000 to 20,000 rows the cost grew at least 27× (local slope ≥ 4.7), far above the fit.',
    );
    // A cliff alone makes a "linear" strategy's sweep read as not linear.
    expect(verdict({ ...s, strategy: 'groupby-push', sweepExponent: 1 })).toMatch(/^Not the linear growth groupby-push should show: .*A cliff: /);
  });
});

describe('healthText', () => {
  it('says /health was not probed rather than "up to 0.0 ms" when the run ended within one probe interval', () => {
    const fixed = summary({ strategy: 'report-fixed', probes: 0, probeMaxMs: 0 });
    expect(healthText(fixed)).toBe(`/health not probed: the run ended within one ${DEFAULT_HOTCODE_PARAMS.probeMs} ms probe interval`);
    expect(healthText(summary({ probes: 4, probeMaxMs: 110 }))).toBe('/health up to 110 ms');
    expect(verdict(summary(), [fixed])).not.toContain('up to 0');
  });
});

describe('the verdict’s expected and figures', () => {
  const judged = (s: Measured<HotcodeSummary>, others: readonly Measured<HotcodeSummary>[] = []) => hotcodeVerdict(s, others, traitsOf(s));
  const sweep = [
    { rows: 1000, ms: 1 },
    { rows: 10_000, ms: 90 },
  ];
  const swept = (strategy: string, sweepExponent: number) =>
    summary({ strategy, params: { ...DEFAULT_HOTCODE_PARAMS, sweep: true, rows: 10_000 }, sweep, sweepExponent });

  it('confirms a slow report well behind its fix, quoting both in ms and the ratio', () => {
    const v = judged(slow, [fixed]);
    expect(v.expected).toBe(true);
    expect(v.figures).toMatchObject({ reportMsMin: 3000, reportMsMax: 3200, 'report-fixed.reportMsMin': 100, 'report-fixed.probeMaxMs': 110, slowerRatio: 30 });
  });

  it('confirms a sweep that grew as its role declares, and contradicts one that did not', () => {
    expect(judged(swept('groupby-spread', 1.95)).expected).toBe(true);
    expect(judged(swept('groupby-push', 1)).expected).toBe(true);
    expect(judged(swept('groupby-spread', 1.1)).expected).toBe(false);
    expect(judged(swept('groupby-push', 1.95)).expected).toBe(false);
    expect(judged(swept('groupby-spread', 1.95)).figures).toMatchObject({ firstRows: 1000, firstMs: 1, lastRows: 10_000, lastMs: 90, sweepExponent: 1.95 });
  });

  it('contradicts a slow report hardly slower than its fix, and a run that timed out', () => {
    expect(judged({ ...slow, reportMsMin: 150 }, [fixed]).expected).toBe(false);
    expect(judged(summary({ outcome: 'timed-out', reportsOk: 1 })).expected).toBe(false);
  });

  it('cannot tell without its fix, with a sweep of one step, without the catalog, or when stopped', () => {
    expect(judged(slow).expected).toBeNull();
    expect(judged(summary({ strategy: 'groupby-spread', params: { ...DEFAULT_HOTCODE_PARAMS, sweep: true }, sweep: sweep.slice(0, 1) })).expected).toBeNull();
    expect(hotcodeVerdict(slow, [fixed], undefined).expected).toBeNull();
    expect(judged(summary({ outcome: 'stopped' })).expected).toBeNull();
  });

  it('never holds a fix to the hot-spot rule, even one that names the slow strategy to compare with', () => {
    // A file of yours with role fix and comparedWith: ['report-slow'], run beside it.
    const mine = summary({ runId: 'h3', strategy: 'rates-object', reportMsMin: 2, reportMsMax: 3 });
    const traits = { mode: null, keepsResults: false, role: 'fix', comparedWith: ['report-slow'] };
    const v = hotcodeVerdict(mine, [slow], traits);
    expect(v.text).not.toMatch(/Not the hot spot/);
    expect(v.expected).toBeNull();
  });
});
