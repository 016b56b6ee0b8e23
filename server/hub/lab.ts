/**
 * The lab: experiments, their runs and the queue that executes them through the runner.
 * It knows nothing about sockets; it reports what happens to a LabListener (the hub broadcasts).
 */
import { randomBytes } from 'node:crypto';
import { MIB, type RunParams } from '../../lib/params';
import type { DataStatus, Experiment, ProcSample, RunState, RunSummary, Sample } from '../../lib/protocol';
import { ensureDataFile, checkSize } from '../data/data-files';
import { SHUTDOWN_STOP, startRun, USER_STOP, type RunHandle, type StopReason } from '../runner/runner';
import { RunRecorder } from '../runner/summary';
import { libraryVersion } from '../strategies/catalog';
import { findStrategy } from '../strategies/index';
import { thinForSnapshot, type Covered } from './snapshot';

export interface LabListener {
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
  samples: Sample[];
  proc: ProcSample[];
  handle: RunHandle | null;
}

/** Runs kept in memory (with their samples, for late joiners); older ones are forgotten. */
const MAX_RUNS = 30;
/** Runs waiting to start; past this an experiment is refused, so a flood of requests can't grow memory or disk. */
export const MAX_QUEUED_RUNS = 64;
/** Samples kept per run; past this the series is thinned by half, keeping its shape. */
const MAX_SAMPLES_PER_RUN = 20_000;

const newId = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

function thinned<T>(series: T[], max: number): T[] {
  return series.length <= max ? series : series.filter((_, i) => i % 2 === 0 || i === series.length - 1);
}

/** The items of a time-ordered series taken after `at` (scans from the end: the tail is short). */
function tailAfter<T extends { at: number }>(series: readonly T[], at: number): T[] {
  let i = series.length;
  while (i > 0 && series[i - 1].at > at) i -= 1;
  return series.slice(i);
}

export class Lab {
  private readonly experiments = new Map<string, Experiment>();
  private readonly runs = new Map<string, RunEntry>();
  private readonly data = new Map<number, DataStatus>();
  /** Jobs waiting: each is the runs that start together (one run, or a whole parallel experiment). */
  private readonly queue: string[][] = [];
  private busy = false;
  private closing = false;

  constructor(
    private readonly listener: LabListener,
    private readonly maxSizeMb: number,
  ) {}

  /** Validates strategy ids and size against this server's limits, then queues the runs. */
  startExperiment(strategies: string[], params: RunParams, parallel: boolean): Experiment {
    if (this.closing) throw new RangeError('the server is shutting down: no new experiments');
    const waiting = [...this.runs.values()].filter((e) => e.state.status === 'queued').length;
    if (waiting + strategies.length > MAX_QUEUED_RUNS) {
      throw new RangeError(`queue is full: ${waiting} runs waiting, at most ${MAX_QUEUED_RUNS}; stop some or wait`);
    }
    const unknown = strategies.filter((s) => !findStrategy(s));
    if (unknown.length) throw new RangeError(`strategies: unknown strategy "${unknown.join(', ')}"`);
    if (new Set(strategies).size !== strategies.length) throw new RangeError('strategies: each strategy may appear once');
    checkSize(params.sizeMb, this.maxSizeMb);
    const experiment: Experiment = {
      id: newId('e'),
      strategies,
      params,
      parallel,
      createdAt: Date.now(),
      runIds: strategies.map(() => newId('r')),
    };
    this.experiments.set(experiment.id, experiment);
    this.listener.experimentCreated(experiment);
    experiment.runIds.forEach((id, i) => {
      const state: RunState = {
        id,
        experimentId: experiment.id,
        strategy: strategies[i],
        params,
        status: 'queued',
        queuedAt: Date.now(),
        startedAt: null,
        pid: null,
        fileBytes: null,
        summary: null,
      };
      this.runs.set(id, { state, samples: [], proc: [], handle: null });
      this.listener.runQueued(state);
    });
    if (parallel) this.queue.push([...experiment.runIds]);
    else for (const id of experiment.runIds) this.queue.push([id]);
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
   * Everything a joining page needs, each run's series thinned so the whole stays bounded, and
   * the `at` of the last sample and reading each series had, so later ones can follow it.
   */
  snapshot() {
    const entries = [...this.runs.values()];
    const covered: Covered = new Map();
    for (const e of entries) covered.set(e.state.id, { sampleAt: e.samples.at(-1)?.at ?? -Infinity, procAt: e.proc.at(-1)?.at ?? -Infinity });
    return {
      experiments: [...this.experiments.values()],
      runs: entries.map((e) => e.state),
      samples: thinForSnapshot(new Map(entries.map((e) => [e.state.id, e.samples]))),
      proc: thinForSnapshot(new Map(entries.map((e) => [e.state.id, e.proc]))),
      data: [...this.data.values()],
      covered,
    };
  }

  /** A run's samples and /proc readings taken after the given times (what a snapshot lacks). */
  seriesAfter(runId: string, sampleAt: number, procAt: number): { samples: Sample[]; proc: ProcSample[] } {
    const e = this.runs.get(runId);
    if (!e) return { samples: [], proc: [] };
    return { samples: tailAfter(e.samples, sampleAt), proc: tailAfter(e.proc, procAt) };
  }

  /** Makes the data file for a size ahead of time (the server does this for the default size). */
  async prepareData(sizeMb: number, seed: number): Promise<{ path: string; bytes: number }> {
    const sizeBytes = Math.round(sizeMb * MIB);
    const report = (status: DataStatus) => {
      this.data.set(sizeBytes, status);
      this.listener.dataProgress(status);
    };
    try {
      const file = await ensureDataFile({
        sizeMb,
        seed,
        onProgress: (writtenBytes) => report({ sizeBytes, writtenBytes, state: 'generating', message: null }),
      });
      report({ sizeBytes, writtenBytes: file.bytes, state: 'ready', message: null });
      return file;
    } catch (err) {
      report({ sizeBytes, writtenBytes: 0, state: 'failed', message: err instanceof Error ? err.message : String(err) });
      throw err;
    }
  }

  /** Ends every run as interrupted by the shutdown and waits for them all (server shutdown). */
  async close(): Promise<void> {
    this.closing = true;
    this.queue.length = 0;
    this.stopAll(SHUTDOWN_STOP);
    await Promise.all([...this.runs.values()].map((e) => e.handle?.done));
  }

  private async pump(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      for (let job = this.queue.shift(); job; job = this.queue.shift()) {
        const entries = job.map((id) => this.runs.get(id)).filter((e): e is RunEntry => e?.state.status === 'queued');
        await Promise.all(entries.map((e) => this.execute(e)));
      }
    } finally {
      this.busy = false;
    }
  }

