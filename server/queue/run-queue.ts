/**
 * The experiment queue: experiments of any lab, their runs, and the one-at-a-time queue that
 * executes them through the runner. Built at the entry point and handed to the hub; it knows
 * nothing about sockets or disks and reports what happens to its listeners (the hub broadcasts,
 * the history records).
 */
import type { DataStatus, Experiment, Owner, ProcSample, QueueEntry, RunState, RunSummary, Sample } from '../../lib/protocol';

import { requireLab } from '../../labs/registry';
import { SHUTDOWN_STOP, USER_STOP, type RunHandle, type StopReason } from '../runner/runner';
import { prepareAndStart } from '../runner/lab-run';
import { admit } from './admission';
import { DurationEstimates, waitingOrder } from './estimate';
import { SYSTEM, type QueueListener, type Requester, type StopAnswer } from './types';
import { unstartedSummary } from '../runner/unstarted';
import { FairJobs } from './fair-jobs';
import { RunBook, type RunEntry } from './run-book';
import { IN_PROCESS_BACKEND, type ExperimentQueue } from './backend';
import { newExperiment } from './new-experiment';

export { SYSTEM, type QueueListener, type Requester, type StopAnswer } from './types';

export { MAX_QUEUED_PER_OWNER, MAX_QUEUED_RUNS } from './admission';

/** How often the waiting order (with its estimated waits) is sent again while a run goes. */
const QUEUE_REFRESH_MS = 2000;

export class RunQueue implements ExperimentQueue {
  private readonly book = new RunBook();
  private readonly data = new Map<string, DataStatus>();
  private readonly listeners: QueueListener[] = [];
  /** Jobs waiting, fair by owner: each is the runs that start together (one run, or a whole parallel experiment). */
  private readonly jobs = new FairJobs();
  private readonly estimates = new DurationEstimates();
  private busy = false;
  private closing = false;

  /** Adds a listener; events reach listeners in the order they subscribed. */
  subscribe(listener: QueueListener): void {
    this.listeners.push(listener);
  }

  /** Validates the lab, strategy ids and params against the lab and this machine, then queues the runs. */
  startExperiment(labId: string, strategies: string[], rawParams: Record<string, unknown>, parallel: boolean, by: Requester = SYSTEM): Experiment {
    if (this.closing) throw new RangeError('the server is shutting down: no new experiments');
    const lab = requireLab(labId);
    const reason = lab.runsAlone ?? lab.parallelProblem?.(rawParams) ?? null;
    if (parallel && reason) throw new RangeError(`parallel: ${reason}`);
    const queued = [...this.book.runs.values()].filter((e) => e.state.status === 'queued');
    const mine = by === SYSTEM ? 0 : queued.filter((e) => this.book.ownerOf(e)?.id === by.owner.id).length;
    const params = admit({ labId, strategies, rawParams, queued: queued.length, mine });
    const owner = by === SYSTEM ? null : by.owner;
    const { experiment, states } = newExperiment(labId, strategies, params, parallel, owner);
    this.book.add(experiment, states);
    this.emit((l) => l.experimentCreated(experiment));
    for (const state of states) this.emit((l) => l.runQueued(state));
    const ownerId = owner?.id ?? SYSTEM.owner.id;
    if (parallel) this.jobs.add({ owner: ownerId, runIds: [...experiment.runIds] });
    else for (const id of experiment.runIds) this.jobs.add({ owner: ownerId, runIds: [id] });
    this.book.forgetOld();
    this.queueChanged();
    void this.pump();
    return experiment;
  }

  /**
   * Stops one run (a queued run ends at once, a running one is terminated) if the requester may:
   * the browser that started it, or the operator.
   */
  stopRun(runId: string, why: StopReason = USER_STOP, by: Requester = SYSTEM): StopAnswer {
    const entry = this.book.runs.get(runId);
    if (!entry) return 'not-found';
    if (!this.mayStop(entry, by)) return 'forbidden';
    if (entry.handle) entry.handle.stop(why);
    else if (entry.state.status === 'queued' || entry.state.status === 'preparing') {
      this.endUnstarted(entry, why.outcome === 'stopped' ? `${why.reason} before it started` : why.reason, why.outcome);
      this.queueChanged();
    }
    return 'stopped';
  }

  async snapshotRun(runId: string, by: Requester = SYSTEM): Promise<string | null> {
    const entry = this.book.runs.get(runId);
    if (!entry) return `no run with id ${runId}`;
    if (!this.mayStop(entry, by)) return 'only the browser that started this run, or the operator, can snapshot it (it stands still meanwhile)';
    if (!entry.handle || entry.state.status !== 'running') return `run ${runId} is not running`;
    const taken = await entry.handle.snapshot();
    return taken.n === 0 ? taken.error : null;
  }

  stopExperiment(experimentId: string, by: Requester = SYSTEM): StopAnswer {
    const experiment = this.book.experiments.get(experimentId);
    if (!experiment) return 'not-found';
    const answers = experiment.runIds.map((id) => this.stopRun(id, USER_STOP, by));
    return answers.includes('forbidden') ? 'forbidden' : 'stopped';
  }

  /** The operator's Stop all stops every run; anyone else's stops their own. Returns how many were stopped. */
  stopAll(why: StopReason = USER_STOP, by: Requester = SYSTEM): number {
    let n = 0;
    for (const entry of [...this.book.runs.values()]) if (this.mayStop(entry, by) && this.stopRun(entry.state.id, why, by) === 'stopped') n += 1;
    return n;
  }

