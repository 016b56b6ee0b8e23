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

  it('has no rate (null, not 0) for a run that never started: no time and no sample', () => {
    expect(new StreamsFigures(1024 * 1024).figures(0)).toMatchObject({ mbPerSec: null, recordsPerSec: null });
  });
});

describe('StreamsFigures, what GCs left', () => {
  const base = { bytesProcessed: 0, chunks: 0, records: 0, inFlight: 1 };
  it("keeps the latest full GC's reading among the samples, and the harness's GC after the run; null where none was measured", () => {
    const f = new StreamsFigures(16 * 1024 * 1024);
    f.addSample(makeSample({ ...base, t: 100, bytesRead: 1000, gcLeftArrayBuffers: 500, gcLeftHeapUsed: 4000, gcLeftBytesRead: 900 }));
    // A sample whose interval had no full GC carries no reading: the last one stands.
    f.addSample(makeSample({ ...base, t: 200, bytesRead: 3000 }));
    f.addSample(makeSample({ ...base, t: 300, bytesRead: 5000, gcLeftArrayBuffers: 200, gcLeftHeapUsed: 3000, gcLeftBytesRead: 4800 }));
    f.addSample(makeSample({ ...base, t: 400, bytesRead: 7000 }));
    f.addFinal({ endGcArrayBuffers: 100, endGcHeapUsed: 2500 });
    expect(f.figures(400)).toMatchObject({ gcLeftArrayBuffers: 200, gcLeftHeapUsed: 3000, gcLeftBytesRead: 4800, endGcArrayBuffers: 100, endGcHeapUsed: 2500 });

    const none = new StreamsFigures(1024);
    none.addSample(makeSample({ ...base, t: 100, bytesRead: 1000 }));
    none.addFinal({});
    expect(none.figures(100)).toMatchObject({
      gcLeftArrayBuffers: null,
      gcLeftHeapUsed: null,
      gcLeftBytesRead: null,
      endGcArrayBuffers: null,
      endGcHeapUsed: null,
    });
  });
});
