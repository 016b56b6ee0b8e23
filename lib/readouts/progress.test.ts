import { describe, expect, it } from 'vitest';
import { runProgress } from './progress';
import { makeHttpSample, makeSample } from '../test-fixtures';

const sample = (t: number, bytesProcessed: number) => makeSample({ t, at: 1_700_000_000_000 + t, bytesRead: bytesProcessed, bytesProcessed });

describe('runProgress', () => {
  it('is empty before the first sample', () => {
    expect(runProgress([], 1000)).toEqual({ done: 0, fraction: 0, perSec: null, etaMs: null });
  });

  it('estimates the time left from the recent rate only', () => {
    // Slow at first (100 B/s), then 1000 B/s over the last 3 s: the ETA follows the recent rate.
    const samples = [sample(0, 0), sample(10_000, 1000), sample(11_000, 2000), sample(12_000, 3000), sample(13_000, 4000)];
    const p = runProgress(samples, 10_000);
    expect(p.fraction).toBe(0.4);
    expect(p.perSec).toBe(1000);
    expect(p.etaMs).toBe(6000);
  });

  it('gives no ETA while nothing moves', () => {
    const p = runProgress([sample(0, 500), sample(1000, 500)], 1000);
    expect(p.perSec).toBe(0);
    expect(p.etaMs).toBeNull();
  });
});

describe('runProgress of an HTTP run', () => {
  it('counts the responses received right out of those planned', () => {
    const at = (t: number, responsesOk: number) => makeHttpSample({ t, responsesOk, responses: responsesOk + 1 });
    const p = runProgress([at(0, 0), at(1000, 4), at(2000, 8)], 20, 'responsesOk');
    expect(p).toEqual({ done: 8, fraction: 0.4, perSec: 4, etaMs: 3000 });
  });
});
