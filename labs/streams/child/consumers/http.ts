/**
 * The http consumer: each item is POSTed to a mock API (../api-server.ts) in a process of its own,
 * through an undici Pool of `pool` connections, the way a job calls a service per record. An
 * answer of 500 or a failed call is counted and the item moves on. At the end the API's own count
 * of calls, bytes and checksum must match what was sent.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { performance, createHistogram } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import type { Pool } from 'undici';
import { limitAt } from '../../../../server/child/check-config';
import { endProcess } from '../../../../server/child/load-process';
import { STREAMS_LIMITS } from '../../shared/limits';
import type { ApiConfig, ApiCounts, FromApi, ToApi } from '../api-server';
import { burnCpu } from '../consumer';
import { addToChecksum } from './checksum';
import type { ConsumerModule, ConsumerReport } from './types';

export interface HttpConsumerConfig extends ApiConfig {
  /** Connections of the undici pool. */
  pool: number;
}

/** What the consumer sent, counted the way the API counts what it received. */
export type Sent = ApiCounts;

/** How the consumer's calls went. */
export interface Answers {
  /** Answered 500. */
  errors500: number;
  /** No answer: a timeout, a refused or cut connection. */
  failed: number;
}

/**
 * A call gets this long for its answer before it counts as failed: far beyond the slowest latency
 * the API draws at its knobs' limits (p99 10 s), so only a hung API or connection trips it.
 */
const timeoutMsFor = (cfg: ApiConfig) => Math.max(30_000, 5 * Math.max(cfg.p50Ms, cfg.p99Ms));

// This module is bundled into the scenario (child/scenario.mjs); the API's entry is compiled beside it.
const API_ENTRY = fileURLToPath(new URL('./api-server.mjs', import.meta.url));

/** Forks the mock API and resolves with it and its port once it listens. */
function startApi(config: ApiConfig): Promise<{ child: ChildProcess; port: number }> {
  // No execArgv: the run's own flags (--expose-gc, a heap limit) are not the API's.
  const child = fork(API_ENTRY, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m: FromApi) => {
      if (m.type === 'listening') resolve({ child, port: m.port });
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`the mock API ended before listening (code ${code}, signal ${signal})`)));
    child.send({ type: 'start', config } satisfies ToApi);
  });
}

/** The API's counts of what it received, or an error if it is gone before answering. */
/** How long the API has to report its counts: it answers at once unless it is gone or stuck. */
const COUNTS_TIMEOUT_MS = 10_000;

function askCounts(child: ChildProcess): Promise<ApiCounts> {
  return new Promise((resolve, reject) => {
    // An API that died during the run (a crash, a strategy's kill) has already sent 'exit': ask
    // nothing of it, or the run would wait on an event that came and went.
    if (!child.connected || child.exitCode !== null || child.signalCode !== null) {
      reject(new Error(`the mock API ended during the run (code ${child.exitCode}, signal ${child.signalCode}), before reporting its counts`));
      return;
    }
    const done = (err: Error | null, counts?: ApiCounts) => {
      clearTimeout(timer);
      child.off('exit', onExit).off('message', onMessage);
      if (err) reject(err);
      else resolve(counts!);
    };
    const onExit = (code: number | null, signal: string | null) =>
      done(new Error(`the mock API ended before reporting its counts (code ${code}, signal ${signal})`));
    const onMessage = (m: FromApi) => {
      if (m.type === 'counts') done(null, { calls: m.calls, bytes: m.bytes, checksum: m.checksum });
    };
    const timer = setTimeout(() => done(new Error(`the mock API did not report its counts within ${COUNTS_TIMEOUT_MS / 1000} s`)), COUNTS_TIMEOUT_MS);
    child.on('message', onMessage).once('exit', onExit);
    child.send({ type: 'counts' } satisfies ToApi, (err) => err && done(new Error(`could not ask the mock API for its counts: ${err.message}`)));
  });
}

const count = (n: number) => n.toLocaleString('en-US');

