import { describe, expect, it } from 'vitest';
import { MIB } from '../../lib/protocol/params';
import { DEFAULT_STREAMS_PARAMS } from '../../labs/streams/shared/params';
import { makeSample } from '../../lib/test-fixtures';
import { summaryOfLab } from '../../lib/protocol';
import { StreamsFigures } from '../../labs/streams/parent/figures';
import { RunRecorder } from './summary';

const sample = makeSample;

/** A recorder for a streams run over a 4 MiB file. */
const newRecorder = () => new RunRecorder(new StreamsFigures(4 * MIB));

const run = {
  lab: 'streams',
  runId: 'r1',
  strategy: 'for-await',
  outcome: 'completed' as const,
  reason: null,
  durationMs: 2000,
  params: DEFAULT_STREAMS_PARAMS,
  library: { name: 'node', version: process.versions.node },
  startedAt: 1_700_000_000_000,
};

describe('RunRecorder', () => {
  it('keeps the peak of each memory field separately, from whichever sample had it', () => {
    const r = newRecorder();
    r.addSample(sample({ rss: 100, heapUsed: 9, arrayBuffers: 1 }));
    r.addSample(sample({ rss: 90, heapUsed: 12, arrayBuffers: 7, heapTotal: 20, external: 8 }));
    r.addSample(sample({ rss: 95, heapUsed: 3, arrayBuffers: 2 }));
    expect(r.summarize(run).peak).toEqual({ rss: 100, heapTotal: 20, heapUsed: 12, external: 8, arrayBuffers: 7 });
  });

  it('takes progress and gc totals from the last sample and the largest read-ahead from any', () => {
    const r = newRecorder();
    r.addSample(sample({ bytesRead: 3 * MIB, bytesProcessed: MIB, elMaxMs: 4 }));
    r.addSample(sample({ bytesRead: 4 * MIB, bytesProcessed: 4 * MIB, chunks: 64, gcCount: 5, gcMs: 2.5, elMaxMs: 1 }));
    const s = r.summarize(run);
    expect(s).toMatchObject({
      bytesRead: 4 * MIB,
      bytesProcessed: 4 * MIB,
      chunks: 64,
      peakBufferedBytes: 2 * MIB,
      gc: { count: 5, totalMs: 2.5 },
      sampleCount: 2,
      eventLoopDelayMs: { p50: 0, p99: 0, max: 4 },
      mbPerSec: 2,
      nodeVersion: process.versions.node,
    });
  });

  it('reports memory above the idle baseline, never below zero', () => {
    const r = newRecorder();
    r.idle = { rss: 40, heapTotal: 10, heapUsed: 5, external: 2, arrayBuffers: 1 };
    r.addSample(sample({ rss: 70, heapTotal: 8, heapUsed: 6, external: 2, arrayBuffers: 31 }));
    expect(r.summarize(run).aboveIdle).toEqual({ rss: 30, heapTotal: 0, heapUsed: 1, external: 0, arrayBuffers: 30 });
  });

  it('summarizes a run that never sent anything with null peaks (not measured), not zeros, and no idle baseline', () => {
    const s = newRecorder().summarize({ ...run, outcome: 'crashed', reason: 'boom', durationMs: 0 });
    expect(s).toMatchObject({
      outcome: 'crashed',
      reason: 'boom',
      bytesProcessed: 0,
      sampleCount: 0,
      idle: null,
      aboveIdle: null,
      mbPerSec: null,
      recordsPerSec: null,
    });
    expect(s.peak).toBeNull();
    expect(s.procPeakRss).toBeNull();
  });

  it('keeps the most consumer calls seen running at once', () => {
    const r = newRecorder();
    for (const inFlight of [1, 6, 2]) r.addSample(sample({ inFlight }));
    expect(summaryOfLab(r.summarize(run), 'streams').peakInFlight).toBe(6);
  });

  it('takes the heap read while the loop was blocked into the heap’s peak', () => {
    const r = newRecorder();
    r.addSample(sample({ rss: 100, heapUsed: 9, heapTotal: 20 }));
    r.addProc({ t: 50, at: 50, rss: 120, heapUsed: 40, heapTotal: 48 });
    r.addProc({ t: 100, at: 100, rss: 125 });
    r.addSample(sample({ rss: 110, heapUsed: 11, heapTotal: 30 }));
    expect(r.summarize(run).peak).toMatchObject({ rss: 110, heapUsed: 40, heapTotal: 48 });
  });

  it('keeps the highest RSS read from /proc', () => {
    const r = newRecorder();
    for (const rss of [10, 30, 20]) r.addProc({ t: 0, at: 0, rss });
    expect(r.summarize(run).procPeakRss).toBe(30);
  });

  it('keeps the CPU the child reported and the highest CPU % from its samples or /proc', () => {
    const r = newRecorder();
    r.addSample(sample({ t: 100, cpuPct: 40 }));
    r.addProc({ t: 0, at: 0, rss: 1 });
    r.addProc({ t: 100, at: 100, rss: 1, cpuPct: 95.5 });
    r.addSample(sample({ t: 200, cpuPct: 80 }));
    r.cpu = { userMs: 900, systemMs: 100 };
    expect(r.summarize(run).cpu).toEqual({ userMs: 900, systemMs: 100, peakPct: 95.5 });
  });

  it('keeps the CPU peak within the cores, and leaves out readings over intervals too short to mean a rate', () => {
    // On 2 cores: the first sample a few µs after the sampler started, and /proc ticks over 12 ms.
    const r = new RunRecorder(new StreamsFigures(4 * MIB), 200);
    r.addSample(sample({ t: 0.02, cpuPct: 313.7 }));
    r.addProc({ t: 0, at: 0, rss: 1 });
    r.addProc({ t: 12, at: 12, rss: 1, cpuPct: 250 });
    r.addSample(sample({ t: 100, cpuPct: 150 }));
    r.cpu = { userMs: 900, systemMs: 100 };
    expect(r.summarize(run).cpu!.peakPct).toBe(150);
    // A long interval that still reads past the cores (ticks credited late) stops at all of them.
    r.addProc({ t: 212, at: 212, rss: 1, cpuPct: 231 });
    expect(r.summarize(run).cpu!.peakPct).toBe(200);
  });

  it('has no CPU figures for a run whose child never reported done', () => {
    expect(newRecorder().summarize(run).cpu).toBeNull();
  });
});
