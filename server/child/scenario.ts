/**
 * What a lab's child-side scenario module exports as `scenario`: it checks its part of the config,
 * sets up what the strategy runs against (a file stream, a server…), runs the strategy, and hands
 * the sampler its readings. The bootstrap owns everything else (IPC, sampler, exit).
 */
import type { LiveUpdate } from '../../lib/protocol/common';

export interface ScenarioRun {
  /** The lab's readings right now (added to every sample). */
  readings(): Record<string, number>;
  /** Settles when the strategy has finished (or rejects with its error). */
  done: Promise<void>;
  /** Figures only known at the end (added to the done message). */
  extras(): Record<string, number>;
  /** What went wrong in the scenario's own words (added to a data-lost reason), or null. */
  note?(): string | null;
  /** Structured results for the lab's figures (checked by the lab's summary schema in the parent). */
  details?(): Record<string, unknown>;
  /**
   * What the page shows live beyond the numbers (e.g. the CPU lab's request bars) since the last
   * call, or null when nothing changed; asked a few times a second and once at the end.
   */
  live?(): LiveUpdate | null;
  /**
   * After `done` and the final sample: checks and closes that are not the strategy's work (the
   * streams lab's consumer counting what the API or table received). Its time is reported apart
   * (the done message's `checkMs`), so a run's duration and rates count the strategy's work alone.
   */
  finish?(): Promise<void>;
  /** Releases what the scenario opened (streams, sockets); called once, after `done` (and `finish`). */
  dispose(): void;
}

export interface Scenario<C = unknown, P = undefined> {
  /** Checks the lab's part of the config; throws a ConfigError naming the field. */
  parseConfig(value: Record<string, unknown>): C;
  /**
   * Sets up what the strategy runs against before the run's clock starts (the `ready` message):
   * forking a mock API or booting a database is not the strategy's work, and on a short run it
   * would swamp the figures. Runs after the strategy's module loaded, so a module that fails to
   * load starts nothing.
   */
  prepare?(config: C): Promise<P>;
  /** Starts the strategy (the module's exported `strategy`), with what `prepare` set up. */
  start(strategy: unknown, config: C, prepared: P): ScenarioRun;
}
