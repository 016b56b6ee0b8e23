import type { Consumer } from './consumers/types';

/** The consumer's counters, read by the scenario for every sample. */
export interface Progress {
  bytesProcessed: number;
  /** Consumer calls finished (chunks, or records with the records option). */
  chunks: number;
  /** CSV lines (the header too) in what was processed: the same count whether chunks or records flow. */
  records: number;
  /** Consumer calls started and not yet finished. */
  inFlight: number;
  peakInFlight: number;
}

export const newProgress = (): Progress => ({ bytesProcessed: 0, chunks: 0, records: 0, inFlight: 0, peakInFlight: 0 });

const NEWLINE = 0x0a;

/** Lines in a chunk: the records a whole-chunk consumer call covers (a line cut at the chunk's end counts where it ends). */
function linesIn(item: Buffer | string): number {
  if (typeof item === 'string') return 1;
  let n = 0;
  for (let i = item.indexOf(NEWLINE); i !== -1; i = item.indexOf(NEWLINE, i + 1)) n += 1;
  return n;
}

/** Spins the CPU for `us` microseconds: synchronous work that blocks the event loop, like parsing. */
export function burnCpu(us: number): void {
  const end = process.hrtime.bigint() + BigInt(Math.round(us * 1000));
  while (process.hrtime.bigint() < end) {
    // busy on purpose
  }
}

/**
 * The consume function a strategy gets: the chosen consumer's work (consumers/), counted. An item
 * counts as processed once the work is done, and is then turned into a string, as `data.toString()`
 * did in the article.
 */
export function countedConsume(progress: Progress, consumer: Consumer) {
  return async function consume(item: Buffer | string): Promise<string> {
    progress.inFlight += 1;
    progress.peakInFlight = Math.max(progress.peakInFlight, progress.inFlight);
    try {
      await consumer.work(item);
    } finally {
      // A consumer that broke its promise never to reject leaves no call counted in flight.
      progress.inFlight -= 1;
    }
    progress.bytesProcessed += typeof item === 'string' ? Buffer.byteLength(item, 'latin1') + 1 : item.length;
    progress.chunks += 1;
    progress.records += linesIn(item);
    return item.toString();
  };
}
