/** What the queue tells its listeners, and who may ask it for what. */
import type { DataStatus, Experiment, LiveUpdate, Owner, ProcSample, QueueBackend, QueueEntry, RunState, RunSummary, Sample } from '../../lib/protocol';

export interface QueueListener {
  experimentCreated(experiment: Experiment): void;
  /** The waiting runs changed (order, length or estimates). */
  queueChanged(queue: QueueEntry[]): void;
  runQueued(run: RunState): void;
  runUpdated(run: RunState): void;
  runSample(runId: string, sample: Sample): void;
  runProc(runId: string, proc: ProcSample): void;
  /** A running run's live extras changed (only labs whose scenario has them). */
  runLive?(runId: string, update: LiveUpdate): void;
  /** A profiled run's CPU profile, once, before its end (only the history stores it: it is too big for pages' sockets). */
  runProfile?(runId: string, profile: unknown): void;
  /** A file for a run's record (its .heapprofile, a compressed heap snapshot), before its end; only the history stores it. */
  runFile?(runId: string, name: string, data: Buffer): void;
  runEnded(run: RunState, summary: RunSummary): void;
  dataProgress(status: DataStatus): void;
  /** The queue's back end (Redis) became unreachable or came back; the in-process queue never calls it. */
  backendChanged?(backend: QueueBackend): void;
}

/** Who asks: the owner of a browser connection (operator: holds STREAM_LAB_OPERATOR_TOKEN). */
export interface Requester {
  owner: Owner;
  operator: boolean;
}
/** The server itself (shutdown, tests, the CLI): may do anything. */
export const SYSTEM: Requester = { owner: { id: 'system', name: null }, operator: true };

export type StopAnswer = 'stopped' | 'not-found' | 'forbidden';
