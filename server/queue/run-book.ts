/**
 * What the queue remembers: the experiments and runs still in memory (the newest, with their
 * series, for pages that join late), who owns each, and forgetting the oldest.
 */
import type { Experiment, Owner, ProcSample, RunState, Sample } from '../../lib/protocol';
import { tailAfter } from '../../lib/series';
import type { RunHandle } from '../runner/runner';
import type { Covered } from '../hub/snapshot';
import { RunSeries } from './run-series';
import { runProgress } from '../../lib/readouts/progress';
import { labSchema } from '../../labs/schemas';

export interface RunEntry {
  state: RunState;
  series: RunSeries;
  handle: RunHandle | null;
}

/** Runs kept in memory (with their samples, for late joiners); older ones are forgotten. */
const MAX_RUNS = 30;

export class RunBook {
  readonly experiments = new Map<string, Experiment>();
  readonly runs = new Map<string, RunEntry>();

  add(experiment: Experiment, states: RunState[]): void {
    this.experiments.set(experiment.id, experiment);
    for (const state of states) this.runs.set(state.id, { state, series: new RunSeries(), handle: null });
  }

  /** The owner of a run (from its experiment); null for the server's own runs. */
  ownerOf(entry: RunEntry | undefined): Owner | null {
    return entry ? (this.experiments.get(entry.state.experimentId)?.owner ?? null) : null;
  }

  /**
   * A running run's time left at its recent pace: the same figure (and function) as its card's ETA,
   * from the same samples; null when its lab has no progress reading or the pace is not known yet.
   */
  remainingMs(run: RunState): number | null {
    const progress = labSchema(run.lab)?.progress;
    const samples = this.runs.get(run.id)?.series.samples;
    if (!progress || !samples || !run.preparedUnits) return null;
    return runProgress(samples, run.preparedUnits, progress.done).etaMs;
  }

  /** A run's samples and /proc readings taken after the given times (what a snapshot lacks). */
  seriesAfter(runId: string, sampleAt: number, procAt: number): { samples: Sample[]; proc: ProcSample[] } {
    const e = this.runs.get(runId);
    if (!e) return { samples: [], proc: [] };
    return { samples: tailAfter(e.series.samples, sampleAt), proc: tailAfter(e.series.proc, procAt) };
  }

  /** Experiments, runs and their whole series, with what each series covers (the hub thins them). */
  contents() {
    const entries = [...this.runs.values()];
    const covered: Covered = new Map(entries.map((e) => [e.state.id, e.series.covered()]));
    return {
      experiments: [...this.experiments.values()],
      runs: entries.map((e) => e.state),
      samples: new Map(entries.map((e) => [e.state.id, e.series.samples])),
      proc: new Map(entries.map((e) => [e.state.id, e.series.proc])),
      live: Object.fromEntries(entries.filter((e) => Object.keys(e.series.live).length > 0).map((e) => [e.state.id, e.series.live])),
      covered,
    };
  }

  /** Forgets the oldest ended runs past MAX_RUNS, and experiments left with none. */
  forgetOld(): void {
    const ended = [...this.runs.values()].filter((e) => e.state.summary !== null);
    for (const e of ended.slice(0, Math.max(0, this.runs.size - MAX_RUNS))) {
      this.runs.delete(e.state.id);
      const exp = this.experiments.get(e.state.experimentId);
      if (exp && exp.runIds.every((id) => !this.runs.has(id))) this.experiments.delete(exp.id);
    }
  }
}
