/**
 * A run's files through a real Redis (a redis-server of this test's own, server/scale/run-files.ts):
 * chunks and their event from the worker's side, read back and checked on a web server's side,
 * handed to its listeners before the run's end; an altered or expired chunk, a file over the
 * limit and a name no record may hold are refused, and the other files still go through.
 */
import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS } from '../../labs/streams/shared/params';
import { newExperiment } from '../queue/new-experiment';
import type { QueueListener } from '../queue/types';
import { unstartedSummary } from '../runner/unstarted';
import { killAndWait } from '../test-support';
import { runEventSchema, type FileEvent } from './events';
import { KEYS, RUN_FILES } from './redis-config';
import { fetchRunFile, FileRelay, sendRunFile } from './run-files';
import { RunMirror } from './run-mirror';
import { removeTempDirs, startRedis } from './scale-test-support';

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
if (!hasRedis) console.log('skipped: no redis-server binary to start one of our own: the run files tests skip');

/** Small chunks: a few KB make files of several chunks. */
const limits = { ...RUN_FILES, chunkBytes: 1000, maxChunkBytes: 4000, maxBytes: 10_000, ttlMs: 60_000 };
const bytes = (n: number, seed: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7 + seed) % 256));

let server: Awaited<ReturnType<typeof startRedis>>;
let redis: Redis;
beforeAll(async () => {
  if (!hasRedis) return;
  server = await startRedis();
  redis = new Redis(server.url);
});
afterAll(async () => {
  redis?.disconnect();
  if (server) await killAndWait(server.proc, 'SIGKILL');
  removeTempDirs();
});

/** A mirror that knows one running run, and what its listener was handed, in order. */
function mirrorWithRun() {
  const mirror = new RunMirror();
  const { experiment, states } = newExperiment('streams', ['for-await'], { ...DEFAULT_STREAMS_PARAMS, sizeMb: 1 }, false, null);
  const run = states[0];
  const seen: Array<[string, string, unknown]> = [];
  const listener: QueueListener = {
    experimentCreated: () => {},
    queueChanged: () => {},
    runQueued: () => {},
    runUpdated: () => {},
    runSample: () => {},
    runProc: () => {},
    dataProgress: () => {},
    runProfile: (runId, profile) => seen.push(['profile', runId, profile]),
    runFile: (runId, name, data) => seen.push(['file', name, data]),
    runEnded: (ended) => seen.push(['ended', ended.id, ended.status]),
  };
  mirror.subscribe(listener);
  mirror.apply({ t: 'experiment', experiment, runs: states, jobs: [{ id: `j-${run.id}`, runIds: [run.id], priority: 1 }] });
  return { mirror, run, seen };
}

