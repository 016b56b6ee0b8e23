/**
 * The hot-code lab's load, in its own process: asks the run's server for reports one after another
 * (or, in a sweep, one report per row count, timed) and probes GET /health every `probeMs`, so a
 * report that blocks the server's event loop shows as the probe's wait. Child build entry (no zod).
 */
import { Agent } from 'node:http';
import { get, percentile } from '../../child/http-get';
import { send as sendToRun, serveLoad, type LoadMessage } from '../../child/load-process';
import type { ReportAnswer } from './serve';
import { estimateStepMs, fitExponent, sweepSteps, type SweepPoint } from './sweep-steps';

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
  /** The latest /health round trip, or the age of the one still waiting (ms). */
  probeMs: number;
  /** The latest report's time in the server's handler (ms). */
  lastReportMs: number;
  /** Rows of the report asked for last (a sweep's current step). */
  reportRows: number;
}

export interface HotcodeLoadDone {
  figures: Record<string, number>;
  sweep: SweepPoint[];
  problem: string | null;
}
export type HotcodeLoadMessage = LoadMessage<HotcodeLoadReadings, HotcodeLoadDone>;

const REPORT_MS = 250;
/** The sweep keeps this share of the run's timeout for itself; the rest is start-up and slack. */
const SWEEP_BUDGET_SHARE = 0.7;
/**
 * Steps estimated faster than this are repeated (at least 3 times, up to 50 or for 200 ms) and the
 * fastest kept: a shared machine's noise only ever adds time, and the sub-millisecond steps of a
 * linear strategy need many tries to find their floor (measured: the min of up to 50 gave groupBy
 * with push an exponent of 0.97–1.07 over 1e3…1e5, three tries 1.0–1.5).
 */
const REPEAT_BELOW_MS = 500;
const REPEAT_MAX = 50;
const REPEAT_FOR_MS = 200;

const send: (m: HotcodeLoadMessage, then?: () => void) => void = sendToRun;

/** Probes /health every `everyMs`; `now()` is the last round trip or the age of the one waiting. */
function startProbe(port: number, everyMs: number, timeoutMs: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  let sentAt: number | null = null;
  let pending: Promise<unknown> | null = null;
  let last = 0;
  const timer =
    everyMs > 0
      ? setInterval(() => {
          if (sentAt !== null) return; // still waiting: that wait is the reading
          const at = (sentAt = performance.now());
          pending = get(port, '/health', agent, timeoutMs).then(
            () => times.push((last = performance.now() - at)),
            () => undefined,
          ).finally(() => (sentAt = null));
        }, everyMs)
      : null;
  return {
    times,
    now: () => (sentAt !== null ? Math.max(last, performance.now() - sentAt) : last),
    /** Stops probing; a probe still waiting (the longest one, behind a report) is let finish. */
    async stop() {
      if (timer) clearInterval(timer);
      if (sentAt !== null) await pending;
      agent.destroy();
    },
  };
}

async function main(cfg: HotcodeLoadConfig): Promise<void> {
  const t0 = performance.now();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const probe = startProbe(cfg.port, cfg.probeMs, cfg.timeoutS * 1000);
  const computed: number[] = [];
  const latencies: number[] = [];
  const state = { ok: 0, bad: 0, lastMs: 0, rows: 0, id: 0 };
  let problem: string | null = null;
  const reporter = setInterval(
    () => send({ type: 'readings', readings: { reportsOk: state.ok, badReports: state.bad, probeMs: probe.now(), lastReportMs: state.lastMs, reportRows: state.rows } }),
    REPORT_MS,
  );

  /** One report of `rows` rows, checked: its time in the handler (wall, and CPU for a sweep), or null if it failed. */
  async function report(rows: number): Promise<{ wallMs: number; cpuMs: number } | null> {
    const id = ++state.id;
    state.rows = rows;
    const start = performance.now();
    try {
      const r = await get(cfg.port, `/report?rows=${rows}&id=${id}`, agent, cfg.timeoutS * 1000);
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
      return { wallMs: a.computeMs, cpuMs: a.cpuMs };
    } catch (err) {
      problem ??= (err as Error).message;
      state.bad += 1;
      return null;
    }
  }

  /** A sweep step's times: once, or repeated as REPEAT_BELOW_MS says; stops at the first failure. */
  async function repeatedReport(rows: number, repeat: boolean): Promise<Array<{ wallMs: number; cpuMs: number }>> {
    const times: Array<{ wallMs: number; cpuMs: number }> = [];
    const start = performance.now();
    while (times.length < 1 || (repeat && (times.length < 3 || (times.length < REPEAT_MAX && performance.now() - start < REPEAT_FOR_MS)))) {
      const ms = await report(rows);
      if (ms === null) break;
      times.push(ms);
    }
    return times;
  }

  // Fitted in CPU time (what the work costs), estimated in wall time (what the timeout counts).
  const sweep: SweepPoint[] = [];
  const walls: SweepPoint[] = [];
  let skipped = 0;
  if (!cfg.sweep) {
    for (let i = 0; i < cfg.requests; i++) if ((await report(cfg.rows)) !== null) state.ok += 1;
  } else {
    const budgetMs = cfg.timeoutS * 1000 * SWEEP_BUDGET_SHARE;
    for (const rows of sweepSteps(cfg.rows)) {
      const estimate = estimateStepMs(walls, rows);
      const repeat = estimate < REPEAT_BELOW_MS;
      // A repeated step runs 3 times at least, and on for REPEAT_FOR_MS.
      const stepMs = repeat ? Math.max(3 * estimate, REPEAT_FOR_MS + estimate) : estimate;
      // Larger steps would only take longer: the rest of the ladder is skipped.
      if (performance.now() - t0 + stepMs > budgetMs) {
        skipped += 1;
        continue;
      }
      // The first step once untimed: its first reports would time the JIT compiling the strategy.
      if (sweep.length === 0) await report(rows);
      const times = await repeatedReport(rows, repeat);
      if (times.length === 0) break;
      sweep.push({ rows, ms: Math.min(...times.map((t) => t.cpuMs)) });
      walls.push({ rows, ms: Math.min(...times.map((t) => t.wallMs)) });
      state.ok += 1;
    }
  }
  clearInterval(reporter);
  await probe.stop();
  agent.destroy();
  send({ type: 'readings', readings: { reportsOk: state.ok, badReports: state.bad, probeMs: probe.now(), lastReportMs: state.lastMs, reportRows: state.rows } });
  const figures = {
    reportsOk: state.ok,
    badReports: state.bad,
    reportMsMin: computed.length ? Math.min(...computed) : 0,
    reportMsMax: computed.length ? Math.max(...computed) : 0,
    latencyP50Ms: percentile(latencies, 50),
    probeP50Ms: percentile(probe.times, 50),
    probeMaxMs: probe.times.length ? Math.max(...probe.times) : 0,
    probes: probe.times.length,
    sweepExponent: fitExponent(sweep),
    sweepSkipped: skipped,
  };
  await new Promise<void>((resolve) => send({ type: 'done', problem, sweep, figures }, resolve));
}

serveLoad(main);
