/** Shared by unit tests: the one sample fixture and the one summary fixture (streams lab). */
import { DEFAULT_PARAMS, MIB } from './params';
import type { Memory, Sample, StreamsSummary } from './protocol';

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

type SummaryPatch = Omit<Partial<StreamsSummary>, 'peak' | 'params'> & { peak?: Partial<Memory>; params?: Partial<StreamsSummary['params']> };

/** A completed streams run over a 32 MiB file with unremarkable figures; tests patch what they test. */
export function makeSummary(over: SummaryPatch = {}): StreamsSummary {
  const { peak, params, ...rest } = over;
  const file = 32 * MIB;
  return {
    runId: 'r1',
    strategy: 'rxjs-from',
    outcome: 'completed',
    reason: null,
    fileBytes: file,
    bytesRead: file,
    bytesProcessed: file,
    chunks: 512,
    durationMs: 6000,
    mbPerSec: 32 / 6,
    peak: { rss: 90 * MIB, heapTotal: 10 * MIB, heapUsed: 8 * MIB, external: 33 * MIB, arrayBuffers: 2 * MIB, ...peak },
    idle: null,
    aboveIdle: null,
    procPeakRss: 91 * MIB,
    peakBufferedBytes: 128 * 1024,
    peakInFlight: 1,
    eventLoopDelayMs: { p50: 1, p99: 2, max: 3 },
    gc: { count: 3, totalMs: 4 },
    cpu: null,
    sampleCount: 120,
    nodeVersion: '20.20.2',
    library: { name: 'rxjs', version: '7.8.2' },
    params: { ...DEFAULT_PARAMS, sizeMb: 32, ...params },
    startedAt: 1_700_000_000_000,
    ...rest,
    lab: 'streams',
  };
}
