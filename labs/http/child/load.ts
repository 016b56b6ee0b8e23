/**
 * The load, in its own process (forked by scenario.ts, so its CPU is shown apart from the server's):
 * autocannon sends the requests from `concurrency` connections, and `slowClients` more clients each
 * read one response at `slowKbps`. Every body is checked (rows and checksum). Reports its readings
 * every 250 ms and its figures at the end over IPC. Compiled into the child build: no zod here.
 */
import { request } from 'node:http';
import autocannon from 'autocannon';
import { send as sendToRun, serveLoad, type LoadMessage as Message } from '../../../server/child/load-process';
import { checkBody, type BodyFormat, type Expected } from './body-check';
import { percentileSorted } from '../../../server/child/numbers';

export interface LoadConfig {
  port: number;
  concurrency: number;
  requests: number;
  slowClients: number;
  slowKbps: number;
  format: BodyFormat;
  expected: Expected;
  timeoutS: number;
}

/** What the load reports while it runs. */
export interface LoadReadings {
  responses: number;
  responsesOk: number;
  badResponses: number;
  reqPerSec: number;
  /** Absent until the first response completed: the chart starts at the first real value, not at 0 ms. */
  latencyP50Ms?: number;
  latencyP99Ms?: number;
  loadCpuPct: number;
}

/** The load's final report. */
export interface LoadDone {
  figures: Record<string, number>;
  problem: string | null;
}
export type LoadMessage = Message<LoadReadings, LoadDone>;

const REPORT_MS = 250;
const WINDOW_MS = 2000;

const send: (m: LoadMessage, then?: () => void) => void = sendToRun;

const sortedCopy = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);

class Tally {
  readonly latencies: number[] = [];
  readonly ttfb: number[] = [];
  readonly transfer: number[] = [];
  readonly slow: number[] = [];
  /** [finishedAt, latencyMs] of the last WINDOW_MS, for the moving percentiles. */
  private recent: Array<[number, number]> = [];
  private lastPercentiles: { p50: number; p99: number } | null = null;
  ok = 0;
  bad = 0;
  bytes = 0;
  problem: string | null = null;

  /** A response of the load's clients came back (latencies are theirs; slow readers are counted apart). */
  finished(latencyMs: number, ttfbMs: number | null, bytes: number, problem: string | null): void {
    this.latencies.push(latencyMs);
    if (ttfbMs !== null) {
      this.ttfb.push(ttfbMs);
      this.transfer.push(latencyMs - ttfbMs);
    }
    this.recent.push([performance.now(), latencyMs]);
    this.counted(bytes, problem);
  }

  /** A slow reader's response came back: its time goes to `slow`, not to the latency percentiles. */
  finishedSlow(ms: number, bytes: number, problem: string | null): void {
    this.slow.push(ms);
    this.counted(bytes, problem);
  }

  private counted(bytes: number, problem: string | null): void {
    this.bytes += bytes;
    if (problem) {
      this.bad += 1;
      this.problem ??= problem;
    } else this.ok += 1;
  }

  failed(problem: string): void {
    this.bad += 1;
    this.problem ??= problem;
  }

  readings(cpuPct: number): LoadReadings {
    const now = performance.now();
    this.recent = this.recent.filter(([at]) => now - at <= WINDOW_MS);
    const window = sortedCopy(this.recent.map(([, ms]) => ms));
    // No response finished in the window (slow responses, all in flight): keep the last percentiles
    // rather than drop to 0, which would read as "instant".
    if (window.length > 0) this.lastPercentiles = { p50: percentileSorted(window, 50), p99: percentileSorted(window, 99) };
    return {
      responses: this.ok + this.bad,
      responsesOk: this.ok,
      badResponses: this.bad,
      reqPerSec: this.recent.filter(([at]) => now - at <= 1000).length,
      ...(this.lastPercentiles && { latencyP50Ms: this.lastPercentiles.p50, latencyP99Ms: this.lastPercentiles.p99 }),
      loadCpuPct: cpuPct,
    };
  }
}

