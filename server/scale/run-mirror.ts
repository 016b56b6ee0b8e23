/**
 * A web server's picture of the shared queue: the experiments and runs it has heard of (the same
 * RunBook the in-process queue keeps, with series for late joiners), rebuilt from the events
 * every worker and web server append to Redis, and told to this server's listeners (hub,
 * history) as the in-process queue tells them. Applying an event twice changes nothing.
 */
import type { DataStatus, QueueEntry, RunState, RunSummary } from '../../lib/protocol';
import { DurationEstimates, waitingOrder } from '../queue/estimate';
import type { Job } from '../queue/fair-jobs';
import { RunBook, type RunEntry } from '../queue/run-book';
import type { QueueListener } from '../queue/types';
import type { JobInfo, MirrorEvent } from './events';

export class RunMirror {
  readonly book = new RunBook();
  readonly data = new Map<string, DataStatus>();
  /** Jobs by id, while any of their runs may still be waiting or running. */
  readonly jobs = new Map<string, JobInfo>();
  private readonly estimates = new DurationEstimates();
  /** Jobs the workers take at once (their slots, from the worker registry); waits assume one until known. */
  private slots = 1;
  private readonly listeners: QueueListener[] = [];

  subscribe(listener: QueueListener): void {
    this.listeners.push(listener);
  }

  emit(event: (l: QueueListener) => void): void {
    for (const l of this.listeners) event(l);
  }

  /** Applies one event from the stream (or from the rebuild at start); file events come through run-files.ts. */
  apply(event: MirrorEvent): void {
    switch (event.t) {
      case 'experiment': {
        if (this.book.experiments.has(event.experiment.id)) return;
        this.book.add(event.experiment, event.runs);
        for (const job of event.jobs) this.jobs.set(job.id, job);
        this.emit((l) => l.experimentCreated(event.experiment));
        for (const run of event.runs) this.emit((l) => l.runQueued(run));
        // Runs a rebuild finds already under way: the history begins recording them now.
        for (const run of event.runs) if (run.status !== 'queued' && run.summary === null) this.emit((l) => l.runUpdated(run));
        this.book.forgetOld();
        this.queueChanged();
        return;
      }
      case 'run': {
        const entry = this.live(event.run.id);
        if (!entry) return;
        const wasQueued = entry.state.status === 'queued';
        entry.state = event.run;
        this.emit((l) => l.runUpdated(event.run));
        if (wasQueued) this.queueChanged();
        return;
      }
      case 'sample': {
        const entry = this.live(event.runId);
        if (!entry) return;
        entry.series.addSample(event.sample);
        this.emit((l) => l.runSample(event.runId, event.sample));
        return;
      }
      case 'proc': {
        const entry = this.live(event.runId);
        if (!entry) return;
        entry.series.addProc(event.proc);
        this.emit((l) => l.runProc(event.runId, event.proc));
        return;
      }
      case 'live': {
        const entry = this.live(event.runId);
        if (!entry) return;
        entry.series.addLive(event.update);
        this.emit((l) => l.runLive?.(event.runId, event.update));
        return;
      }
      case 'ended':
        this.end(event.run, event.summary);
        return;
      case 'data':
        this.data.set(`${event.status.lab}:${event.status.unit}:${event.status.sizeBytes}`, event.status);
        this.emit((l) => l.dataProgress(event.status));
        return;
      default: {
        const never: never = event;
        throw new Error(`unhandled run event ${JSON.stringify(never)}`);
      }
    }
  }

  /** Ends a run once (later reports of the same end are ignored). */
  end(run: RunState, summary: RunSummary): void {
    const entry = this.live(run.id);
    if (!entry) return;
    if (summary.outcome === 'completed' || summary.outcome === 'data-lost') this.estimates.learn(entry.state, summary.durationMs);
    entry.state = { ...run, status: summary.outcome, summary, pid: null };
    const state = entry.state;
    this.emit((l) => l.runEnded(state, summary));
    for (const [id, job] of this.jobs) if (job.runIds.every((r) => this.book.runs.get(r)?.state.summary !== null)) this.jobs.delete(id);
    this.book.forgetOld();
    this.queueChanged();
  }

  /** A run still going (queued, preparing or running) that this server knows. */
  live(runId: string): RunEntry | undefined {
    const entry = this.book.runs.get(runId);
    return entry && entry.state.summary === null ? entry : undefined;
  }

  /** The job a run belongs to. */
  jobOf(runId: string): JobInfo | undefined {
    for (const job of this.jobs.values()) if (job.runIds.includes(runId)) return job;
    return undefined;
  }

  /** The workers' slots changed: the waits are estimated again. */
  setSlots(slots: number): void {
    const n = Math.max(1, slots);
    if (n === this.slots) return;
    this.slots = n;
    this.queueChanged();
  }

  /**
   * Waiting runs in the order workers will take them (BullMQ: lower priority number first, then
   * oldest), with waits estimated over every worker slot listed (none listed: as if one).
   */
  queueOrder(): QueueEntry[] {
    const states = [...this.book.runs.values()].map((e) => e.state);
    const waiting: Job[] = [...this.jobs.values()]
      .filter((j) => j.runIds.some((id) => this.book.runs.get(id)?.state.status === 'queued'))
      .sort((a, b) => a.priority - b.priority || this.queuedAt(a) - this.queuedAt(b))
      .map((j) => ({ owner: '', runIds: j.runIds }));
    return waitingOrder(
      states.filter((s) => s.status === 'running' || s.status === 'preparing'),
      waiting,
      this.book.runs,
      this.estimates,
      {
        slots: this.slots,
        jobOf: (run) => this.jobOf(run.id)?.id ?? run.id,
        remainingMs: (run) => this.book.remainingMs(run),
      },
    );
  }

  queueChanged(): void {
    const order = this.queueOrder();
    this.emit((l) => l.queueChanged(order));
  }

  private queuedAt(job: JobInfo): number {
    return this.book.runs.get(job.runIds[0])?.state.queuedAt ?? 0;
  }
}
