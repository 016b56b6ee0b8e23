import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS, type StreamsParams } from '../../labs/streams/shared/params';
import { MAX_CLIENT_MESSAGE_BYTES, summaryOfLab, type ServerMessage } from '../../lib/protocol';
import { createLabServer, type LabServer } from '../app-server';
import { liveChildCount } from '../runner/runner';
import { TestClient } from '../test-client';
import { withTempDataDir } from '../test-support';
import { DROP_CLIENT_BYTES, MAX_PENDING_PER_RUN, SLOW_CLIENT_BYTES } from './client-conn';

const SMALL: StreamsParams = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 4, delayMs: 1, timeoutS: 60 };

let lab: LabServer;
withTempDataDir('hub');

/** These tests drive one page hard on purpose; the rate limits have their own test below. */
const UNLIMITED = { resync: { burst: 10_000, everyMs: 1 }, 'experiment.start': { burst: 10_000, everyMs: 1 } };

beforeAll(async () => {
  lab = await createLabServer({ port: 0, host: '127.0.0.1', next: false, rateLimits: UNLIMITED });
});

afterAll(async () => {
  await lab.close();
});

async function connect(server: LabServer = lab): Promise<TestClient> {
  const c = new TestClient(server.url);
  await c.opened;
  await c.next('snapshot');
  return c;
}

describe('protocol validation', () => {
  it('answers bad JSON, unknown types, out-of-range values and oversize messages with typed errors and stays usable', async () => {
    const c = await connect();
    c.send('{not json');
    expect(await c.next('error')).toMatchObject({ code: 'bad-request', message: 'message is not valid JSON' });

    c.send({ type: 'launch.rockets' });
    const unknownType = await c.next('error', (m) => m.requestType === 'launch.rockets');
    expect(unknownType.message).toContain('type must be one of experiment.start');

    c.send({ type: 'experiment.start', strategies: ['rxjs-from'], params: { ...SMALL, delayMs: -5 }, parallel: false });
    const range = await c.next('error', (m) => m.requestType === 'experiment.start');
    expect(range).toMatchObject({ code: 'bad-request', message: 'delayMs must be between 0 and 1000' });

    const before = c.messages.length;
    c.send({ type: 'experiment.start', strategies: ['no-such-strategy'], params: SMALL, parallel: false });
    const unknown = await c.next('error', (m) => m.message.includes('no-such-strategy'), before);
    expect(unknown.message).toBe('strategies: unknown strategy "no-such-strategy"');

    // Two postgres-consumer runs at once would each start a server on the one embedded cluster.
    if (!process.env.DATABASE_URL) {
      c.send({ type: 'experiment.start', strategies: ['rxjs-from', 'for-await'], params: { ...SMALL, consumer: 'postgres' }, parallel: true });
      const alone = await c.next('error', (m) => m.message.startsWith('parallel:'));
      expect(alone.message).toBe('parallel: the postgres consumer’s embedded PostgreSQL serves one run at a time (set DATABASE_URL to run them in parallel)');
    }

    c.send(JSON.stringify({ type: 'resync', pad: 'x'.repeat(MAX_CLIENT_MESSAGE_BYTES) }));
    const tooLarge = await c.next('error', (m) => m.code === 'too-large');
    expect(tooLarge.message).toContain(`the limit is ${MAX_CLIENT_MESSAGE_BYTES} bytes`);

    // Still usable: a resync gets a second snapshot, and nothing was queued by the bad requests.
    const snapshots = c.messages.filter((m) => m.type === 'snapshot').length;
    c.send({ type: 'resync' });
    await c.next('snapshot', () => true, c.messages.length);
    expect(c.messages.filter((m) => m.type === 'snapshot')).toHaveLength(snapshots + 1);
    expect(c.messages.some((m) => m.type === 'run.queued')).toBe(false);
    c.close();
  });
});