/** What the consumer reports at the end: the API's counts against what was sent, and the errors answered. */
export function httpReport(sent: Sent, api: ApiCounts, answers: Answers, errorRate: number, latencyMs: { p50: number; p99: number }): ConsumerReport {
  let lost: string | null = null;
  if (api.calls !== sent.calls) lost = `the API received ${count(api.calls)} of ${count(sent.calls)} calls`;
  else if (api.bytes !== sent.bytes) lost = `the API received ${count(api.bytes)} of ${count(sent.bytes)} bytes sent`;
  else if (api.checksum !== sent.checksum)
    lost = `the API received ${count(api.calls)} calls, but not the bodies sent (checksum ${api.checksum}, sent ${sent.checksum})`;
  const notes = [
    answers.errors500 > 0 && `${count(answers.errors500)} of ${count(sent.calls)} API calls were answered 500 (error rate ${errorRate})`,
    answers.failed > 0 && `${count(answers.failed)} of ${count(sent.calls)} API calls failed (no answer in time, or the connection failed)`,
  ].filter((n): n is string => typeof n === 'string');
  return {
    extras: { apiCalls: api.calls, apiErrors: answers.errors500 + answers.failed, apiP50Ms: latencyMs.p50, apiP99Ms: latencyMs.p99 },
    lost,
    note: notes.length ? notes.join('; ') : null,
  };
}

export const httpConsumer: ConsumerModule<HttpConsumerConfig> = {
  parse: (c) => ({
    // The API's median latency is the lab's consumer delay.
    p50Ms: limitAt(c, 'p50Ms', STREAMS_LIMITS.delayMs),
    p99Ms: limitAt(c, 'p99Ms', STREAMS_LIMITS.apiP99Ms),
    errorRate: limitAt(c, 'errorRate', STREAMS_LIMITS.apiErrorRate),
    pool: limitAt(c, 'pool', STREAMS_LIMITS.apiPool, { int: true }),
    seed: limitAt(c, 'seed', STREAMS_LIMITS.seed, { int: true }),
  }),

  async start({ cpuUs }, config) {
    // Loaded here, not at the top: a run with another consumer never pays for undici.
    const { Pool } = await import('undici');
    const api = await startApi(config);
    const pool: Pool = new Pool(`http://127.0.0.1:${api.port}`, { connections: config.pool });
    const timeoutMs = timeoutMsFor(config);
    const sent: Sent = { calls: 0, bytes: 0, checksum: 0 };
    const answers: Answers = { errors500: 0, failed: 0 };
    // Microseconds, in a fixed-size histogram: millions of calls cost no more memory than ten.
    const latencyUs = createHistogram();
    let inFlight = 0;
    let closing: Promise<void> | null = null;

    async function call(body: Buffer): Promise<void> {
      const started = performance.now();
      inFlight += 1;
      try {
        const res = await pool.request({ path: '/items', method: 'POST', body, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
        await res.body.dump();
        if (res.statusCode !== 200) answers.errors500 += 1;
      } catch {
        // Counted, never thrown: a job that logs a failed call and moves on.
        answers.failed += 1;
      } finally {
        inFlight -= 1;
        latencyUs.record(Math.max(1, Math.round((performance.now() - started) * 1000)));
      }
    }

    return {
      async work(item) {
        // A record is a latin1 string (records.ts): sent as the same bytes the file holds.
        const body = typeof item === 'string' ? Buffer.from(item, 'latin1') : item;
        sent.calls += 1;
        sent.bytes += body.length;
        sent.checksum = addToChecksum(sent.checksum, crc32(body));
        await call(body);
        if (cpuUs > 0) burnCpu(cpuUs);
      },
      readings: () => ({ apiInFlight: inFlight, apiQueued: pool.stats.queued, apiErrors: answers.errors500 + answers.failed, dbRows: 0 }),
      async finish() {
        const ms = (p: number) => (latencyUs.count === 0 ? 0 : latencyUs.percentile(p) / 1000);
        return httpReport(sent, await askCounts(api.child), answers, config.errorRate, { p50: ms(50), p99: ms(99) });
      },
      close() {
        // After finish() nothing is in flight; after a failed strategy, calls still out are dropped, not awaited.
        closing ??= pool.destroy().then(() => endProcess(api.child));
        return closing;
      },
      killNow: () => void api.child.kill('SIGKILL'),
    };
  },
};
