/**
 * The Redis back end with a real Redis, real web servers and real workers, each its own process:
 * two workers share one experiment's runs (each run once, samples in order, across two web
 * servers), a profiled run's files reach both web servers' histories, a worker killed mid-run ends its run interrupted while the other goes on, and a web
 * server restarted with runs waiting loses none of them.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runDetailSchema } from '../../lib/history';
import { DEFAULT_STREAMS_PARAMS } from '../../labs/streams/shared/params';
import { DEFAULT_HOTCODE_PARAMS } from '../../labs/hotcode/shared/params';
import type { RunState } from '../../lib/protocol';
import { killAndWait, processAlive } from '../test-support';
import { TestClient } from '../test-client';
import { Queue } from 'bullmq';
import { bullConnection, KEYS, QUEUE_NAME } from './redis-config';
import { flushRedis, startWebServer, startWorker, tempDir, testRedis, removeTempDirs } from './scale-test-support';

const redis = testRedis();
if (!redis.url) console.log(`skipped: ${redis.why}`);
const url = redis.url ?? '';

/** Small runs (2 MiB in 16 KiB chunks): long enough to overlap and to be killed mid-way. */
const params = (delayMs: number) => ({ ...DEFAULT_STREAMS_PARAMS, sizeMb: 2, chunkKb: 16, delayMs, timeoutS: 60 });

const procs: Array<{ proc: import('node:child_process').ChildProcess }> = [];
const clients: TestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(procs.splice(0).map((p) => killAndWait(p.proc, 'SIGKILL')));
});

async function client(serverUrl: string): Promise<TestClient> {
  const c = new TestClient(serverUrl);
  clients.push(c);
  await c.opened;
  return c;
}

/** Every run.ended the client got for these runs, by run id. */
const endsOf = (c: TestClient, ids: string[]) =>
  c.messages.filter((m) => m.type === 'run.ended' && ids.includes(m.run.id)) as Array<{ type: 'run.ended'; run: RunState }>;

afterAll(removeTempDirs);

