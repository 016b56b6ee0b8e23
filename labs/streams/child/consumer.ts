import { setTimeout as sleep } from 'node:timers/promises';

/** The consumer's counters, read by the scenario for every sample. */
export interface Progress {
  bytesProcessed: number;
  chunks: number;
  /** Consumer calls started and not yet finished. */
  inFlight: number;
  peakInFlight: number;
}

/** Spins the CPU for `us` microseconds: synchronous work that blocks the event loop, like parsing. */
export function burnCpu(us: number): void {
  const end = process.hrtime.bigint() + BigInt(Math.round(us * 1000));
  while (process.hrtime.bigint() < end) {
    // busy on purpose
  }
}

/**
 * The article's slow consumer: `await sleep(delayMs)` per chunk (plus optional CPU work), then the
 * chunk counts as processed and is turned into a string, as `data.toString()` did in the article.
 */
export function makeConsumer(progress: Progress, opts: { delayMs: number; cpuUs: number }) {
  return async function consume(chunk: Buffer): Promise<string> {
    progress.inFlight += 1;
    progress.peakInFlight = Math.max(progress.peakInFlight, progress.inFlight);
    // delay 0 means no wait at all (not even a timer turn), so throughput runs measure the reader.
    if (opts.delayMs > 0) await sleep(opts.delayMs);
    if (opts.cpuUs > 0) burnCpu(opts.cpuUs);
    progress.bytesProcessed += chunk.length;
    progress.chunks += 1;
    progress.inFlight -= 1;
    return chunk.toString();
  };
}
