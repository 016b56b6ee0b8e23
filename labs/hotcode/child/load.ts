/**
 * The hot-code lab's load, in its own process: asks the run's server for reports one after another
 * (or, in a sweep, one report per row count, timed) and probes GET /health every `probeMs`, so a
 * report that blocks the server's event loop shows as the probe's wait. Child build entry (no zod).
 */
import { Agent } from 'node:http';
import { get, percentile } from '../../../server/child/http-get';
import { send as sendToRun, serveLoad, type LoadMessage } from '../../../server/child/load-process';
import type { ReportAnswer, StoppedAnswer } from './serve';
import { fitExponent, measuredPoints, measureStep, runSweep, sweepSteps, type StepResult, type SweepStep } from './sweep-steps';

export interface HotcodeLoadConfig {
  port: number;
  rows: number;
  requests: number;
  probeMs: number;
  sweep: boolean;
  timeoutS: number;
}

export interface HotcodeLoadReadings {
  reportsOk: number;
  badReports: number;
  /** The latest /health round trip, or the age of the one still waiting (ms); absent before the first probe. */
  probeMs?: number;
  /** The latest report's time in the server's handler (ms). */
  lastReportMs: number;
  /** Rows of the report asked for last (a sweep's current step). */
  reportRows: number;
}

export interface HotcodeLoadDone {
  figures: Record<string, number>;
  /** Every step of the ladder as it ended: measured, stopped or skipped (the exponent is fitted to the measured ones). */
  sweepSteps: SweepStep[];
  problem: string | null;
}
export type HotcodeLoadMessage = LoadMessage<HotcodeLoadReadings, HotcodeLoadDone>;

const REPORT_MS = 250;
/** The sweep keeps this share of the run's timeout for itself; the rest is start-up and slack. */
const SWEEP_BUDGET_SHARE = 0.7;
/** A step's request waits this long past its limit for the watchdog's answer before giving up on it. */
const STOP_GRACE_MS = 10_000;

const send: (m: HotcodeLoadMessage, then?: () => void) => void = sendToRun;

/** Probes /health every `everyMs`; `now()` is the last round trip or the age of the one waiting, null before the first. */
function startProbe(port: number, everyMs: number, timeoutMs: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  let sentAt: number | null = null;
  let pending: Promise<unknown> | null = null;
  let last: number | null = null;
  const timer =
    everyMs > 0
      ? setInterval(() => {
          if (sentAt !== null) return; // still waiting: that wait is the reading
          const at = (sentAt = performance.now());
          pending = get(port, '/health', agent, timeoutMs)
            .then(
              () => times.push((last = performance.now() - at)),
              () => undefined,
            )
            .finally(() => (sentAt = null));
        }, everyMs)
      : null;
  return {
    times,
    now: (): number | null => (sentAt !== null ? Math.max(last ?? 0, performance.now() - sentAt) : last),
    /** Stops probing; a probe still waiting (the longest one, behind a report) is let finish. */
    async stop() {
      if (timer) clearInterval(timer);
      if (sentAt !== null) await pending;
      agent.destroy();
    },
  };
}

/** No reading before the first probe: the chart starts at the first round trip, not at 0 ms. */
const probeReading = (ms: number | null) => (ms === null ? {} : { probeMs: ms });

