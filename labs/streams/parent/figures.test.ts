import { describe, expect, it } from 'vitest';
import { makeSample } from '../../../lib/test-fixtures';
import { StreamsFigures } from './figures';

describe('StreamsFigures rates', () => {
  it("times a run the parent saw take 0 ms by the child's own clock, so a finished run never reports 0 records/s", () => {
    // Busy 43: a 1 MiB run's 'ready' and 'done' were read in one turn of a starved parent.
    const f = new StreamsFigures(1024 * 1024);
    f.addSample(makeSample({ t: 4, bytesRead: 1024 * 1024, bytesProcessed: 1024 * 1024, chunks: 16, records: 16_000, inFlight: 0 }));
    f.addFinal({ records: 16_000, peakInFlight: 1 });
    const figures = f.figures(0);
    expect(figures.recordsPerSec).toBe(4_000_000);
    expect(figures.mbPerSec).toBe(250);
    // Otherwise the parent's measure stands: it includes the last sample's time.
    expect(f.figures(8).recordsPerSec).toBe(2_000_000);
  });
});
