import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS, type StreamsParams } from './shared/params';
import type { StreamsSummary } from './shared/schema';
import type { DataFile } from '../../server/data/data-files';
import { childPids, processAlive, withDataFiles } from '../../server/test-support';
import type { Sample } from '../../lib/protocol';
import { startStreamsRun } from './parent/run';
import { httpReport } from './child/consumers/http';

/*
 * The http consumer with its mock API, both real processes on a real loopback socket. Files are
 * small and delays short: the machine may be shared with other test files.
 */

let seq = 0;

const httpParams = (p: Partial<StreamsParams>): StreamsParams => ({
  ...DEFAULT_STREAMS_PARAMS,
  sizeMb: 1,
  delayMs: 1,
  budgetMb: null,
  consumer: 'http',
  ...p,
});

function run(strategy: string, params: StreamsParams, file: DataFile, hooks: { onStarted?: (pid: number) => void; onSample?: (s: Sample) => void } = {}) {
  return startStreamsRun({
    runId: `http-consumer-test-${++seq}`,
    strategy,
    params,
    file,
    onStarted: (info) => hooks.onStarted?.(info.pid),
    onSample: hooks.onSample,
  });
}

/** The file's CSV lines, a last one without a newline included. */
function lines(file: DataFile): number {
  const text = readFileSync(file.path, 'latin1');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** The process's command line, or '' once it is gone. */
const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
};

async function gone(pid: number): Promise<boolean> {
  // The API dies with the run's process group (or with its IPC channel): allow it a moment to be reaped.
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline && processAlive(pid)) await new Promise((r) => setTimeout(r, 50));
  return !processAlive(pid);
}

/**
 * Forking the API and the end check are timed, and left out of the run's time: the run lasted at
 * least all three, one after another (the parent counts from the child's ready, sent after the
 * API listens, to its done less the check), so were either counted in the run's time too, the sum
 * would pass the wall time.
 */
function expectTimedApart(s: StreamsSummary, wallMs: number) {
  expect(s.consumerStartMs).toBeGreaterThan(0);
  expect(s.consumerCheckMs).toBeGreaterThan(0);
  expect(s.durationMs + s.consumerStartMs! + s.consumerCheckMs!).toBeLessThanOrEqual(wallMs);
}

describe('the http consumer', () => {
  const data = withDataFiles('http-consumer', [1]);
  let file: DataFile;
  beforeAll(() => {
    [file] = data.files;
  });

  it('POSTs every chunk to the API once: the API counts as many calls, bytes and the same checksum', async () => {
    const t0 = performance.now();
    const s: StreamsSummary = await run('readable-map', httpParams({ chunkKb: 16, concurrency: 4 }), file).done;
    const wallMs = performance.now() - t0;
    // The consumer compares the API's counts with what it sent: any difference would make the run data-lost, naming it.
    expect([s.outcome, s.reason]).toEqual(['completed', null]);
    expect(s.bytesProcessed).toBe(file.bytes);
    expect(s.chunks).toBe(Math.ceil(file.bytes / (16 * 1024)));
    expect(s.apiCalls).toBe(s.chunks);
    expect(s.apiErrors).toBe(0);
    expect(s.peakInFlight).toBe(4);
    // The consumer's own measure, per call: at least the API's median of 1 ms.
    expect(s.apiP50Ms).toBeGreaterThanOrEqual(1);
    expect(s.apiP99Ms).toBeGreaterThanOrEqual(s.apiP50Ms!);
    expectTimedApart(s, wallMs);
  });

  it('POSTs every CSV record once with the records option, the API answering at once with delay 0', async () => {
    const s = await run('readable-map', httpParams({ delayMs: 0, concurrency: 8, records: true }), file).done;
    expect([s.outcome, s.reason]).toEqual(['completed', null]);
    expect(s.bytesProcessed).toBe(file.bytes);
    expect(s.records).toBe(lines(file));
    expect(s.apiCalls).toBe(s.records);
    expect(s.apiErrors).toBe(0);
  });

  it('completes with errors answered 500, counted and named, the same ones for the same seed', async () => {
    const params = httpParams({ chunkKb: 16, apiErrorRate: 0.2 });
    const first = await run('for-await', params, file).done;
    const again = await run('for-await', params, file).done;
    expect(first.outcome).toBe('completed');
    expect(first.apiCalls).toBe(64);
    expect(first.apiErrors).toBeGreaterThan(0);
    expect(first.apiErrors).toBeLessThan(64);
    expect(first.reason).toBe(`${first.apiErrors} of 64 API calls were answered 500 (error rate 0.2)`);
    // One call at a time: the API draws its latencies and errors in the same order, from the same seed.
    expect(again.apiErrors).toBe(first.apiErrors);
  });

  it("queues the calls beyond the pool's connections in the pool (apiQueued)", async () => {
    // 8 calls in flight on 2 connections: 2 on the sockets, 6 waiting in undici's queue.
    const s = await run('readable-map', httpParams({ chunkKb: 16, delayMs: 20, apiP99Ms: 20, concurrency: 8, apiPool: 2 }), file).done;
    expect(s.outcome).toBe('completed');
    expect(s.peakInFlight).toBe(8);
    expect(s.peakApiQueued).toBe(6);
  });

  it('keeps more calls in flight with concurrency 8 than 1, and gets through the records faster', async () => {
    // 256 calls of 20 ms (no spread): ~5 s one at a time, under 1 s eight at a time.
    const params = (concurrency: number) => httpParams({ chunkKb: 4, delayMs: 20, apiP99Ms: 20, concurrency });
    const one = await run('readable-map', params(1), file).done;
    const eight = await run('readable-map', params(8), file).done;
    const seen = `records/s ${one.recordsPerSec} at 1, ${eight.recordsPerSec} at 8`;
    expect([one.outcome, eight.outcome]).toEqual(['completed', 'completed']);
    expect([one.peakInFlight, eight.peakInFlight]).toEqual([1, 8]);
    expect(one.apiP50Ms, seen).toBeGreaterThanOrEqual(20);
    expect(eight.recordsPerSec!, seen).toBeGreaterThan(3 * one.recordsPerSec!);
  });
});