  /** The owner of an experiment by id. */
  experimentOwner(experimentId: string): Owner | null {
    return this.book.experiments.get(experimentId)?.owner ?? null;
  }

  /** The owner of a run by id (the hub names it when refusing a stop). */
  runOwner(runId: string): Owner | null {
    return this.book.ownerOf(this.book.runs.get(runId));
  }

  private mayStop(entry: RunEntry, by: Requester): boolean {
    const owner = this.book.ownerOf(entry);
    return by.operator || owner === null || owner.id === by.owner.id;
  }

  /** The waiting runs in the order they will start, each with the estimated wait until it starts. */
  queueOrder(): QueueEntry[] {
    const states = [...this.book.runs.values()].map((e) => e.state);
    return waitingOrder(
      states.filter((s) => s.status === 'running' || s.status === 'preparing'),
      this.jobs.order(),
      this.book.runs,
      this.estimates,
      { remainingMs: (r) => this.book.remainingMs(r) },
    );
  }

  private queueChanged(): void {
    const order = this.queueOrder();
    this.emit((l) => l.queueChanged(order));
  }

  /** Everything a joining page needs: the book's contents, the waiting order, preparation progress. */
  snapshot() {
    return { ...this.book.contents(), queue: this.queueOrder(), data: [...this.data.values()] };
  }

  /** A run's samples and /proc readings taken after the given times (what a snapshot lacks). */
  seriesAfter(runId: string, sampleAt: number, procAt: number): { samples: Sample[]; proc: ProcSample[] } {
    return this.book.seriesAfter(runId, sampleAt, procAt);
  }

  /** Runs go in this process: always reachable. */
  backend() {
    return IN_PROCESS_BACKEND;
  }

  /** Makes what a lab's runs with these params need ahead of time (the server does it for the default data file). */
  async prepare(labId: string, params: Record<string, unknown>): Promise<void> {
    await requireLab(labId).prepare(params, (s) => this.reportData(s));
  }

  /** Ends every run as interrupted by the shutdown and waits for them all (server shutdown). */
  async close(): Promise<void> {
    this.closing = true;
    this.jobs.clear();
    this.stopAll(SHUTDOWN_STOP);
    await Promise.all([...this.book.runs.values()].map((e) => e.handle?.done));
  }

  private reportData(status: DataStatus): void {
    this.data.set(`${status.lab}:${status.unit}:${status.sizeBytes}`, status);
    this.emit((l) => l.dataProgress(status));
  }

  private async pump(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      for (let job = this.jobs.next(); job; job = this.jobs.next()) {
        const entries = job.runIds.map((id) => this.book.runs.get(id)).filter((e): e is RunEntry => e?.state.status === 'queued');
        if (entries.length === 0) continue;
        const running = Promise.all(entries.map((e) => this.execute(e)));
        this.queueChanged();
        // The waits shown for the runs behind follow the running one's pace, every few seconds.
        const refresh = setInterval(() => this.jobs.order().length > 0 && this.queueChanged(), QUEUE_REFRESH_MS).unref();
        await running.finally(() => clearInterval(refresh));
      }
    } finally {
      this.busy = false;
    }
  }

  private async execute(entry: RunEntry): Promise<void> {
    const { state } = entry;
    this.update(entry, { status: 'preparing' });
    const handle = prepareAndStart({
      lab: state.lab,
      runId: state.id,
      strategy: state.strategy,
      params: state.params,
      onData: (s) => this.reportData(s),
      onPrepared: (prepared) => this.update(entry, { preparedUnits: prepared.total }),
      onStarted: ({ pid, startedAt }) => this.update(entry, { status: 'running', pid, startedAt }),
      onSample: (sample) => {
        entry.series.addSample(sample);
        this.emit((l) => l.runSample(state.id, sample));
      },
      onProc: (proc) => {
        entry.series.addProc(proc);
        this.emit((l) => l.runProc(state.id, proc));
      },
      onLive: (update) => {
        entry.series.addLive(update);
        this.emit((l) => l.runLive?.(state.id, update));
      },
      onProfile: (profile) => this.emit((l) => l.runProfile?.(state.id, profile)),
      onFile: (name, data) => this.emit((l) => l.runFile?.(state.id, name, data)),
    });
    entry.handle = handle;
    const summary = await handle.done;
    entry.handle = null;
    this.finish(entry, summary);
    // One job at a time: a run stopped while preparing has ended, but its preparation still runs.
    await handle.prepared;
  }

  private endUnstarted(entry: RunEntry, reason: string, outcome: 'stopped' | 'crashed' | 'interrupted' = 'stopped'): void {
    this.finish(entry, unstartedSummary(entry.state, reason, outcome));
  }

  private finish(entry: RunEntry, summary: RunSummary): void {
    if (summary.outcome === 'completed' || summary.outcome === 'data-lost') this.estimates.learn(entry.state, summary.durationMs);
    entry.state = { ...entry.state, status: summary.outcome, summary, preparedUnits: entry.state.preparedUnits, pid: null };
    const state = entry.state;
    this.emit((l) => l.runEnded(state, summary));
  }

  private update(entry: RunEntry, patch: Partial<RunState>): void {
    entry.state = { ...entry.state, ...patch } as RunState;
    const state = entry.state;
    this.emit((l) => l.runUpdated(state));
  }

  /** Tells every listener; one that throws (the history's disk, say) is logged, and never stops the queue or the others. */
  private emit(event: (l: QueueListener) => void): void {
    for (const l of this.listeners) {
      try {
        event(l);
      } catch (err) {
        console.error(`a run queue listener failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
}
