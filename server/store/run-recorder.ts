/**
 * Records every run the lab executes: a LabListener (passed to the hub as an observer) that turns
 * lab events into store calls. Each call is cheap and synchronous: the store buffers and writes
 * later, so the sample path of a live run never waits for the disk.
 */
import type { LabListener } from '../hub/lab';
import type { Experiment } from '../../lib/protocol';
import { RECORD_FORMAT } from '../../lib/history';
import { libraryVersion } from '../strategies/catalog';
import { findStrategy } from '../strategies/index';
import type { RunStore } from './run-store';

/** Experiments remembered until their runs are queued (they are queued right after creation). */
const MAX_EXPERIMENTS = 64;

/** A LabListener that writes each run to the store. */
export function createRunRecorder(store: RunStore): LabListener {
  const experiments = new Map<string, Experiment>();
  return {
    experimentCreated(experiment) {
      experiments.set(experiment.id, experiment);
      if (experiments.size > MAX_EXPERIMENTS) experiments.delete(experiments.keys().next().value!);
    },
    runQueued(run) {
      const experiment = experiments.get(run.experimentId);
      // The lab only queues known strategies; the fallback keeps a surprise from losing the record.
      const library = findStrategy(run.strategy)?.library ?? null;
      store.begin({
        format: RECORD_FORMAT,
        run,
        experiment: experiment ? { id: experiment.id, strategies: experiment.strategies, parallel: experiment.parallel } : null,
        versions: { node: process.versions.node, library: library ? { name: library, version: libraryVersion(library) } : { name: 'unknown', version: 'unknown' } },
        recordedAt: Date.now(),
        endedAt: null,
        observed: null,
        notes: [],
      });
    },
    runUpdated: (run) => store.update(run),
    runSample: (runId, sample) => store.appendSample(runId, sample),
    runProc: (runId, proc) => store.appendProc(runId, proc),
    runEnded(run) {
      // The store reports its own failures; nothing to catch here.
      void store.end(run, Date.now());
    },
    dataProgress() {},
  };
}