/** Starts a slow run and, once calls are going, hands its pid and its handle to `end`; resolves with the summary and the API's pid. */
async function endMidway(file: DataFile, end: (runPid: number, handle: ReturnType<typeof run>) => void) {
  let runPid = 0;
  let apiPid = 0;
  const handle = run('readable-map', httpParams({ chunkKb: 4, delayMs: 20, concurrency: 2 }), file, {
    onStarted: (pid) => (runPid = pid),
    onSample: (s) => {
      if (apiPid !== 0 || (s.apiInFlight ?? 0) === 0) return;
      apiPid = childPids(runPid).find((pid) => cmdline(pid).includes('api-server.mjs')) ?? 0;
      if (apiPid !== 0) end(runPid, handle);
    },
  });
  const summary = await handle.done;
  return { summary, apiPid };
}

describe("the http consumer's API process ends with the run", () => {
  const data = withDataFiles('http-consumer-end', [1]);

  it('when the run is stopped', async () => {
    const { summary, apiPid } = await endMidway(data.files[0], (_pid, handle) => handle.stop());
    expect(summary.outcome).toBe('stopped');
    expect(apiPid).toBeGreaterThan(0);
    expect(await gone(apiPid)).toBe(true);
  });

  it("when the run's process alone is killed (SIGKILL), not its group", async () => {
    const { summary, apiPid } = await endMidway(data.files[0], (runPid) => process.kill(runPid, 'SIGKILL'));
    expect(summary.outcome).toBe('crashed');
    expect(apiPid).toBeGreaterThan(0);
    // Nothing in the run's process ran: the API goes when its IPC channel closes.
    expect(await gone(apiPid)).toBe(true);
  });
});

describe('the http consumer report', () => {
  const sent = { calls: 1000, bytes: 54_000, checksum: 12345 };
  const latency = { p50: 2, p99: 9 };

  it('names what the API did not receive: calls, then bytes, then the bodies', () => {
    const report = (api: typeof sent) => httpReport(sent, api, { errors500: 0, failed: 0 }, 0, latency).lost;
    expect(report(sent)).toBeNull();
    expect(report({ ...sent, calls: 990 })).toBe('the API received 990 of 1,000 calls');
    expect(report({ ...sent, bytes: 53_946 })).toBe('the API received 53,946 of 54,000 bytes sent');
    expect(report({ ...sent, checksum: 1 })).toBe('the API received 1,000 calls, but not the bodies sent (checksum 1, sent 12345)');
  });

  it('names the errors answered and the calls that failed, and counts both', () => {
    const r = httpReport(sent, sent, { errors500: 12, failed: 3 }, 0.01, latency);
    expect(r.note).toBe('12 of 1,000 API calls were answered 500 (error rate 0.01); 3 of 1,000 API calls failed (no answer in time, or the connection failed)');
    expect(r.extras).toEqual({ apiCalls: 1000, apiErrors: 15, apiP50Ms: 2, apiP99Ms: 9 });
  });
});