describe.skipIf(!redis.url)('Redis back end (BullMQ) with worker processes', () => {
  it('two workers take the runs of one experiment: each run completes once, samples reach a page on another web server in order', async () => {
    await flushRedis(url);
    const [a, b, w1, w2] = await Promise.all([startWebServer(url), startWebServer(url), startWorker(url), startWorker(url)]);
    procs.push(a, b, w1, w2);
    const [starter, watcher] = await Promise.all([client(a.url), client(b.url)]);
    starter.send({
      type: 'experiment.start',
      strategies: ['for-await', 'pipeline-generator', 'readable-map', 'pipe-writable'],
      params: params(3),
      parallel: false,
    });
    const created = await watcher.next('experiment.created');
    const ids = created.experiment.runIds;
    await Promise.all(ids.map((id) => watcher.next('run.ended', (m) => m.run.id === id)));
    await Promise.all(ids.map((id) => starter.next('run.ended', (m) => m.run.id === id)));

    for (const c of [starter, watcher]) {
      const ends = endsOf(c, ids);
      expect(ends.map((e) => e.run.id).sort()).toEqual([...ids].sort());
      expect(ends.map((e) => e.run.status)).toEqual(ids.map(() => 'completed'));
    }
    const ends = endsOf(watcher, ids);
    expect(new Set(ends.map((e) => e.run.worker?.id))).toEqual(new Set([w1.id, w2.id]));
    expect(ends.every((e) => e.run.worker?.node === process.versions.node && e.run.worker.cores >= 1)).toBe(true);
    // Two workers on one machine claim different cores (where taskset pins and there are two to claim).
    const coreOf = new Map(ends.map((e) => [e.run.worker!.id, e.run.worker!.core]));
    if ([...coreOf.values()].every((c) => c !== null) && availableParallelism() >= 2) expect(new Set(coreOf.values()).size).toBe(2);
    for (const id of ids) {
      const samples = watcher.messages.flatMap((m) => (m.type === 'run.samples' && m.runId === id ? m.samples : []));
      expect(samples.length).toBeGreaterThan(2);
      expect(samples.every((s, i) => i === 0 || s.t > samples[i - 1].t)).toBe(true);
    }
    // Both web servers list the two workers (read every 5 s), for the page and for the waits.
    const listsBoth = (c: TestClient) =>
      c.messages.some((m) => (m.type === 'snapshot' || m.type === 'queue.backend') && m.backend?.workers?.count === 2 && m.backend.workers.slots === 2);
    for (let i = 0; i < 80 && ![starter, watcher].every(listsBoth); i++) await new Promise((r) => setTimeout(r, 100));
    expect([starter, watcher].map(listsBoth)).toEqual([true, true]);

    // Each worker made the data file itself; both hold the bytes the room recorded.
    const sha = await new Redis(url).hget(KEYS.dataSha, `${2 * 1024 * 1024}:1`);
    for (const w of [w1, w2]) {
      const manifest = JSON.parse(readFileSync(join(w.dataDir, `stream-lab-${2 * 1024 * 1024}-s1.json`), 'utf8')) as { sha256: string };
      expect(manifest.sha256).toBe(sha);
    }
    // Both web servers' histories recorded where each run ran.
    for (const server of [a, b]) {
      const detail = runDetailSchema.parse(await (await fetch(`${server.url}/api/runs/${ids[0]}`)).json());
      expect(detail.record.run.worker?.id).toBe(ends.find((e) => e.run.id === ids[0])!.run.worker!.id);
    }
  });

  it("a profiled, heap-profiled, snapshotted run on a worker: its files reach both web servers' histories by the time it ends", async () => {
    await flushRedis(url);
    const [a, b, worker] = await Promise.all([startWebServer(url), startWebServer(url), startWorker(url)]);
    procs.push(a, b, worker);
    const [starter, watcher] = await Promise.all([client(a.url), client(b.url)]);
    // groupby-spread copies its group on every row: 2e4 rows take ~2 s, and a report holds the loop.
    // at= used to wait for the first sample past 0.5 s, which came only once a report ended (with one
    // report, on busy CI, with the run's end, and no snapshot was taken); it is now the worker's
    // timer (heap-watch.ts), so the snapshot comes during the first report. Two reports kept.
    const profiled = {
      ...DEFAULT_HOTCODE_PARAMS,
      rows: 20_000,
      requests: 2,
      budgetMb: null,
      timeoutS: 120,
      profile: true,
      heapProfile: true,
      heapSnapshot: 'at=0.5',
    };
    starter.send({ type: 'experiment.start', lab: 'hotcode', strategies: ['groupby-spread'], params: profiled, parallel: false });
    const created = await watcher.next('experiment.created');
    const [id] = created.experiment.runIds;
    const ended = await Promise.all([starter, watcher].map((c) => c.next('run.ended', (m) => m.run.id === id)));
    expect(ended.map((e) => [e.run.status, e.run.worker?.id])).toEqual([
      ['completed', worker.id],
      ['completed', worker.id],
    ]);
    expect(ended[0].summary.heapSnapshots?.map((s) => [s.n, s.error])).toEqual([[1, null]]);
    // Asked at once, no waiting: a run's 'ended' is applied after its files, so a page opened then finds them.
    for (const server of [a, b]) {
      const base = `${server.url}/api/runs/${id}`;
      const cpu = await fetch(`${base}/profile.cpuprofile`);
      expect(cpu.status).toBe(200);
      expect(((await cpu.json()) as { nodes: unknown[] }).nodes.length).toBeGreaterThan(0);
      const heap = await fetch(`${base}/heap.heapprofile`);
      expect(heap.status).toBe(200);
      expect(((await heap.json()) as { head: { callFrame: unknown } }).head.callFrame).toBeDefined();
      const snap = await fetch(`${base}/snapshot-1.heapsnapshot`);
      expect([snap.status, snap.headers.get('content-encoding')]).toEqual([200, 'gzip']);
      // fetch decodes the gzip: the body is the .heapsnapshot DevTools opens.
      const snapshot = (await snap.json()) as { snapshot: { meta: { node_fields: string[] } } };
      expect(snapshot.snapshot.meta.node_fields).toContain('self_size');
    }
    // The chunks went through Redis under keys that expire.
    const probe = new Redis(url);
    const keys = await probe.keys(`stream-lab:file:${id}:*`);
    expect(keys.length).toBeGreaterThanOrEqual(3);
    const ttls = await Promise.all(keys.map((k) => probe.pttl(k)));
    probe.disconnect();
    expect(ttls.every((t) => t > 0 && t <= 15 * 60_000)).toBe(true);
    expect(`${a.output()}${b.output()}${worker.output()}`).not.toMatch(/skipped|not sent/);
  });

  it('a strategy of yours runs on a worker: the job carries its bundle, checked by hash, and the worker runs it fenced', async () => {
    await flushRedis(url);
    const strategies = tempDir('yours');
    mkdirSync(join(strategies, 'streams'));
    // Tries a write after its first chunk: on the worker too, the fence refuses it.
    writeFileSync(
      join(strategies, 'streams', 'writes-once.mjs'),
      `export const strategy = { id: 'writes-once', label: 'writes once', mode: 'pull', async run({ stream, consume }) {
        for await (const chunk of stream) { await consume(chunk); (await import('node:fs')).writeFileSync(${JSON.stringify(join(strategies, 'x'))}, 'x'); }
      } };`,
    );
    writeFileSync(
      join(strategies, 'streams', 'plain-pull.mjs'),
      `export const strategy = { id: 'plain-pull', label: 'plain pull', mode: 'pull', async run({ stream, consume }) { for await (const c of stream) await consume(c); } };`,
    );
    const [web, worker] = await Promise.all([
      startWebServer(url, undefined, 0, { STREAM_LAB_STRATEGIES_DIR: strategies }),
      startWorker(url, { env: { STREAM_LAB_WORKER_RUNS_YOURS: '1' } }),
    ]);
    procs.push(web, worker);
    const c = await client(web.url);
    // The web server reads the folder at start; the page's snapshot (or the next look) lists them.
    const listed = (id: string) =>
      c.messages.some((m) => (m.type === 'snapshot' || m.type === 'strategies') && m.strategies.some((s) => s.id === id && !s.problem));
    for (let i = 0; i < 300 && !(listed('writes-once') && listed('plain-pull')); i++) await new Promise((r) => setTimeout(r, 100));
    expect([listed('plain-pull'), listed('writes-once')]).toEqual([true, true]);
    c.send({ type: 'experiment.start', strategies: ['plain-pull', 'writes-once'], params: params(1), parallel: false });
    const created = await c.next('experiment.created');
    const ends = await Promise.all(created.experiment.runIds.map((id) => c.next('run.ended', (m) => m.run.id === id)));
    expect(ends.map((e) => [e.run.strategy, e.run.status, e.run.worker?.id])).toEqual([
      ['plain-pull', 'completed', worker.id],
      ['writes-once', 'refused', worker.id],
    ]);
    expect(ends[1].run.summary?.reason).toBe(`no permission to write ${join(strategies, 'x')}`);
    expect(existsSync(join(strategies, 'x'))).toBe(false);
  });

  it('a worker killed mid-run: its run ends interrupted, its child goes, the other worker runs the rest', async () => {
    await flushRedis(url);
    const [web, w1, w2] = await Promise.all([startWebServer(url), startWorker(url), startWorker(url)]);
    procs.push(web, w1, w2);
    const page = await client(web.url);
    page.send({ type: 'experiment.start', strategies: ['for-await', 'pipeline-generator', 'readable-map'], params: params(10), parallel: false });
    const created = await page.next('experiment.created');
    const ids = created.experiment.runIds;
    const running = await page.next('run.updated', (m) => m.run.status === 'running' && m.run.worker != null && m.run.pid !== null);
    const victim = [w1, w2].find((w) => w.id === running.run.worker!.id)!;
    const survivor = victim === w1 ? w2 : w1;
    await killAndWait(victim.proc, 'SIGKILL');
    const cut = await page.next('run.ended', (m) => m.run.id === running.run.id);
    expect(cut.run.status).toBe('interrupted');
    expect(cut.summary.reason).toMatch(/worker stopped answering/);
    // The run's child noticed its parent gone (IPC closed) and left.
    await expect.poll(() => processAlive(running.run.pid!), { timeout: 5000 }).toBe(false);
    const rest = ids.filter((id) => id !== running.run.id);
    const ends = await Promise.all(rest.map((id) => page.next('run.ended', (m) => m.run.id === id)));
    expect(ends.map((e) => e.run.status)).toEqual(rest.map(() => 'completed'));
    expect(ends.filter((e) => e.run.worker?.id !== survivor.id).every((e) => e.run.startedAt! < cut.run.startedAt! + 1)).toBe(true);
    expect(endsOf(page, ids)).toHaveLength(ids.length);
  });

  it('restarting the web server loses no queued job: the new one shows them, stops one waiting and one running, and gets the result of the other', async () => {
    await flushRedis(url);
    // The worker waits (queue paused) until the restarted server has shown the jobs: no race with it.
    const queue = new Queue(QUEUE_NAME, { connection: bullConnection(url) });
    await queue.pause();
    const [first, worker] = await Promise.all([startWebServer(url), startWorker(url)]);
    procs.push(first, worker);
    const before = await client(first.url);
    // The same browser before and after the restart: it may stop its own runs.
    const hello = { type: 'hello', browserId: 'scale-test-browser-0001', name: 'Ada', operatorToken: null };
    before.send(hello);
    await before.next('hello.ok');
    before.send({ type: 'experiment.start', strategies: ['for-await', 'rxjs-from', 'pipeline-generator'], params: params(10), parallel: false });
    const created = await before.next('experiment.created');
    const [waiting, done, running] = created.experiment.runIds;
    await Promise.all(created.experiment.runIds.map((id) => before.next('run.queued', (m) => m.run.id === id)));
    await killAndWait(first.proc, 'SIGTERM');

    const second = await startWebServer(url, first.dataDir);
    procs.push(second);
    const after = await client(second.url);
    const snapshot = await after.next('snapshot');
    expect(snapshot.experiments.map((e) => [e.id, e.owner?.name])).toEqual([[created.experiment.id, 'Ada']]);
    expect(
      snapshot.runs
        .filter((r) => r.status === 'queued')
        .map((r) => r.id)
        .sort(),
    ).toEqual([...created.experiment.runIds].sort());
    expect(snapshot.queue.map((q) => q.runId)).toEqual(created.experiment.runIds);
    after.send(hello);
    await after.next('hello.ok');
    after.send({ type: 'run.stop', runId: waiting });
    const stoppedWaiting = await after.next('run.ended', (m) => m.run.id === waiting);
    expect(stoppedWaiting.run.status).toBe('stopped');
    await queue.resume();
    await queue.close();
    await after.next('run.updated', (m) => m.run.id === running && m.run.status === 'running');
    after.send({ type: 'run.stop', runId: running });
    const [completed, stopped] = await Promise.all([done, running].map((id) => after.next('run.ended', (m) => m.run.id === id)));
    expect(completed.run.status).toBe('completed');
    expect(completed.run.worker?.id).toBe(worker.id);
    expect(stopped.run.status).toBe('stopped');
    expect(stopped.summary.reason).toBe('stopped by the user');
    // The run stopped while waiting never reached the worker.
    expect(after.messages.some((m) => m.type === 'run.updated' && m.run.id === waiting && m.run.status !== 'queued')).toBe(false);

    // A worker that leaves says so: the page is told no worker is there to take runs.
    await killAndWait(worker.proc, 'SIGTERM');
    const gone = await Promise.race([
      after.next('queue.backend', (m) => m.backend.workers?.count === 0),
      new Promise<null>((r) => setTimeout(() => r(null), 10_000)),
    ]);
    expect(gone?.backend.workers).toEqual({ count: 0, slots: 0 });
  });
});
