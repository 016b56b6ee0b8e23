/**
 * The Redis back end of the experiment queue (STREAM_LAB_REDIS_URL): the web server validates and
 * enqueues BullMQ jobs; worker processes (`npm run worker`, possibly on other machines) run them
 * and append what happens to a Redis stream, which every web server replays into its hub and
 * history through its RunMirror. Several web servers may share one Redis: each sees every run.
 * Closing it leaves runs and jobs alone: they belong to the workers and to Redis.
 */
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Experiment, Owner, QueueBackend } from '../../lib/protocol';
import { isUserStrategy, requireLab } from '../../labs/registry';
import { admit } from '../queue/admission';
import type { ExperimentQueue, QueueSnapshot } from '../queue/backend';
import { newExperiment } from '../queue/new-experiment';
import type { RunEntry } from '../queue/run-book';
import { SYSTEM, type QueueListener, type Requester, type StopAnswer } from '../queue/types';
import { unstartedSummary } from '../runner/unstarted';
import { USER_STOP, type StopReason } from '../runner/runner';
import { appendEvent, lastEventId, readEvents, type JobInfo } from './events';
import type { JobData } from './job-data';
import { rebuildFromJobs, reconcile, settleJob } from './job-sync';
import { bullConnection, describeRedis, failFastConnection, KEYS, patientConnection, QUEUE_NAME } from './redis-config';
import { RunMirror } from './run-mirror';
import { FileRelay } from './run-files';
import { readWorkers } from './worker-registry';
import { shipStrategies } from '../user-strategies/shipped';

/** Finished jobs kept in Redis (for a restarted web server to learn their ends); older ones are removed. */
export const KEEP_JOBS = { count: 1000 };
/** How often the worker registry is read (a new worker shows within this, a killed one within its key's expiry). */
const WORKERS_EVERY_MS = 5000;

