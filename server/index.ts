/**
 * `npm start` ends here (after a build): builds the experiment queue, the history that records it
 * and the server (pages and /ws on one port), and makes the default data file in the background
 * so the first experiment does not wait for it.
 */
import { DEFAULT_STREAMS_PARAMS } from '../labs/streams/shared/params';
import { createLabServer } from './app-server';
import { removeStaleTempFiles } from './data/data-files';
import { removeStaleSnapshotDirs } from './runner/heap-watch';
import { LABS } from '../labs/registry';
import { DEFAULT_LAB } from '../labs/schemas';
import type { ExperimentQueue } from './queue/backend';
import { RunQueue } from './queue/run-queue';
import { ensureChildBuild } from './runner/child-build';
import { enableChildPriority } from './runner/child-priority';
import { enableSpareChild } from './runner/spare-child';
import { closeOnSignals } from './shutdown';
import { openHistory } from './store/history';
import { readRedisUrl } from './scale/redis-config';
import { fenceNotice } from './user-strategies/namespaces';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const dev = process.env.NODE_ENV === 'development';
const prepareMb = Number(process.env.STREAM_LAB_PREPARE_MB || DEFAULT_STREAMS_PARAMS.sizeMb);
if (!Number.isFinite(prepareMb) || prepareMb < 0) {
  throw new RangeError(`STREAM_LAB_PREPARE_MB must be 0 (make no file) or a size in MB (got "${process.env.STREAM_LAB_PREPARE_MB}")`);
}

// Run children below the server and the pages on the same machine (server/runner/child-priority.ts).
enableChildPriority();

const stale = removeStaleTempFiles();
if (stale.length) console.log(`removed ${stale.length} half-written data file(s) left by a stopped process: ${stale.join(', ')}`);
void removeStaleSnapshotDirs().then(
  (dirs) => dirs.length && console.log(`removed ${dirs.length} heap snapshot folder(s) left by a stopped server: ${dirs.join(', ')}`),
);

// Opened before listening: runs the last server left unfinished are marked interrupted first.
const history = await openHistory();
// STREAM_LAB_REDIS_URL: runs go to worker processes through Redis (docs/scale-out.md); else they run here.
const redisUrl = readRedisUrl();
const queue: ExperimentQueue = redisUrl ? await openRedisQueue(redisUrl) : new RunQueue();
queue.subscribe(history.observer);
const lab = await createLabServer({
  port,
  host,
  next: true,
  dev,
  queue,
  routes: [...LABS.flatMap((l) => l.routes ?? []), ...history.routes],
  pageGuards: history.pageGuards,
});
console.log(`Stream Lab ready on ${lab.url}`);
// What code of yours can and cannot do on this machine (issue 39): said once, at start.
console.log(`fence: ${fenceNotice().text}`);
// A booted spare child, so the first Start does not wait for Node's start-up (runs are here only without Redis).
if (!redisUrl) enableSpareChild(await ensureChildBuild());

async function openRedisQueue(url: string): Promise<ExperimentQueue> {
  const { RedisQueue } = await import('./scale/redis-queue');
  const redis = new RedisQueue(url);
  // Serving starts either way: the page says when Redis is away.
  if (!(await redis.ready())) console.log(redis.backend().message);
  return redis;
}

if (prepareMb > 0 && !redisUrl) {
  // The default lab's data file, made ahead so the first Start waits for nothing.
  queue.prepare(DEFAULT_LAB, { ...DEFAULT_STREAMS_PARAMS, sizeMb: prepareMb }).then(
    () => console.log(`default data file ready (${prepareMb} MB)`),
    (err: unknown) => console.error(`could not make the default data file: ${err instanceof Error ? err.message : String(err)}`),
  );
}

closeOnSignals({ queue, server: lab, history });
