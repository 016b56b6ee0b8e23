/**
 * What the hub, the server entry and shutdown need of an experiment queue, whichever back end
 * holds the jobs: `RunQueue` (in this process, the default) or `RedisQueue` (BullMQ on Redis, with
 * runs on worker processes: server/scale/). Both report to QueueListeners the same way.
 */
import type { DataStatus, Experiment, LiveState, Owner, ProcSample, QueueBackend, QueueEntry, RunState, Sample } from '../../lib/protocol';
import type { StopReason } from '../runner/runner';
import type { Covered } from '../hub/snapshot';
import type { QueueListener, Requester, StopAnswer } from './types';

export interface QueueSnapshot {
  experiments: Experiment[];
  runs: RunState[];
  samples: Map<string, readonly Sample[]>;
  proc: Map<string, readonly ProcSample[]>;
  /** Each run's live extras, folded (runs that have any). */
  live: Record<string, LiveState>;
  covered: Covered;
  queue: QueueEntry[];
  data: DataStatus[];
}

export interface ExperimentQueue {
  subscribe(listener: QueueListener): void;
  startExperiment(labId: string, strategies: string[], rawParams: Record<string, unknown>, parallel: boolean, by?: Requester): Experiment;
  stopRun(runId: string, why?: StopReason, by?: Requester): StopAnswer;
  /**
   * Takes a heap snapshot of a running run (who may stop it may snapshot it: the run stands still
   * meanwhile). Resolves with why not, or null once it was taken (its result goes out as the run's live update).
   */
  snapshotRun(runId: string, by?: Requester): Promise<string | null>;
  stopExperiment(experimentId: string, by?: Requester): StopAnswer;
  stopAll(why?: StopReason, by?: Requester): number;
  experimentOwner(experimentId: string): Owner | null;
  runOwner(runId: string): Owner | null;
  snapshot(): QueueSnapshot;
  seriesAfter(runId: string, sampleAt: number, procAt: number): { samples: Sample[]; proc: ProcSample[] };
  /** Where the jobs are held and whether that is reachable now. */
  backend(): QueueBackend;
  /** Makes what a lab's runs need ahead of time, where runs happen (a no-op where they don't). */
  prepare(labId: string, params: Record<string, unknown>): Promise<void>;
  /** Stops taking work and lets go of what it holds. */
  close(): Promise<void>;
}

/** The in-process queue's back end: always reachable. */
export const IN_PROCESS_BACKEND: QueueBackend = { kind: 'in-process', connected: true, message: null };
