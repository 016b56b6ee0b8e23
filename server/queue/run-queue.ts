/**
 * The experiment queue: experiments of any lab, their runs, and the one-at-a-time queue that
 * executes them through the runner. Built at the entry point and handed to the hub; it knows
 * nothing about sockets or disks and reports what happens to its listeners (the hub broadcasts,
 * the history records).
 */
import { randomBytes } from 'node:crypto';
import { describeZodError } from '../../lib/common-params';
import type { DataStatus, Experiment, ProcSample, RunState, RunSummary, Sample } from '../../lib/protocol';
import { tailAfter } from '../../lib/series';
import { libraryVersion } from '../labs/catalog';
import { findStrategy, requireLab } from '../labs/registry';
import { SHUTDOWN_STOP, startRun, USER_STOP, type RunHandle, type StopReason } from '../runner/runner';
import { RunRecorder } from '../runner/summary';
import type { Covered } from '../hub/snapshot';
import { RunSeries } from './run-series';

export interface QueueListener {
  experimentCreated(experiment: Experiment): void;
  runQueued(run: RunState): void;
  runUpdated(run: RunState): void;
  runSample(runId: string, sample: Sample): void;
  runProc(runId: string, proc: ProcSample): void;
  runEnded(run: RunState, summary: RunSummary): void;
  dataProgress(status: DataStatus): void;
}

interface RunEntry {
  state: RunState;
  series: RunSeries;
  handle: RunHandle | null;
}

/** Runs kept in memory (with their samples, for late joiners); older ones are forgotten. */
const MAX_RUNS = 30;
/** Runs waiting to start; past this an experiment is refused, so a flood of requests can't grow memory or disk. */
export const MAX_QUEUED_RUNS = 64;

const newId = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

export class RunQueue {
  private readonly experiments = new Map<string, Experiment>();
  private readonly runs = new Map<string, RunEntry>();
  private readonly data = new Map<number, DataStatus>();
  private readonly listeners: QueueListener[] = [];
  /** Jobs waiting: each is the runs that start together (one run, or a whole parallel experiment). */
  private readonly jobs: string[][] = [];
  private busy = false;
  private closing = false;

  /** Adds a listener; events reach listeners in the order they subscribed. */
  subscribe(listener: QueueListener): void {
    this.listeners.push(listener);
  }

  /** Validates the lab, strategy ids and params against the lab and this machine, then queues the runs. */
  startExperiment(labId: string, strategies: string[], rawParams: Record<string, unknown>, parallel: boolean): Experiment {
    if (this.closing) throw new RangeError('the server is shutting down: no new experiments');
    const lab = requireLab(labId);
    const waiting = [...this.runs.values()].filter((e) => e.state.status === 'queued').length;
    if (waiting + strategies.length > MAX_QUEUED_RUNS) {
      throw new RangeError(`queue is full: ${waiting} runs waiting, at most ${MAX_QUEUED_RUNS}; stop some or wait`);
    }
    const unknown = strategies.filter((s) => !findStrategy(labId, s));
    if (unknown.length) throw new RangeError(`strategies: unknown strategy "${unknown.join(', ')}"`);
    if (new Set(strategies).size !== strategies.length) throw new RangeError('strategies: each strategy may appear once');
    const parsed = lab.schema.params.strict().safeParse(rawParams);
    if (!parsed.success) throw new RangeError(describeZodError(parsed.error));
    const params = parsed.data as RunState['params'];
    lab.checkLimits(params);
    const experiment: Experiment = { lab: labId, id: newId('e'), strategies, params, parallel, createdAt: Date.now(), runIds: strategies.map(() => newId('r')) };
    this.experiments.set(experiment.id, experiment);
    this.emit((l) => l.experimentCreated(experiment));
    experiment.runIds.forEach((id, i) => {
      const state: RunState = { lab: labId, id, experimentId: experiment.id, strategy: strategies[i], params, status: 'queued', queuedAt: Date.now(), startedAt: null, pid: null, fileBytes: null, summary: null };
      this.runs.set(id, { state, series: new RunSeries(), handle: null });
      this.emit((l) => l.runQueued(state));
    });
    if (parallel) this.jobs.push([...experiment.runIds]);
    else for (const id of experiment.runIds) this.jobs.push([id]);
    this.forgetOldRuns();
    void this.pump();
    return experiment;
  }

  /** Stops one run: a queued run ends at once, a running one is terminated. */
  stopRun(runId: string, why: StopReason = USER_STOP): boolean {
    const entry = this.runs.get(runId);
    if (!entry) return false;
    if (entry.handle) entry.handle.stop(why);
    else if (entry.state.status === 'queued' || entry.state.status === 'preparing') {
      this.endUnstarted(entry, why.outcome === 'stopped' ? `${why.reason} before it started` : why.reason, why.outcome);
    }
    return true;
  }

  stopExperiment(experimentId: string): boolean {
    const experiment = this.experiments.get(experimentId);
    if (!experiment) return false;
    for (const id of experiment.runIds) this.stopRun(id);
    return true;
  }

  stopAll(why: StopReason = USER_STOP): void {
    for (const id of [...this.runs.keys()]) this.stopRun(id, why);
  }

