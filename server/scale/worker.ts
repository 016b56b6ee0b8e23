/**
 * `npm run worker`: takes experiment runs from the shared BullMQ queue and runs them here, as
 * many at once as --concurrency, each pinned to one of the cores this process was given. A worker
 * that stops answering (killed, cut off) loses its jobs' locks; another worker's stalled-job
 * check then fails them, and the web servers end their runs `interrupted`.
 * SIGINT/SIGTERM: runs under way end `interrupted` ("worker shut down"), then it leaves.
 */
import { hostname } from 'node:os';
import { Worker } from 'bullmq';
import { z } from 'zod';
import { UsageError } from '../cli/args';
import { removeStaleTempFiles } from '../data/data-files';
import { ensureChildBuild } from '../runner/child-build';
import { CorePool, ownCores } from './cores';
import { runJob, type WorkerContext } from './job-runner';
import { bullConnection, describeRedis, failFastConnection, KEYS, patientConnection, QUEUE_NAME, readLockMs } from './redis-config';
import { parseWorkerArgs } from './worker-args';

const stopSchema = z.object({ runId: z.string(), outcome: z.enum(['stopped', 'interrupted']), reason: z.string().max(500) });

async function main(): Promise<void> {
  const args = parseWorkerArgs(process.argv.slice(2));
  const lockMs = readLockMs();
  removeStaleTempFiles();
  await ensureChildBuild();
  const given = await ownCores();
  const info = { id: `${hostname()}#${process.pid}`, host: hostname(), cores: given.cores.length, node: process.versions.node };
  const ctx: WorkerContext = {
    pub: failFastConnection(args.redisUrl),
    info,
    cores: new CorePool(given.cores),
    pinning: given.pinning,
    held: new Map(),
    dropped: { events: 0 },
    log: (line) => console.log(line),
  };
  ctx.pub.on('error', () => {});
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
  console.log(`worker ${info.id} ready: Redis at ${describeRedis(args.redisUrl)}, concurrency ${args.concurrency}, cores ${given.cores.join(',')}, Node ${info.node}`);
  if (!given.pinning) console.log(`runs are not pinned to cores: ${given.why}`);
  else if (args.concurrency > given.cores.length) console.log(`concurrency ${args.concurrency} > ${given.cores.length} core(s) given: runs will share cores and disturb each other's figures`);

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
    await worker.close();
    if (ctx.dropped.events > 0) console.log(`${ctx.dropped.events} report(s) could not reach Redis`);
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