describe.skipIf(!hasRedis)("a run's files through Redis", () => {
  it('a file of several chunks arrives whole, its chunks expire, and its event is checked by the stream schema', async () => {
    const runId = 'r-00000000a1';
    const data = bytes(2500, 1);
    const event = await sendRunFile(redis, runId, 'snapshot-1.heapsnapshot.gz', data, limits);
    expect(event).toMatchObject({ t: 'file', runId, name: 'snapshot-1.heapsnapshot.gz', bytes: 2500, chunkBytes: 1000, chunks: 3 });
    expect(runEventSchema.safeParse(JSON.parse(JSON.stringify(event))).success).toBe(true);
    for (let i = 0; i < 3; i++) {
      const ttl = await redis.pttl(KEYS.fileChunk(runId, event.transfer, i));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
    const got = await fetchRunFile(redis, event, limits);
    expect(got.ok && got.data.equals(data)).toBe(true);
    // An empty file: no chunk, still a file.
    const empty = await sendRunFile(redis, runId, 'heap.heapprofile', Buffer.alloc(0), limits);
    expect(empty.chunks).toBe(0);
    expect(await fetchRunFile(redis, empty, limits)).toEqual({ ok: true, data: Buffer.alloc(0) });
    // A name no record may hold (a path) never passes the schema, whatever Redis holds.
    for (const name of ['../meta.json', 'meta.json', 'snapshot-0.heapsnapshot.gz', 'profile.cpuprofile/x'])
      expect(runEventSchema.safeParse({ ...event, name }).success, name).toBe(false);
    expect(runEventSchema.safeParse({ ...event, chunks: 2 }).success).toBe(false);
    expect(runEventSchema.safeParse({ ...event, runId: 'r-1:*' }).success).toBe(false);
  });

  it('an altered chunk and a missing one are refused by hash and absence, the other files go through, all before the end', async () => {
    const { mirror, run, seen } = mirrorWithRun();
    const lines: string[] = [];
    const relay = new FileRelay(redis, mirror, (l) => lines.push(l), limits);
    const profile = { nodes: [{ id: 1 }], startTime: 0, endTime: 1, samples: [], timeDeltas: [] };
    const good = await sendRunFile(redis, run.id, 'heap.heapprofile', bytes(2100, 2), limits);
    const altered = await sendRunFile(redis, run.id, 'snapshot-1.heapsnapshot.gz', bytes(3000, 3), limits);
    const expired = await sendRunFile(redis, run.id, 'snapshot-2.heapsnapshot.gz', bytes(1500, 4), limits);
    const cpu = await sendRunFile(redis, run.id, 'profile.cpuprofile', Buffer.from(JSON.stringify(profile)), limits);
    // Same length, one byte changed; and a chunk gone as if its TTL had run out.
    const key = KEYS.fileChunk(run.id, altered.transfer, 1);
    const chunk = (await redis.getBuffer(key))!;
    chunk[10] ^= 0xff;
    await redis.set(key, chunk);
    await redis.del(KEYS.fileChunk(run.id, expired.transfer, 1));
    // A file of a run this server never heard of is not even read.
    const stranger = { ...good, runId: 'r-00000000ff' };

    for (const event of [good, altered, stranger, expired, cpu]) relay.apply(event);
    const ran = { ...run, status: 'running' as const, pid: 1, startedAt: Date.now() };
    relay.apply({ t: 'ended', run: ran, summary: unstartedSummary(ran, 'test end', 'crashed') });
    // The end waited for the files before it.
    expect(seen).toEqual([]);
    await relay.settled();
    expect(seen.map(([kind, what]) => `${kind} ${what}`)).toEqual(['file heap.heapprofile', `profile ${run.id}`, `ended ${run.id}`]);
    expect((seen[0][2] as Buffer).equals(bytes(2100, 2))).toBe(true);
    expect(seen[1][2]).toEqual(profile);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(`^run ${run.id}: snapshot-1\\.heapsnapshot\\.gz from its worker skipped: its sha256 is [0-9a-f]{64}, not the ${altered.sha256}`),
    );
    expect(lines[1]).toBe(`run ${run.id}: snapshot-2.heapsnapshot.gz from its worker skipped: chunk 2 of 2 is missing (expired, or Redis lost it)`);
  });

  it('a file over the limit: the worker does not send it, a web server does not read it', async () => {
    const before = await redis.dbsize();
    await expect(sendRunFile(redis, 'r-00000000b1', 'snapshot-1.heapsnapshot.gz', bytes(10_001, 5), limits)).rejects.toThrow(
      'snapshot-1.heapsnapshot.gz is 10001 bytes, over the 10000 bytes a worker sends through Redis',
    );
    await expect(sendRunFile(redis, 'r-00000000b1', 'meta.json', bytes(10, 5), limits)).rejects.toThrow('"meta.json" is not a file a run record may hold');
    expect(await redis.dbsize()).toBe(before);
    // An event announcing more than the limit (another worker's, or forged) is refused before any read or allocation.
    const huge: FileEvent = { ...(await sendRunFile(redis, 'r-00000000b2', 'heap.heapprofile', bytes(10, 6), limits)), bytes: 600 * 1024 * 1024 };
    huge.chunks = Math.ceil(huge.bytes / huge.chunkBytes);
    expect(await fetchRunFile(redis, huge, limits)).toEqual({ ok: false, why: 'it is 600.0 MB, over the 10000 bytes a web server takes from Redis' });
    expect(await fetchRunFile(redis, { ...huge, bytes: 10, chunks: 1, chunkBytes: 5000 }, limits)).toMatchObject({ ok: false });
  });
});
