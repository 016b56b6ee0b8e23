/**
 * Records every run the queue executes: a QueueListener (subscribed by the entry point) that turns
 * queue events into store calls. Each call is cheap and synchronous: the store buffers and writes
 * later, so the sample path of a live run never waits for the disk.
 *
 * A run is recorded from the moment it leaves the queue. Runs stopped while still queued measured
 * nothing and are never written, so a flood of start + stop cannot push real runs out through
 * retention.
 */
import type { QueueListener } from '../queue/run-queue';
import type { Experiment, RunState } from '../../lib/protocol';
import { RECORD_FORMAT } from '../../lib/history';
import { declaredVersion } from '../../labs/catalog';
import { findStrategy } from '../../labs/registry';
import type { RunStore } from './run-store';
import { resolveRuntime } from '../runtimes/store';

/** The Node a run asked for, as the store records it before the run's process says (its summary has the measured one). */
function runtimeVersionOf(spec: string | null | undefined): string {
  try {
    return resolveRuntime(spec).version;
  } catch {
    return spec ?? process.versions.node;
  }
}

/** Experiments remembered until their runs start (the lab's queue holds at most 64 runs). */
const MAX_EXPERIMENTS = 128;

/** A QueueListener that writes each run to the store. */
export function createRunRecorder(store: RunStore): QueueListener {
  const experiments = new Map<string, Experiment>();
  const begun = new Set<string>();
  const begin = (run: RunState) => {
    begun.add(run.id);
    const experiment = experiments.get(run.experimentId);
    // The lab only queues known strategies; the fallback keeps a surprise from losing the record.
    const library = findStrategy(run.lab, run.strategy)?.library ?? null;
    store.begin({
      format: RECORD_FORMAT,
      run,
      experiment: experiment ? { id: experiment.id, strategies: experiment.strategies, parallel: experiment.parallel, owner: experiment.owner } : null,
      // The runtime the run asked for; without one, the Node of whoever ran it (a worker's, server/scale/, or this server's).
      versions: {
        node: run.params.node ? runtimeVersionOf(run.params.node) : (run.worker?.node ?? runtimeVersionOf(null)),
        library: library ? { name: library, version: declaredVersion(library) } : { name: 'unknown', version: 'unknown' },
      },
      recordedAt: Date.now(),
      endedAt: null,
      observed: null,
      notes: [],
    });
  };
  return {
    experimentCreated(experiment) {
      experiments.set(experiment.id, experiment);
      if (experiments.size > MAX_EXPERIMENTS) experiments.delete(experiments.keys().next().value!);
    },
    runQueued() {},
    queueChanged() {},
    runUpdated(run) {
      if (begun.has(run.id)) store.update(run);
      else if (run.status !== 'queued') begin(run);
    },
    runSample: (runId, sample) => store.appendSample(runId, sample),
    runProc: (runId, proc) => store.appendProc(runId, proc),
    runProfile: (runId, profile) => store.saveProfile(runId, profile),
    runFile: (runId, name, data) => store.saveFile(runId, name, data),
    runEnded(run) {
      // Ended straight from the queue (stopped, or refused at shutdown): nothing to keep.
      if (!begun.delete(run.id)) return;
      // Stopped while its data file was being made: it measured nothing either.
      if (run.startedAt === null && (run.status === 'stopped' || run.status === 'interrupted')) {
        void store.discard(run.id);
        return;
      }
      // The store reports its own failures; nothing to catch here.
      void store.end(run, Date.now());
    },
    dataProgress() {},
  };
}