  private async execute(entry: RunEntry): Promise<void> {
    const { state } = entry;
    this.update(entry, { status: 'preparing' });
    let file: { path: string; bytes: number };
    try {
      file = await this.prepareData(state.params.sizeMb, state.params.seed);
    } catch (err) {
      if (entry.state.status !== 'preparing') return; // stopped meanwhile: it has ended already
      return this.endUnstarted(entry, `could not make the data file: ${err instanceof Error ? err.message : String(err)}`, 'crashed');
    }
    if (entry.state.status !== 'preparing') return; // stopped while the file was being made
    this.update(entry, { fileBytes: file.bytes });
    const handle = startRun({
      runId: state.id,
      strategy: state.strategy,
      params: state.params,
      file,
      onStarted: ({ pid, startedAt }) => this.update(entry, { status: 'running', pid, startedAt }),
      onSample: (sample) => {
        entry.samples.push(sample);
        entry.samples = thinned(entry.samples, MAX_SAMPLES_PER_RUN);
        this.listener.runSample(state.id, sample);
      },
      onProc: (proc) => {
        entry.proc.push(proc);
        entry.proc = thinned(entry.proc, MAX_SAMPLES_PER_RUN);
        this.listener.runProc(state.id, proc);
      },
    });
    entry.handle = handle;
    const summary = await handle.done;
    entry.handle = null;
    this.finish(entry, summary);
  }

  private endUnstarted(entry: RunEntry, reason: string, outcome: 'stopped' | 'crashed' | 'interrupted' = 'stopped'): void {
    const { state } = entry;
    const summary = new RunRecorder().summarize({
      runId: state.id,
      strategy: state.strategy,
      outcome,
      reason,
      fileBytes: state.fileBytes ?? Math.round(state.params.sizeMb * MIB),
      durationMs: 0,
      params: state.params,
      library: { name: findStrategy(state.strategy)!.library, version: libraryVersion(findStrategy(state.strategy)!.library) },
      startedAt: Date.now(),
    });
    this.finish(entry, summary);
  }

  private finish(entry: RunEntry, summary: RunSummary): void {
    entry.state = { ...entry.state, status: summary.outcome, summary, fileBytes: summary.fileBytes, pid: null };
    this.listener.runEnded(entry.state, summary);
  }

  private update(entry: RunEntry, patch: Partial<RunState>): void {
    entry.state = { ...entry.state, ...patch };
    this.listener.runUpdated(entry.state);
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
