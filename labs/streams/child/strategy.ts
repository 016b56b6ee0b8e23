import type { Readable } from 'node:stream';
import type { StrategyBase } from '../../types';

/** What the child hands a strategy: the file stream and the slow consumer. */
export interface RunContext {
  /** `fs.createReadStream(file, { highWaterMark })`, not yet touched. */
  stream: Readable;
  /**
   * The slow consumer: waits `delayMs`, burns `cpuUs` of CPU, counts the chunk as processed and
   * returns `chunk.toString()`, like the article's `concatMap(async (data) => { await sleep(10); ... })`.
   */
  consume(chunk: Buffer): Promise<string>;
}

/**
 * One streaming strategy. Every file in strategies/ exports one `strategy` of this shape. An
 * article figure is for a 150 MB file, 10 ms per chunk, Node 20.11.
 */
export interface Strategy extends StrategyBase {
  /** npm package name whose version is reported, or 'node' for built-ins. */
  library: 'rxjs' | 'ix' | 'iterator-helper' | 'node';
  mode: 'push' | 'pull';
  expects: {
    /** 'data-lost' for the fromEvent strategies, whose takeUntil('end') drops queued chunks. */
    outcome: 'completed' | 'data-lost';
    /** Starts a consumer call per chunk without waiting (peakInFlight > 1). */
    concurrentConsumers: boolean;
    /** Checked to keep arrayBuffers under 4 MiB on a 32 MiB file in retained mode. */
    flatMemory: boolean;
  };
  run(ctx: RunContext): Promise<void>;
}