export class RedisQueue implements ExperimentQueue {
  private readonly mirror = new RunMirror();
  private readonly cmd: Redis;
  /** Applies the stream's events to the mirror, fetching runs' files (profiles, snapshots) on the way. */
  private readonly files: FileRelay;
  private readonly reader: Redis;
  private readonly bull: Queue;
  private readonly bullEvents: QueueEvents;
  private status: QueueBackend;
  private reading: { stop(): Promise<void> } | null = null;
  private synced = false;
  private wasDown = false;
  private closing = false;
  private workers: { count: number; slots: number } | null = null;
  private readonly workersTimer: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly log: (line: string) => void = console.log,
  ) {
    this.status = { kind: 'redis', connected: false, message: `connecting to Redis at ${describeRedis(url)}` };
    this.cmd = failFastConnection(url);
    this.reader = patientConnection(url);
    this.files = new FileRelay(this.cmd, this.mirror, log);
    this.bull = new Queue(QUEUE_NAME, { connection: bullConnection(url), defaultJobOptions: { removeOnComplete: KEEP_JOBS, removeOnFail: KEEP_JOBS } });
    this.bullEvents = new QueueEvents(QUEUE_NAME, { connection: bullConnection(url) });
    // Errors show in the status; ioredis would otherwise print each reconnection attempt's error.
    this.reader.on('error', () => {});
    this.bull.on('error', () => {});
    this.bullEvents.on('error', () => {});
    this.cmd.on('error', (err: Error) => this.setStatus(false, err.message));
    this.cmd.on('close', () => this.setStatus(false, 'connection closed'));
    this.cmd.on('ready', () => void this.connected());
    this.bullEvents.on('failed', ({ jobId, failedReason }) => void settleJob(this.bull, this.mirror, jobId, failedReason));
    this.workersTimer = setInterval(() => void this.readWorkers(), WORKERS_EVERY_MS).unref();
  }

  /** Reads which workers are up: the page shows them (and says when there are none), the waits count their slots. */
  private async readWorkers(): Promise<void> {
    if (this.closing || !this.status.connected) return;
    try {
      const listed = await readWorkers(this.cmd);
      const workers = { count: listed.length, slots: listed.reduce((n, w) => n + w.slots, 0) };
      if (this.workers?.count === workers.count && this.workers.slots === workers.slots) return;
      this.workers = workers;
      this.mirror.setSlots(workers.slots);
      this.status = { ...this.status, workers };
      const status = this.status;
      this.mirror.emit((l) => l.backendChanged?.(status));
    } catch {
      // Unreachable Redis shows through the connection's own status.
    }
  }

  /** Waits (up to `ms`) for the first sync with Redis; the server serves either way and says when Redis is away. */
  async ready(ms = 5000): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.synced && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return this.synced;
  }

  private async connected(): Promise<void> {
    try {
      if (!this.synced) {
        // The stream's position first, then the jobs: an event between the two is applied twice, harmlessly.
        const from = await lastEventId(this.cmd);
        const open = await rebuildFromJobs(this.bull, this.mirror);
        this.reading = readEvents(
          this.reader,
          from,
          (e) => this.files.apply(e),
          (why) => this.log(`skipped a bad run event: ${why}`),
        );
        this.synced = true;
        this.log(`queue: Redis at ${describeRedis(this.url)}, ${open} job(s) waiting or running`);
      } else {
        await reconcile(this.bull, this.mirror);
      }
      this.setStatus(true, null);
      void this.readWorkers();
    } catch (err) {
      this.setStatus(false, err instanceof Error ? err.message : String(err));
    }
  }

  private setStatus(connected: boolean, why: string | null): void {
    if (this.closing || (this.status.connected === connected && connected)) return;
    const message = connected
      ? null
      : `Redis at ${describeRedis(this.url)} is unreachable (${why ?? 'no answer'}): no new runs can be queued; runs on workers go on and their results arrive when it is back`;
    if (this.status.connected === connected && this.status.message === message) return;
    // The first connection is logged by connected(); after that, each change.
    if (this.status.connected !== connected && (connected ? this.wasDown : this.synced))
      this.log(connected ? 'queue: Redis is reachable again' : `queue: ${message}`);
    if (!connected && this.synced) this.wasDown = true;
    this.status = { kind: 'redis', connected, message, workers: this.workers };
    const status = this.status;
    this.mirror.emit((l) => l.backendChanged?.(status));
  }

  subscribe(listener: QueueListener): void {
    this.mirror.subscribe(listener);
  }

  backend(): QueueBackend {
    return this.status;
  }

  /** Checks like the in-process queue, then adds the experiment's jobs; fair by owner through BullMQ priorities. */
  startExperiment(labId: string, strategies: string[], rawParams: Record<string, unknown>, parallel: boolean, by: Requester = SYSTEM): Experiment {
    if (this.closing) throw new RangeError('the server is shutting down: no new experiments');
    if (!this.status.connected) throw new RangeError(this.status.message ?? 'Redis is unreachable');
    const lab = requireLab(labId);
    const reason = lab.runsAlone ?? lab.parallelProblem?.(rawParams) ?? null;
    if (parallel && reason) throw new RangeError(`parallel: ${reason}`);
    const queued = [...this.mirror.book.runs.values()].filter((e) => e.state.status === 'queued');
    const mine = by === SYSTEM ? 0 : queued.filter((e) => this.mirror.book.ownerOf(e)?.id === by.owner.id).length;
    const params = admit({ labId, strategies, rawParams, queued: queued.length, mine });
    // A worker gets the bundles of strategies of yours with the job, checked there by hash.
    const yours = shipStrategies(
      labId,
      strategies.filter((id) => isUserStrategy(labId, id)),
    );
    const { experiment, states } = newExperiment(labId, strategies, params, parallel, by === SYSTEM ? null : by.owner);
    const groups = parallel ? [experiment.runIds] : experiment.runIds.map((id) => [id]);
    // Each owner's nth waiting job gets priority n: everyone's first job goes before anyone's second.
    const ahead = this.waitingJobsOf(experiment.owner?.id ?? null);
    const jobs: JobInfo[] = groups.map((runIds, i) => ({ id: `j-${runIds[0]}`, runIds, priority: ahead + i + 1 }));
    void this.enqueue({ experiment, runs: states, jobs, runIds: [], yours });
    return experiment;
  }

  private async enqueue(data: JobData): Promise<void> {
    try {
      // The event first: a fast worker's first report then never arrives before the run is known.
      await appendEvent(this.cmd, { t: 'experiment', experiment: data.experiment, runs: data.runs, jobs: data.jobs });
      await this.bull.addBulk(
        data.jobs.map((j) => ({ name: data.experiment.lab, data: { ...data, runIds: j.runIds }, opts: { jobId: j.id, priority: j.priority } })),
      );
    } catch (err) {
      const why = `could not queue it: ${err instanceof Error ? err.message : String(err)}`;
      this.log(`queue: experiment ${data.experiment.id} ${why}`);
      for (const run of data.runs) {
        const entry = this.mirror.live(run.id);
        if (entry) this.mirror.end(entry.state, unstartedSummary(entry.state, why, 'crashed'));
      }
    }
  }

  private waitingJobsOf(ownerId: string | null): number {
    return [...this.mirror.jobs.values()].filter((j) => {
      const entry = this.mirror.book.runs.get(j.runIds[0]);
      return entry?.state.status === 'queued' && (this.mirror.book.ownerOf(entry)?.id ?? null) === ownerId;
    }).length;
  }

  stopRun(runId: string, why: StopReason = USER_STOP, by: Requester = SYSTEM): StopAnswer {
    const entry = this.mirror.live(runId);
    if (!entry) return this.mirror.book.runs.has(runId) ? 'stopped' : 'not-found';
    if (!this.mayStop(entry, by)) return 'forbidden';
    void this.stopEverywhere(entry, why).catch((err: unknown) =>
      this.log(`queue: could not stop ${runId}: ${err instanceof Error ? err.message : String(err)}`),
    );
    return 'stopped';
  }

  /** A waiting run is marked (a worker skips it), ended and its job removed; a running one is stopped by its worker. */
  private async stopEverywhere(entry: RunEntry, why: StopReason): Promise<void> {
    const runId = entry.state.id;
    if (entry.state.status === 'queued') {
      await this.cmd.set(KEYS.stopped(runId), '1', 'EX', 86_400);
      const reason = why.outcome === 'stopped' ? `${why.reason} before it started` : why.reason;
      await appendEvent(this.cmd, { t: 'ended', run: entry.state, summary: unstartedSummary(entry.state, reason, why.outcome) });
      const job = this.mirror.jobOf(runId);
      // A job a worker already holds is locked and stays; the worker skips its stopped runs.
      if (job) await this.bull.remove(job.id).catch(() => 0);
    }
    // Also when queued: a worker may have taken it a moment ago.
    await this.cmd.publish(KEYS.stops, JSON.stringify({ runId, ...why }));
  }

  stopExperiment(experimentId: string, by: Requester = SYSTEM): StopAnswer {
    const experiment = this.mirror.book.experiments.get(experimentId);
    if (!experiment) return 'not-found';
    const answers = experiment.runIds.map((id) => this.stopRun(id, USER_STOP, by));
    return answers.includes('forbidden') ? 'forbidden' : 'stopped';
  }

  stopAll(why: StopReason = USER_STOP, by: Requester = SYSTEM): number {
    let n = 0;
    for (const entry of [...this.mirror.book.runs.values()])
      if (entry.state.summary === null && this.mayStop(entry, by) && this.stopRun(entry.state.id, why, by) === 'stopped') n += 1;
    return n;
  }

  private mayStop(entry: RunEntry, by: Requester): boolean {
    const owner = this.mirror.book.ownerOf(entry);
    return by.operator || owner === null || owner.id === by.owner.id;
  }

  experimentOwner(experimentId: string): Owner | null {
    return this.mirror.book.experiments.get(experimentId)?.owner ?? null;
  }

  /** A snapshot is taken by the worker's runner, which this server can't reach yet. */
  async snapshotRun(runId: string): Promise<string | null> {
    if (!this.mirror.book.runs.get(runId)) return `no run with id ${runId}`;
    return 'heap snapshots on demand are not available for runs on Redis workers yet: give the run a Heap snapshot trigger (at= or when=) instead';
  }

  runOwner(runId: string): Owner | null {
    return this.mirror.book.ownerOf(this.mirror.book.runs.get(runId));
  }

  snapshot(): QueueSnapshot {
    return { ...this.mirror.book.contents(), queue: this.mirror.queueOrder(), data: [...this.mirror.data.values()] };
  }

  seriesAfter(runId: string, sampleAt: number, procAt: number) {
    return this.mirror.book.seriesAfter(runId, sampleAt, procAt);
  }

  /** Workers make what runs need, on their own machines. */
  async prepare(): Promise<void> {}

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.workersTimer);
    this.files.stop();
    // A blocked read ends when its connection goes.
    const reading = this.reading?.stop();
    this.reader.disconnect();
    await reading;
    await Promise.allSettled([this.bullEvents.close(), this.bull.close()]);
    this.cmd.disconnect();
  }
}