describe('broadcast and history', () => {
  it('shows every connected browser the same run live, and gives a late joiner the samples so far', async () => {
    const a = await connect();
    const b = await connect();
    a.send({ type: 'experiment.start', strategies: ['for-await'], params: { ...SMALL, delayMs: 5 }, parallel: false });
    const queued = await b.next('run.queued');
    const runId = queued.run.id;
    // Both see samples of the run while it is running.
    await a.next('run.samples', (m) => m.runId === runId && m.samples.length > 0);
    await b.next('run.samples', (m) => m.runId === runId && m.samples.length > 0);

    const late = await connect();
    const snap = late.messages.find((m) => m.type === 'snapshot') as Extract<ServerMessage, { type: 'snapshot' }>;
    expect(snap.runs.map((r) => r.id)).toContain(runId);
    expect(snap.samples[runId].length).toBeGreaterThan(0);

    const [endA, endB, endLate] = await Promise.all([a, b, late].map((c) => c.next('run.ended', (m) => m.run.id === runId)));
    expect(endA.summary.outcome).toBe('completed');
    expect(endB.summary).toEqual(endA.summary);
    expect(endLate.summary).toEqual(endA.summary);
    // Samples arrive before the run's end in each client's stream.
    const endIndex = b.messages.findIndex((m) => m.type === 'run.ended');
    const lastSampleIndex = b.messages.findLastIndex((m) => m.type === 'run.samples' && m.runId === runId);
    expect(lastSampleIndex).toBeLessThan(endIndex);
    for (const c of [a, b, late]) c.close();
  });
});

describe('slow clients', () => {
  it('holds a bounded number of samples for a browser that stops reading, and tells it what was dropped', async () => {
    const slow = await connect();
    const fast = await connect();
    // The slow browser stops reading its socket, then asks for snapshots until the kernel's
    // buffers are full (a few MB on loopback) and the server's own send backlog passes the
    // slow-client threshold, but stays under the one at which the server gives up on it: as many
    // snapshots as make about 10 MB, whatever size the catalog has grown to.
    const snapshotBytes = JSON.stringify(slow.messages.find((m) => m.type === 'snapshot')).length;
    const resyncs = Math.ceil((SLOW_CLIENT_BYTES + DROP_CLIENT_BYTES) / 2 / snapshotBytes) + 1;
    (slow.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    for (let i = 0; i < resyncs; i++) slow.send({ type: 'resync' });
    fast.send({
      type: 'experiment.start',
      strategies: ['for-await'],
      params: { ...SMALL, sizeMb: 16, delayMs: 10, sampleMs: 10 },
      parallel: false,
    });
    const runId = (await fast.next('run.queued')).run.id;
    let ended = false;
    void fast.next('run.ended', (m) => m.run.id === runId).then(() => (ended = true));
    let maxPending = 0;
    while (!ended) {
      await new Promise((r) => setTimeout(r, 20));
      maxPending = Math.max(maxPending, lab.hub.maxPendingPerClient());
    }
    // It really was held back (more than one flush worth), yet never past the thinning bound
    // for one run's two series (samples + proc readings).
    expect(maxPending).toBeGreaterThan(MAX_PENDING_PER_RUN / 2);
    expect(maxPending).toBeLessThanOrEqual(2 * (MAX_PENDING_PER_RUN + 1));

    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const end = await slow.next('run.ended', (m) => m.run.id === runId);
    expect(end.summary.outcome).toBe('completed');
    const batches = slow.messages.filter((m): m is Extract<ServerMessage, { type: 'run.samples' }> => m.type === 'run.samples' && m.runId === runId);
    expect(batches.some((m) => m.dropped > 0)).toBe(true);
    slow.close();
    fast.close();
  });
});

describe('server survival', () => {
  it('keeps serving after a run is killed for its memory budget, overflows the V8 heap, or crashes', async () => {
    const c = await connect();
    c.send({
      type: 'experiment.start',
      strategies: ['rxjs-from'],
      params: { ...SMALL, sizeMb: 96, delayMs: 5, budgetMb: 64 },
      parallel: false,
    });
    const oom = await c.next('run.ended');
    expect(oom.summary.outcome).toBe('out-of-memory');
    expect(oom.summary.reason).toContain('64 MB memory budget');

    const after = c.messages.length;
    c.send({ type: 'experiment.start', strategies: ['for-await'], params: SMALL, parallel: false });
    const ok = await c.next('run.ended', () => true, after);
    expect(ok.summary.outcome).toBe('completed');
    const streams = summaryOfLab(ok.summary, 'streams');
    expect(streams.bytesProcessed).toBe(streams.fileBytes);

    // V8's own heap limit: toArray keeps every result string on the heap.
    const heapStart = c.messages.length;
    c.send({
      type: 'experiment.start',
      strategies: ['ixjs-toArray'],
      params: { ...SMALL, sizeMb: 32, delayMs: 0, maxOldSpaceMb: 16 },
      parallel: false,
    });
    const heap = await c.next('run.ended', () => true, heapStart);
    expect(heap.summary.outcome).toBe('out-of-memory');
    expect(heap.summary.reason).toContain('--max-old-space-size=16');

    // A child that dies from outside (as from a native crash) ends as crashed, with the signal.
    const crashStart = c.messages.length;
    c.send({ type: 'experiment.start', strategies: ['for-await'], params: { ...SMALL, delayMs: 20 }, parallel: false });
    const running = await c.next('run.updated', (m) => m.run.status === 'running', crashStart);
    process.kill(running.run.pid!, 'SIGSEGV');
    const crashed = await c.next('run.ended', () => true, crashStart);
    expect(crashed.summary.outcome).toBe('crashed');
    expect(crashed.summary.reason).toContain('SIGSEGV');

    c.send({ type: 'resync' });
    await c.next('snapshot', () => true, crashStart);
    expect(liveChildCount()).toBe(0);
    c.close();
  });
});

describe('HTTP API', () => {
  it('answers /api/health and gives unknown API paths a JSON 404 and wrong methods a 405', async () => {
    const ok = await fetch(`${lab.url}/api/health`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true, node: process.versions.node });
    const missing = await fetch(`${lab.url}/api/nothing-here`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ type: 'error', code: 'not-found', message: 'no API at /api/nothing-here' });
    const wrong = await fetch(`${lab.url}/api/health`, { method: 'DELETE' });
    expect(wrong.status).toBe(405);
  });
});

