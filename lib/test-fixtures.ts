/** Shared by unit tests: a sample with every field zero unless the test says otherwise. */
import type { Sample } from './protocol';

export function makeSample(patch: Partial<Sample> = {}): Sample {
  return {
    t: 0,
    at: 0,
    rss: 0,
    heapTotal: 0,
    heapUsed: 0,
    external: 0,
    arrayBuffers: 0,
    bytesRead: 0,
    bytesProcessed: 0,
    chunks: 0,
    inFlight: 0,
    readableLength: 0,
    elMeanMs: 0,
    elMaxMs: 0,
    gcCount: 0,
    gcMs: 0,
    ...patch,
  };
}
