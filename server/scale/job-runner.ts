/**
 * What a worker does with one BullMQ job: the same steps the in-process queue takes for a run
 * (the lab prepares, the runner starts the child, samples flow, the summary ends it), with each
 * run pinned to a core of its own and every report appended to the Redis event stream instead
 * of told to local listeners. The job's progress holds its runs' newest states and its return
 * value their ends, so a web server that missed the stream can still learn them.
 */
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RunState, RunSummary, WorkerInfo } from '../../lib/protocol';
import { requireLab } from '../../labs/registry';
import type { RunHandle, StopReason } from '../runner/runner';
import { prepareAndStart } from '../runner/lab-run';
import { CorePool, pinToCores } from './cores';
import { checkDataFile } from './data-check';
import { appendEvent, type RunEvent } from './events';
import { jobDataSchema, type JobResult } from './job-data';
import { KEYS } from './redis-config';
import { receiveStrategies } from '../user-strategies/shipped';
import { PROFILE_FILE } from '../store/record-files';
import { sendRunFile } from './run-files';

export interface WorkerContext {
  /** Fail-fast connection: while Redis is away reports are dropped (counted), never queued without bound. */
  pub: Redis;
  /** This worker, without the core (each run has its own). */
  info: Omit<WorkerInfo, 'core'>;
  cores: CorePool;
  pinning: boolean;
  /** Runs this worker holds, by id: stops from the page reach them here. */
  held: Map<string, { handle: RunHandle | null; stop: StopReason | null }>;
  /** Reports (events) and run files that could not reach Redis. */
  dropped: { events: number; files: number };
  log(line: string): void;
}

/** Appends an event; a failure (Redis away) is counted, not thrown: the run goes on. */
function publish(ctx: WorkerContext, event: RunEvent): void {
  appendEvent(ctx.pub, event).catch(() => (ctx.dropped.events += 1));
}

/**
 * Sends one of a run's files to the web servers (run-files.ts): chunks, then its event. A file
 * over the limit or Redis away: said and counted, the run goes on without it.
 */
async function relayFile(ctx: WorkerContext, runId: string, name: string, data: Buffer): Promise<void> {
  try {
    publish(ctx, await sendRunFile(ctx.pub, runId, name, data));
  } catch (err) {
    ctx.dropped.files += 1;
    ctx.log(`run ${runId}: ${name} not sent to the web servers: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export async function runJob(job: Job, ctx: WorkerContext): Promise<JobResult> {
  const data = jobDataSchema.parse(job.data);
  // Strategies of yours come with the job, checked by hash, before any of its runs starts.
  receiveStrategies(data.yours);
  const states = new Map(data.runs.filter((r) => data.runIds.includes(r.id)).map((r) => [r.id, r]));
  const report = (run: RunState) => {
    states.set(run.id, run);
    publish(ctx, { t: 'run', run });
    job.updateProgress({ runs: [...states.values()] }).catch(() => {});
  };
  const ended = await Promise.all([...states.values()].map((run) => runOne(run, report, ctx)));
  return { ended: ended.filter((e): e is { run: RunState; summary: RunSummary } => e !== null) };
}

/** One run of the job; null when the page stopped it before it started (the web server ended it then). */
async function runOne(queued: RunState, report: (run: RunState) => void, ctx: WorkerContext): Promise<{ run: RunState; summary: RunSummary } | null> {
  if (await ctx.pub.exists(KEYS.stopped(queued.id))) return null;
  const core = ctx.cores.take();
  const slot = { handle: null as RunHandle | null, stop: null as StopReason | null };
  ctx.held.set(queued.id, slot);
  let state: RunState = { ...queued, worker: { ...ctx.info, core: ctx.pinning ? core : null } };
  const update = (patch: Partial<RunState>) => report((state = { ...state, ...patch } as RunState));
  try {
    update({ status: 'preparing' });
    const summary = await execute(state, update, slot, core, ctx);
    const run: RunState = { ...state, status: summary.outcome, summary, pid: null };
    publish(ctx, { t: 'ended', run, summary });
    return { run, summary };
  } finally {
    ctx.held.delete(queued.id);
    ctx.cores.give(core);
  }
}

async function execute(
  state: RunState,
  update: (patch: Partial<RunState>) => void,
  slot: { handle: RunHandle | null; stop: StopReason | null },
  core: number,
  ctx: WorkerContext,
): Promise<RunSummary> {
  // A run's files go one after another (one file's chunks in flight at a time), all before its end.
  let files = Promise.resolve();
  const sendFile = (name: string, data: Buffer) => void (files = files.then(() => relayFile(ctx, state.id, name, data)));
  const handle = prepareAndStart({
    lab: state.lab,
    runId: state.id,
    strategy: state.strategy,
    params: state.params,
    onData: (status) => publish(ctx, { t: 'data', status }),
    // The data file must be the web server's (same size and seed), or the figures compare nothing.
    check: (prepared) => checkDataFile(ctx.pub, prepared, 'seed' in state.params ? state.params.seed : 0),
    onPrepared: (prepared) => update({ preparedUnits: prepared.total }),
    onStarted: ({ pid, startedAt }) => {
      // A lab whose run starts processes of its own across cores (HTTP, CPU: `runsAlone`) gets all
      // the worker's cores; any other run one core. Pinned within ms of its start, before its
      // first sample; its threads now and its children later.
      const alone = requireLab(state.lab).runsAlone !== undefined;
      const pinned = ctx.pinning ? pinToCores(pid, alone ? ctx.cores.all() : [core]) : Promise.resolve(false);
      void pinned.then((ok) => update({ status: 'running', pid, startedAt, worker: { ...ctx.info, core: ok && !alone ? core : null } }));
    },
    onSample: (sample) => publish(ctx, { t: 'sample', runId: state.id, sample }),
    onProc: (proc) => publish(ctx, { t: 'proc', runId: state.id, proc }),
    onLive: (update) => publish(ctx, { t: 'live', runId: state.id, update }),
    onProfile: (profile) => sendFile(PROFILE_FILE, Buffer.from(JSON.stringify(profile))),
    onFile: sendFile,
  });
  slot.handle = handle;
  if (slot.stop) handle.stop(slot.stop);
  const summary = await handle.done;
  // The core stays taken until the preparation (a data file, a table) has finished too.
  await handle.prepared;
  // The runner hands its files on before `done`; their events go before the run's 'ended' (the
  // caller appends it on the same connection, so in order), so a web server has them on its end.
  await files;
  return summary;
}
