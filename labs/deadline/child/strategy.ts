import type { StrategyBase } from '../../types';
import type { LatenessRecorder } from './lateness';
import type { Role } from '../shared/roles';

/** What the service counts as it goes (read by the scenario for its figures). */
export interface ServiceCounters {
  objectsFetched: number;
  objectsWorked: number;
  /** How long objects' work took where it ran (ms, the first WORK_TIMES_MAX of them): the run's own cost per object. */
  workTimesMs: number[];
}

/** Work times kept per run (enough for a median; bounded whatever the schedule). */
export const WORK_TIMES_MAX = 5000;

/** Counts one object's work and keeps how long it took. */
export function countWork(counters: ServiceCounters, ms: number): void {
  counters.objectsWorked += 1;
  if (counters.workTimesMs.length < WORK_TIMES_MAX) counters.workTimesMs.push(ms);
}

/** What the scenario hands a strategy: where to listen and fetch, what one request does, the strategies' knobs. */
export interface DeadlineContext {
  /** A free port on 127.0.0.1 for the service. */
  port: number;
  /** The mock object store, e.g. http://127.0.0.1:40123. */
  storeOrigin: string;
  /** K: objects per request. */
  objects: number;
  /** Rounds of JSON work per object (calibrated to the chosen ms on this machine; see work.ts). */
  rounds: number;
  deadlineMs: number;
  /** limited-concurrency: GETs (with their work) at once. */
  concurrency: number;
  /** worker-pool: threads. */
  workers: number;
  /** shed-load: refuse while the event loop is this late (ms). */
  shedLagMs: number;
  /** Absolute path of the compiled piscina task (work-thread.ts). */
  entries: { workThread: string };
  /** Where the service's deadline timers report their lateness. */
  lateness: LatenessRecorder;
  counters: ServiceCounters;
}

/** The service a strategy started: its port, and how to stop it with everything it opened. */
export interface ServiceUnderTest {
  port: number;
  close(): Promise<void>;
}

/** One way to serve `GET /fetch?id=N` (K GETs from the store, CPU work per object, a deadline). Every file in strategies/ exports one. */
export interface Strategy extends StrategyBase {
  /** What it is there to show (shared/roles.ts): every strategy of this lab declares one. */
  role: Role;
  library: 'undici' | 'p-limit' | 'piscina';
  mode: null;
  /** Does the CPU work leave the main thread (the timers' thread)? */
  offloadsWork: boolean;
  /** Refuses requests when overloaded (503). */
  refuses: boolean;
  expects: { outcome: 'completed'; timersOnTimeInSpike: boolean };
  run(ctx: DeadlineContext): Promise<ServiceUnderTest>;
}