  /**
   * Everything a joining page needs (series whole: the hub thins them for the snapshot), and the
   * `at` of the last sample and reading of each run, so later ones can follow it.
   */
  snapshot() {
    const entries = [...this.runs.values()];
    const covered: Covered = new Map(entries.map((e) => [e.state.id, e.series.covered()]));
    return {
      experiments: [...this.experiments.values()],
      runs: entries.map((e) => e.state),
      samples: new Map(entries.map((e) => [e.state.id, e.series.samples])),
      proc: new Map(entries.map((e) => [e.state.id, e.series.proc])),
      data: [...this.data.values()],
      covered,
    };
  }

  /** A run's samples and /proc readings taken after the given times (what a snapshot lacks). */
  seriesAfter(runId: string, sampleAt: number, procAt: number): { samples: Sample[]; proc: ProcSample[] } {
    const e = this.runs.get(runId);
    if (!e) return { samples: [], proc: [] };
    return { samples: tailAfter(e.series.samples, sampleAt), proc: tailAfter(e.series.proc, procAt) };
  }

  /** Makes what a lab's runs with these params need ahead of time (the server does it for the default data file). */
  async prepare(labId: string, params: Record<string, unknown>): Promise<void> {
    await requireLab(labId).prepare(params, (s) => this.reportData(s));
  }

  /** Ends every run as interrupted by the shutdown and waits for them all (server shutdown). */
  async close(): Promise<void> {
    this.closing = true;
    this.jobs.length = 0;
    this.stopAll(SHUTDOWN_STOP);
    await Promise.all([...this.runs.values()].map((e) => e.handle?.done));
  }

  private reportData(status: DataStatus): void {
    this.data.set(status.sizeBytes, status);
    this.emit((l) => l.dataProgress(status));
  }

  private async pump(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      for (let job = this.jobs.shift(); job; job = this.jobs.shift()) {
        const entries = job.map((id) => this.runs.get(id)).filter((e): e is RunEntry => e?.state.status === 'queued');
        await Promise.all(entries.map((e) => this.execute(e)));
      }
    } finally {
      this.busy = false;
    }
  }

  private async execute(entry: RunEntry): Promise<void> {
    const { state } = entry;
    const lab = requireLab(state.lab);
    this.update(entry, { status: 'preparing' });
    let prepared;
    try {
      prepared = await lab.prepare(state.params, (s) => this.reportData(s));
    } catch (err) {
      if (entry.state.status !== 'preparing') return; // stopped meanwhile: it has ended already
      return this.endUnstarted(entry, err instanceof Error ? err.message : String(err), 'crashed');
    }
    if (entry.state.status !== 'preparing') return; // stopped while it was being prepared
    this.update(entry, { fileBytes: prepared.total });
    const handle = startRun({
      lab: state.lab,
      runId: state.id,
      strategy: state.strategy,
      params: state.params,
      prepared,
      onStarted: ({ pid, startedAt }) => this.update(entry, { status: 'running', pid, startedAt }),
      onSample: (sample) => {
        entry.series.addSample(sample);
        this.emit((l) => l.runSample(state.id, sample));
      },
      onProc: (proc) => {
        entry.series.addProc(proc);
        this.emit((l) => l.runProc(state.id, proc));
      },
    });
    entry.handle = handle;
    const summary = await handle.done;
    entry.handle = null;
    this.finish(entry, summary);
  }

  private endUnstarted(entry: RunEntry, reason: string, outcome: 'stopped' | 'crashed' | 'interrupted' = 'stopped'): void {
    const { state } = entry;
    const lab = requireLab(state.lab);
    const library = findStrategy(state.lab, state.strategy)!.library;
    const recorder = new RunRecorder(lab.newRecorder({ scenario: {}, total: state.fileBytes ?? lab.expectedTotal(state.params) }, state.params));
    const summary = recorder.summarize({
      lab: state.lab,
      runId: state.id,
      strategy: state.strategy,
      outcome,
      reason,
      durationMs: 0,
      params: state.params,
      library: { name: library, version: libraryVersion(library) },
      startedAt: Date.now(),
    });
    this.finish(entry, summary);
  }

  private finish(entry: RunEntry, summary: RunSummary): void {
    entry.state = { ...entry.state, status: summary.outcome, summary, fileBytes: entry.state.fileBytes, pid: null };
    const state = entry.state;
    this.emit((l) => l.runEnded(state, summary));
  }

  private update(entry: RunEntry, patch: Partial<RunState>): void {
    entry.state = { ...entry.state, ...patch } as RunState;
    const state = entry.state;
    this.emit((l) => l.runUpdated(state));
  }

  private emit(event: (l: QueueListener) => void): void {
    for (const l of this.listeners) event(l);
  }

  private forgetOldRuns(): void {
    const ended = [...this.runs.values()].filter((e) => e.state.summary !== null);
    for (const e of ended.slice(0, Math.max(0, this.runs.size - MAX_RUNS))) {
      this.runs.delete(e.state.id);
      const exp = this.experiments.get(e.state.experimentId);
      if (exp && exp.runIds.every((id) => !this.runs.has(id))) this.experiments.delete(exp.id);
    }
  }
}
