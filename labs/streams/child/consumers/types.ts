/**
 * What every consumer of the streams lab is (sleep, http, postgres; #30): the work one item costs,
 * its own live readings, a check when the strategy is done, and an end that takes every process
 * and connection it opened along. consumer.ts counts the calls around `work`.
 */

/** The consumer's part of a sample: zeros for a consumer that has no such thing. */
export interface ConsumerReadings {
  /** Calls sent to the API and not yet answered. */
  apiInFlight: number;
  /** Calls waiting for one of the API pool's connections. */
  apiQueued: number;
  /** API calls answered with an error (or that failed). */
  apiErrors: number;
  /** Rows inserted (committed) so far. */
  dbRows: number;
}

export const NO_CONSUMER_READINGS: ConsumerReadings = { apiInFlight: 0, apiQueued: 0, apiErrors: 0, dbRows: 0 };

/** What the consumer found when the strategy was done: its figures, and what it lost, if anything. */
export interface ConsumerReport {
  /** Added to the run's extras (e.g. apiCalls, apiP50Ms, apiP99Ms, dbRowsChecked). */
  extras: Record<string, number>;
  /** Why the run lost data by the consumer's own count (the API saw fewer calls, the table has fewer rows), or null. */
  lost: string | null;
  /** Something to tell beside the figures (errors answered), or null. */
  note: string | null;
}

export interface Consumer {
  /** One item's work; never rejects (an API error is counted, as a job that logs and moves on would). */
  work(item: Buffer | string): Promise<void>;
  readings(): ConsumerReadings;
  /** After the strategy finished: checks every item arrived once (the API's count, the table's rows and checksum). */
  finish(processed: { calls: number; bytes: number; records: number }): Promise<ConsumerReport>;
  /** Ends what it started (processes, pools); safe to call twice. */
  close(): Promise<void>;
  /** Kills its processes at once, for a run process that exits abruptly. */
  killNow(): void;
}

/** The knobs every consumer gets (the scenario's config). */
export interface ConsumerSettings {
  delayMs: number;
  cpuUs: number;
  /** The Concurrency knob: how many calls a bounded strategy overlaps (a consumer's pool is sized by it). */
  concurrency: number;
}

/** A consumer kind's module: checks its own part of the child's config, and starts one. */
export interface ConsumerModule<C> {
  parse(config: Record<string, unknown>): C;
  start(settings: ConsumerSettings, config: C): Promise<Consumer>;
}