/** One slow reader: one GET, reading at most `kbps` KB per second, body checked at the end. */
function slowClient(cfg: LoadConfig, tally: Tally): Promise<void> {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request({ host: '127.0.0.1', port: cfg.port, path: '/authors', agent: false, timeout: cfg.timeoutS * 1000 }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        bytes += chunk.length;
        // Read no faster than kbps: pause for as long as this chunk "takes" at that rate.
        res.pause();
        setTimeout(() => res.resume(), (chunk.length / (cfg.slowKbps * 1024)) * 1000);
      });
      res.on('end', () => {
        const problem = res.statusCode === 200 ? checkBody(Buffer.concat(chunks).toString(), cfg.format, cfg.expected) : `status ${res.statusCode}`;
        tally.finishedSlow(performance.now() - started, bytes, problem && `slow client: ${problem}`);
        resolve();
      });
      res.on('error', (err) => {
        tally.failed(`slow client: ${err.message}`);
        resolve();
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no complete response within ${cfg.timeoutS} s`)));
    req.on('error', (err) => {
      tally.failed(`slow client: ${err.message}`);
      resolve();
    });
    req.end();
  });
}

/** autocannon's connections; each has one request in flight, so its timings are per response. */
function fastClients(cfg: LoadConfig, tally: Tally): Promise<void> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${cfg.port}/authors`,
        connections: Math.min(cfg.concurrency, cfg.requests),
        amount: cfg.requests,
        timeout: cfg.timeoutS,
        // Bodies are checked below, per client, where the timings are known too.
        setupClient(client) {
          let sentAt = 0;
          let headersAt: number | null = null;
          // 'request' (emitted before each request is written) is missing from the types.
          (client as unknown as NodeJS.EventEmitter).on('request', () => {
            sentAt = performance.now();
            headersAt = null;
          });
          client.on('headers', () => {
            headersAt ??= performance.now();
          });
          client.on('response', (status: number, bytes: number) => {
            const now = performance.now();
            const problem = status === 200 ? null : `status ${status}`;
            tally.finished(now - sentAt, headersAt === null ? null : headersAt - sentAt, bytes, problem);
          });
        },
        verifyBody: (body) => {
          const problem = checkBody(typeof body === 'string' ? body : String(body ?? ''), cfg.format, cfg.expected);
          if (problem) {
            // The response was counted ok above; move it to the bad ones, with the reason.
            tally.ok -= 1;
            tally.failed(problem);
          }
          return problem === null;
        },
      },
      (err, result) => {
        if (err) return reject(err);
        // Connection errors and timeouts never reached 'response': count them as bad responses.
        const lost = result.errors + result.timeouts;
        for (let i = 0; i < lost; i++) tally.failed(`${result.errors} connection errors, ${result.timeouts} timeouts`);
        resolve();
      },
    );
  });
}

async function main(cfg: LoadConfig): Promise<void> {
  const tally = new Tally();
  let lastCpu = process.cpuUsage();
  let lastAt = performance.now();
  const timer = setInterval(() => {
    const cpu = process.cpuUsage(lastCpu);
    const now = performance.now();
    const pct = ((cpu.user + cpu.system) / 1000 / (now - lastAt)) * 100;
    [lastCpu, lastAt] = [process.cpuUsage(), now];
    send({ type: 'readings', readings: tally.readings(pct) });
  }, REPORT_MS);
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  // The load's rate counts its own clients' responses over their own time: slow readers, which
  // take far longer, would dilute it (they have slowP50Ms).
  let fast = { responses: 0, seconds: 0 };
  const fastDone = fastClients(cfg, tally).then(() => {
    fast = { responses: tally.latencies.length, seconds: (performance.now() - started) / 1000 };
  });
  await Promise.all([fastDone, ...Array.from({ length: cfg.slowClients }, () => slowClient(cfg, tally))]);
  clearInterval(timer);
  const cpu = process.cpuUsage(cpuStart);
  const lat = sortedCopy(tally.latencies);
  send({ type: 'readings', readings: tally.readings(0) });
  await new Promise<void>((resolve) =>
    send(
      {
        type: 'done',
        problem: tally.problem,
        figures: {
          responsesOk: tally.ok,
          badResponses: tally.bad,
          reqPerSec: fast.seconds > 0 ? fast.responses / fast.seconds : 0,
          // A percentile of nothing timed is left out, so the figure is null (not 0 ms): no response
          // came back, or no slow client ran.
          ...(lat.length > 0 && { latencyP50Ms: percentileSorted(lat, 50), latencyP99Ms: percentileSorted(lat, 99) }),
          ...(tally.ttfb.length > 0 && { ttfbP50Ms: percentileSorted(sortedCopy(tally.ttfb), 50) }),
          ...(tally.transfer.length > 0 && { transferP50Ms: percentileSorted(sortedCopy(tally.transfer), 50) }),
          bytesReceived: tally.bytes,
          ...(tally.slow.length > 0 && { slowP50Ms: percentileSorted(sortedCopy(tally.slow), 50) }),
          loadCpuMs: (cpu.user + cpu.system) / 1000,
        },
      },
      resolve,
    ),
  );
}

serveLoad(main);
