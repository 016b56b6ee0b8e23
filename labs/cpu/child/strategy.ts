import type { StrategyBase } from '../../types';
import type { Role } from '../shared/roles';

/** What the scenario hands a strategy: how many workers, and the compiled modules it may start. */
export interface CpuContext {
  /** Workers for the strategies that keep some (the form's value, or the server's cores). */
  workers: number;
  /** A free port on 127.0.0.1 for the strategy's server (cluster workers share it). */
  port: number;
  /** Absolute paths of the lab's child-side modules (compiled beside the scenario). */
  entries: { fibProcess: string; fibThread: string; clusterWorker: string };
}

/** The server a strategy started: where it listens, how to stop it, what it leaks. */
export interface ServerUnderTest {
  port: number;
  /** Ends every process and thread the strategy started. */
  close(): Promise<void>;
  /** 'message' listeners on the strategy's workers (the leaky pool's count grows per request). */
  messageListeners(): number;
}

/** One way to serve `GET /fib?n=N` (and `GET /ping`). Every file in strategies/ exports one. */
export interface Strategy extends StrategyBase {
  /** What it is there to show (shared/roles.ts): every strategy of this lab declares one. */
  role: Role;
  library: 'node' | 'piscina';
  mode: null;
  /** Runs fib in processes or threads other than the primary's main thread. */
  parallel: boolean;
  /** Starts a process or thread for every request (its spawn cost shows in spawnP50Ms). */
  spawnsPerRequest: boolean;
  expects: { outcome: 'completed'; leaksListeners: boolean };
  run(ctx: CpuContext): Promise<ServerUnderTest>;
}
