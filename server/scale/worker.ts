/**
 * `npm run worker`: takes experiment runs from the shared BullMQ queue and runs them here, as
 * many at once as --concurrency, each pinned to one of the cores this process was given. A worker
 * that stops answering (killed, cut off) loses its jobs' locks; another worker's stalled-job
 * check then fails them, and the web servers end their runs `interrupted`.
 * SIGINT/SIGTERM: runs under way end `interrupted` ("worker shut down"), then it leaves.
 */
import { fenceNotice } from '../user-strategies/namespaces';
import { hostname } from 'node:os';
import { Worker } from 'bullmq';
import { z } from 'zod';
import { UsageError } from '../cli/args';
import { removeStaleTempFiles } from '../data/data-files';
import { ensureChildBuild } from '../runner/child-build';
import { enableChildPriority } from '../runner/child-priority';
import { claimCores } from './core-claims';
import { CorePool, ownCores } from './cores';
import { runJob, type WorkerContext } from './job-runner';
import { bullConnection, describeRedis, failFastConnection, KEYS, patientConnection, QUEUE_NAME, readLockMs, whenReady } from './redis-config';
import { parseWorkerArgs } from './worker-args';
import { registerWorker } from './worker-registry';

const stopSchema = z.object({ runId: z.string(), outcome: z.enum(['stopped', 'interrupted']), reason: z.string().max(500) });

async function main(): Promise<void> {
  const args = parseWorkerArgs(process.argv.slice(2));
  const lockMs = readLockMs();
  // Runs below the worker's own relaying of their samples (server/runner/child-priority.ts).
  enableChildPriority();
  removeStaleTempFiles();
  await ensureChildBuild();
  const given = await ownCores();
  const pub = failFastConnection(args.redisUrl);
  pub.on('error', () => {});
  await whenReady(pub);
  const id = `${hostname()}#${process.pid}`;
  const claims = await claimCores(pub, hostname(), id, given.cores, args.concurrency);
  const info = { id, host: hostname(), cores: claims.cores.length, node: process.versions.node };
  const ctx: WorkerContext = {
    pub,
    info,
    cores: new CorePool(claims.cores),
    pinning: given.pinning,
    held: new Map(),
    dropped: { events: 0, files: 0 },
    log: (line) => console.log(line),
  };
  const stops = patientConnection(args.redisUrl);
  stops.on('error', () => {});
  stops.on('message', (_channel: string, raw: string) => {
    const stop = stopSchema.safeParse(safeJson(raw));
    const slot = stop.success ? ctx.held.get(stop.data.runId) : undefined;
    if (!stop.success || !slot) return;
    slot.stop = { outcome: stop.data.outcome, reason: stop.data.reason };
    slot.handle?.stop(slot.stop);
  });
  await stops.subscribe(KEYS.stops);

  const worker = new Worker(QUEUE_NAME, (job) => runJob(job, ctx), {
    connection: bullConnection(args.redisUrl),
    concurrency: args.concurrency,
    lockDuration: lockMs,
    stalledInterval: lockMs,
    // A run cut off mid-way is not run again behind the user's back: it ends interrupted.
    maxStalledCount: 0,
  });
  worker.on('error', (err) => console.error(`worker: ${err.message}`));
  await worker.waitUntilReady();
  // Listed for the web servers once it takes jobs: their waits count its slots.
  const presence = await registerWorker(ctx.pub, { id, host: info.host, slots: args.concurrency });
  console.log(
    `worker ${info.id} ready: Redis at ${describeRedis(args.redisUrl)}, concurrency ${args.concurrency}, cores ${claims.cores.join(',')}, Node ${info.node}`,
  );
  // What strategies of yours a job carries can and cannot do here (issue 39), once at start.
  if (process.env.STREAM_LAB_WORKER_RUNS_YOURS === '1') console.log(`fence: ${fenceNotice().text}`);
  if (!given.pinning) console.log(`runs are not pinned to cores: ${given.why}`);
  if (!claims.own)
    console.log(`every core given (${given.cores.join(',')}) is taken by other workers on ${info.host}: runs share them and disturb each other's figures`);
  else if (args.concurrency > claims.cores.length)
    console.log(`concurrency ${args.concurrency} > ${claims.cores.length} core(s) free for it: runs will share cores and disturb each other's figures`);

  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: ending ${ctx.held.size} run(s) as interrupted and leaving`);
    setTimeout(() => process.exit(1), 10_000).unref();
    for (const slot of ctx.held.values()) {
      slot.stop = { outcome: 'interrupted', reason: 'worker shut down' };
      slot.handle?.stop(slot.stop);
    }
    await presence.release();
    await worker.close();
    await claims.release();
    if (ctx.dropped.events > 0) console.log(`${ctx.dropped.events} report(s) could not reach Redis`);
    if (ctx.dropped.files > 0) console.log(`${ctx.dropped.files} run file(s) (profiles, snapshots) were not sent`);
    stops.disconnect();
    await ctx.pub.quit().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));
  // Started by a test or a script with an IPC channel: if that parent dies, this worker goes too.
  if (process.send) process.once('disconnect', () => void close('parent gone'));
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(err instanceof UsageError ? 2 : 1);
});
