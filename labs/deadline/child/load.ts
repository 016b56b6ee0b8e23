/**
 * The deadlines lab's load, in its own process: open loop. Requests leave on the schedule
 * (baseline, spike, baseline) whether or not earlier ones were answered, and each one's latency is
 * measured from when it was due to leave, so a service that falls behind cannot slow the clock that
 * judges it. Counts every answer by outcome; sent = on time + late + timed out + refused + errors.
 * Child build entry (no zod).
 */
import { Agent } from 'undici';
import { send as sendToRun, serveLoad, type LoadMessage } from '../../../server/child/load-process';
import { arrivalTimesMs } from '../shared/schedule';
import { percentileOf } from './lateness';
import type { Outcome } from '../shared/schema';
import type { FetchAnswer } from './service';

export interface DeadlineLoadConfig {
  port: number;
  baselineRps: number;
  spikeRps: number;
  spikeStartS: number;
  spikeS: number;
  durationS: number;
  deadlineMs: number;
  /** After the schedule, how long answers still in flight are waited for (then they count as errors). */
  drainMs: number;
}

export type DeadlineLoadReadings = Record<Outcome | 'sent' | 'offeredRps' | 'completedRps' | 'inFlight', number> & {
  /** Date.now() when the schedule started (0 before). */
  startedAt: number;
};

export interface DeadlineLoadDone {
  figures: Record<string, number>;
  problem: string | null;
}

const REPORT_MS = 250;
const TICK_MS = 2;
/** Rates are counted over the last second (4 reports). */
const RATE_REPORTS = 4;

const send: (m: LoadMessage<DeadlineLoadReadings, DeadlineLoadDone>, then?: () => void) => void = sendToRun;

/** Which outcome an answer is: complete within the deadline, complete after it, cut by the deadline, refused, or anything else. */
function classify(status: number, answer: FetchAnswer | null, id: number, latencyMs: number, deadlineMs: number): Outcome | string {
  if (status === 503 && answer?.outcome === 'refused') return 'refused';
  if (status !== 200 || answer === null) return `request ${id}: status ${status}`;
  if (answer.id !== id) return `request ${id} got the answer to request ${answer.id}`;
  if (answer.outcome === 'timed-out') return 'timedOut';
  if (answer.outcome !== 'complete') return `request ${id}: outcome ${String(answer.outcome)}`;
  return latencyMs <= deadlineMs ? 'onTime' : 'late';
}

async function main(cfg: DeadlineLoadConfig): Promise<void> {
  const times = arrivalTimesMs(cfg);
  // Keep-alive connections, as a service's clients keep them, and no cap on how many: an open-loop
  // client never waits for a free one (a new one opens; when the service is behind, it waits to be
  // accepted, and that wait is part of the latency).
  const agent = new Agent({ connections: null, pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: 0, bodyTimeout: 0 });
  const origin = `http://127.0.0.1:${cfg.port}`;
  const counts: Record<Outcome, number> = { onTime: 0, late: 0, timedOut: 0, refused: 0, errors: 0 };
  const latencies: number[] = [];
  const aborter = new AbortController();
  const pending = new Set<Promise<void>>();
  let problem: string | null = null;
  let sent = 0;
  let answered = 0;
  let peakInFlight = 0;

  async function one(id: number, dueAt: number): Promise<void> {
    let outcome: Outcome | string;
    try {
      const res = await agent.request({ origin, path: `/fetch?id=${id}`, method: 'GET', signal: aborter.signal });
      const text = await res.body.text();
      let answer: FetchAnswer | null = null;
      try {
        answer = JSON.parse(text) as FetchAnswer;
      } catch {
        answer = null;
      }
      const latencyMs = performance.now() - dueAt;
      if (res.statusCode === 200) latencies.push(latencyMs);
      outcome = classify(res.statusCode, answer, id, latencyMs, cfg.deadlineMs);
    } catch (err) {
      outcome = aborter.signal.aborted
        ? `request ${id}: no answer ${cfg.drainMs / 1000} s after the schedule ended`
        : `request ${id}: ${(err as Error).message}`;
    }
    answered += 1;
    if (outcome in counts) counts[outcome as Outcome] += 1;
    else {
      counts.errors += 1;
      problem ??= outcome;
    }
  }

  const t0 = performance.now();
  const startedAt = Date.now();
  const history: Array<{ sent: number; answered: number }> = [];
  const readings = (): DeadlineLoadReadings => {
    const back = history.at(-RATE_REPORTS - 1) ?? { sent: 0, answered: 0 };
    const spanS = (Math.min(history.length, RATE_REPORTS) * REPORT_MS) / 1000 || 1;
    return { sent, ...counts, offeredRps: (sent - back.sent) / spanS, completedRps: (answered - back.answered) / spanS, inFlight: sent - answered, startedAt };
  };
  const reporter = setInterval(() => {
    history.push({ sent, answered });
    if (history.length > RATE_REPORTS + 1) history.shift();
    send({ type: 'readings', readings: readings() });
  }, REPORT_MS);
  send({ type: 'readings', readings: readings() });

  // Open loop: every tick sends whatever is due (even if this process was late to wake up).
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const now = performance.now() - t0;
      while (next < times.length && times[next] <= now) {
        const id = next++;
        sent += 1;
        const p = one(id, t0 + times[id]).finally(() => pending.delete(p));
        pending.add(p);
        peakInFlight = Math.max(peakInFlight, sent - answered);
      }
      if (next >= times.length) {
        clearInterval(tick);
        resolve();
      }
    }, TICK_MS);
  });

  const drain = setTimeout(() => aborter.abort(), cfg.drainMs);
  await Promise.all(pending);
  clearTimeout(drain);
  clearInterval(reporter);
  await agent.destroy();
  send({ type: 'readings', readings: readings() });
  const figures = {
    requestsPlanned: times.length,
    sent,
    ...counts,
    peakInFlight,
    latencyP50Ms: percentileOf(latencies, 50),
    latencyP99Ms: percentileOf(latencies, 99),
    latencyMaxMs: latencies.reduce((m, v) => Math.max(m, v), 0),
  };
  await new Promise<void>((resolve) => send({ type: 'done', figures, problem }, resolve));
}

serveLoad(main);