describe('queue and resync', () => {
  it('refuses an experiment that would take the queue past its limit, naming the limit', async () => {
    // Four pages (each may have 16 runs waiting) fill the room's 64.
    const pages = await Promise.all([connect(), connect(), connect(), connect()]);
    const c = pages[0];
    const slow = { ...SMALL, delayMs: 1000 };
    const all = ['rxjs-from', 'ixjs-from', 'pipeline-generator', 'iterator-helper', 'for-await', 'readable-map', 'web-streams', 'pipe-writable'];
    // 8 experiments × 8 runs = 64 runs; the first starts, so 63 wait: one more 8-run experiment is too many.
    for (let i = 0; i < 8; i++) pages[i % 4].send({ type: 'experiment.start', strategies: all, params: slow, parallel: false });
    await expect.poll(() => c.messages.filter((m) => m.type === 'run.queued').length).toBe(64);
    pages[1].send({ type: 'experiment.start', strategies: all, params: slow, parallel: false });
    const refused = await pages[1].next('error', (m) => m.message.startsWith('queue is full'));
    expect(refused.message).toMatch(/^queue is full: 6[34] runs waiting, at most 64; stop some or wait$/);
    for (const p of pages) p.send({ type: 'stop.all' });
    await expect.poll(() => c.messages.filter((m) => m.type === 'run.ended').length, { timeout: 10_000 }).toBe(64);
    expect(liveChildCount()).toBe(0);
    for (const p of pages) p.close();
  });

  it('never sends a sample twice around a resync: snapshot plus later batches form one increasing series', async () => {
    const c = await connect();
    c.send({ type: 'experiment.start', strategies: ['for-await'], params: { ...SMALL, sizeMb: 4, delayMs: 8, sampleMs: 10 }, parallel: false });
    const runId = (await c.next('run.queued')).run.id;
    await c.next('run.samples', (m) => m.runId === runId && m.samples.length > 0);
    for (let i = 0; i < 5; i++) {
      c.send({ type: 'resync' });
      await new Promise((r) => setTimeout(r, 60));
    }
    await c.next('run.ended', (m) => m.run.id === runId);
    const lastSnapshot = c.messages.findLastIndex((m) => m.type === 'snapshot');
    const snap = c.messages[lastSnapshot] as Extract<ServerMessage, { type: 'snapshot' }>;
    const later = c.messages.slice(lastSnapshot + 1).flatMap((m) => (m.type === 'run.samples' && m.runId === runId ? m.samples : []));
    const series = [...(snap.samples[runId] ?? []), ...later].map((s) => s.t);
    expect(series.length).toBeGreaterThan(10);
    for (let i = 1; i < series.length; i++) expect(series[i]).toBeGreaterThan(series[i - 1]);
    c.close();
  });
});
