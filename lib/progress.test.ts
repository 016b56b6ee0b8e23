import { describe, expect, it } from 'vitest';
import { runProgress } from './progress';
import type { Sample } from './protocol';

const sample = (t: number, bytesProcessed: number): Sample => ({
  t,
  at: 1_700_000_000_000 + t,
  rss: 0,
  heapTotal: 0,
  heapUsed: 0,
  external: 0,
  arrayBuffers: 0,
  bytesRead: bytesProcessed,
  bytesProcessed,
  chunks: 0,
  inFlight: 0,
  readableLength: 0,
  elMeanMs: 0,
  elMaxMs: 0,
  gcCount: 0,
  gcMs: 0,
});

describe('runProgress', () => {
  it('is empty before the first sample', () => {
    expect(runProgress([], 1000)).toEqual({ processedBytes: 0, fraction: 0, bytesPerSec: null, etaMs: null });
  });

  it('estimates the time left from the recent rate only', () => {
    // Slow at first (100 B/s), then 1000 B/s over the last 3 s: the ETA follows the recent rate.
    const samples = [sample(0, 0), sample(10_000, 1000), sample(11_000, 2000), sample(12_000, 3000), sample(13_000, 4000)];
    const p = runProgress(samples, 10_000);
    expect(p.fraction).toBe(0.4);
    expect(p.bytesPerSec).toBe(1000);
    expect(p.etaMs).toBe(6000);
  });

  it('gives no ETA while nothing moves', () => {
    const p = runProgress([sample(0, 500), sample(1000, 500)], 1000);
    expect(p.bytesPerSec).toBe(0);
    expect(p.etaMs).toBeNull();
  });
});