async function main(cfg: HotcodeLoadConfig): Promise<void> {
  const t0 = performance.now();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const probe = startProbe(cfg.port, cfg.probeMs, cfg.timeoutS * 1000);
  const computed: number[] = [];
  const latencies: number[] = [];
  const state = { ok: 0, bad: 0, lastMs: 0, rows: 0, id: 0 };
  let problem: string | null = null;
  const reporter = setInterval(
    () =>
      send({
        type: 'readings',
        readings: { reportsOk: state.ok, badReports: state.bad, ...probeReading(probe.now()), lastReportMs: state.lastMs, reportRows: state.rows },
      }),
    REPORT_MS,
  );

  /**
   * One report of `rows` rows, checked: its time in the handler (wall, and CPU for a sweep), or
   * null if it failed. With `limitMs` the server's watchdog ends it past that time (`stopped`).
   */
  async function report(rows: number, limitMs: number | null = null): Promise<StepResult> {
    const id = ++state.id;
    state.rows = rows;
    const start = performance.now();
    try {
      const limit = limitMs === null ? '' : `&limitMs=${Math.max(1, Math.floor(limitMs))}`;
      const r = await get(cfg.port, `/report?rows=${rows}&id=${id}${limit}`, agent, limitMs === null ? cfg.timeoutS * 1000 : limitMs + STOP_GRACE_MS);
      if (r.status === 503 && limitMs !== null) {
        const s = JSON.parse(r.body) as StoppedAnswer;
        if (s.stopped && s.id === id) return { stopped: true, wallMs: s.wallMs, cpuMs: s.cpuMs };
      }
      latencies.push(performance.now() - start);
      const a = r.status === 200 ? (JSON.parse(r.body) as ReportAnswer) : null;
      const counted = a !== null && a.id === id && (a.dayRows !== null || a.rateRows !== null) && (a.dayRows ?? rows) === rows && (a.rateRows ?? rows) === rows;
      if (!counted) {
        problem ??= a === null ? `report ${id}: status ${r.status}` : `report ${id} of ${rows} rows counted ${a.dayRows ?? a.rateRows} rows`;
        state.bad += 1;
        return null;
      }
      state.lastMs = a.computeMs;
      computed.push(a.computeMs);
      return { stopped: false, wallMs: a.computeMs, cpuMs: a.cpuMs };
    } catch (err) {
      problem ??= (err as Error).message;
      state.bad += 1;
      return null;
    }
  }

  // Fitted in CPU time (what the work costs), projected in wall time (what the timeout counts).
  let steps: SweepStep[] = [];
  if (!cfg.sweep) {
    for (let i = 0; i < cfg.requests; i++) if ((await report(cfg.rows)) !== null) state.ok += 1;
  } else {
    const ladder = sweepSteps(cfg.rows);
    // The first step once untimed: its first reports would time the JIT compiling the strategy.
    await report(ladder[0]);
    const ran = await runSweep(ladder, {
      budgetMs: cfg.timeoutS * 1000 * SWEEP_BUDGET_SHARE,
      now: () => performance.now() - t0,
      measure: async (rows, limitMs, repeat) => {
        const r = await measureStep(
          (left) => report(rows, left),
          limitMs,
          repeat,
          () => performance.now(),
        );
        if (r !== null && !r.stopped) state.ok += 1;
        return r;
      },
    });
    steps = ran.steps;
  }
  const count = (status: SweepStep['status']) => steps.filter((s) => s.status === status).length;
  clearInterval(reporter);
  await probe.stop();
  agent.destroy();
  send({
    type: 'readings',
    readings: { reportsOk: state.ok, badReports: state.bad, ...probeReading(probe.now()), lastReportMs: state.lastMs, reportRows: state.rows },
  });
  const figures = {
    reportsOk: state.ok,
    badReports: state.bad,
    reportMsMin: computed.length ? Math.min(...computed) : 0,
    reportMsMax: computed.length ? Math.max(...computed) : 0,
    latencyP50Ms: percentile(latencies, 50),
    probeP50Ms: percentile(probe.times, 50),
    probeMaxMs: probe.times.length ? Math.max(...probe.times) : 0,
    probes: probe.times.length,
    sweepExponent: fitExponent(measuredPoints(steps)),
    sweepSkipped: count('skipped'),
    sweepStopped: count('stopped'),
  };
  await new Promise<void>((resolve) => send({ type: 'done', problem, sweepSteps: steps, figures }, resolve));
}

serveLoad(main);
