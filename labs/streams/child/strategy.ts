import type { Readable } from 'node:stream';
import type { StrategyBase } from '../../types';

/** What the child hands a strategy: the source stream, the consumer and how many calls it may overlap. */
export interface RunContext {
  /**
   * `fs.createReadStream(file, { highWaterMark })`, not yet touched; with the records option, an
   * object-mode stream of the file's CSV lines (strings) instead.
   */
  stream: Readable;
  /**
   * The consumer: the write-up's slow one waits `delayMs` and burns `cpuUs` of CPU (the default
   * `sleep`), the `http` one calls a mock API, the `postgres` one inserts the chunk's rows. It
   * counts the item as processed and returns `item.toString()`, like the article's
   * `concatMap(async (data) => { await sleep(10); ... })`. It never rejects: a failed API call is
   * counted as an error, as a job that logs and moves on would.
   */
  consume(item: Buffer | string): Promise<string>;
  /** Calls to keep in flight (the Concurrency knob, 1–64): for a strategy whose `concurrency` is 'bounded'. */
  concurrency: number;
}

/**
 * One streaming strategy. Every file in strategies/ exports one `strategy` of this shape. An
 * article figure is for a 150 MB file, 10 ms per chunk, Node 20.11.
 */
export interface Strategy extends StrategyBase {
  /** npm package name whose version is reported, or 'node' for built-ins. */
  library: 'rxjs' | 'ix' | 'iterator-helper' | 'node' | 'effect' | 'p-map' | 'streaming-iterables' | 'streamx' | 'highland';
  mode: 'push' | 'pull';
  /**
   * How many consumer calls it overlaps: 'sequential' one at a time whatever the knob, 'bounded'
   * up to the Concurrency knob (`ctx.concurrency`), 'unbounded' one per item read, no limit.
   */
  concurrency: 'sequential' | 'bounded' | 'unbounded';
  expects: {
    /** 'data-lost' for the fromEvent strategies, whose takeUntil('end') drops queued chunks. */
    outcome: 'completed' | 'data-lost';
    /** Starts a consumer call per chunk without waiting (peakInFlight > 1) at the default concurrency of 1. */
    concurrentConsumers: boolean;
    /** Checked to keep arrayBuffers under 4 MiB on a 32 MiB file in retained mode. */
    flatMemory: boolean;
  };
  run(ctx: RunContext): Promise<void>;
}
