/** Shared by the store and route tests: records and runs built the way the recorder builds them. */
import { RECORD_FORMAT, type RunRecord } from '../../lib/history';
import { DEFAULT_STREAMS_PARAMS } from '../../labs/streams/shared/params';
import type { RunState, RunSummary } from '../../lib/protocol';
import { makeSample, makeSummary as baseSummary } from '../../lib/test-fixtures';

/** A run id from a number: r-0000000001, r-0000000002, … */
export const testRunId = (n: number) => `r-${n.toString(16).padStart(10, '0')}`;

export function makeRun(id: string, patch: Partial<RunState> = {}): RunState {
  return {
    lab: 'streams',
    id,
    experimentId: 'e-0000000001',
    strategy: 'rxjs-from',
    params: { ...DEFAULT_STREAMS_PARAMS, sizeMb: 4, delayMs: 1 },
    status: 'queued',
    queuedAt: 1_700_000_000_000,
    startedAt: null,
    pid: null,
    preparedUnits: null,
    summary: null,
    ...patch,
  };
}

export function makeRecord(run: RunState): RunRecord {
  return {
    format: RECORD_FORMAT,
    run,
    experiment: { id: run.experimentId, strategies: [run.strategy], parallel: false, owner: null },
    versions: { node: '20.20.0', library: { name: 'rxjs', version: '7.8.2' } },
    recordedAt: run.queuedAt,
    endedAt: null,
    observed: null,
    notes: [],
  };
}

/** The i-th sample of a made-up run: memory climbs, so peaks are the last values. */
export function sampleAt(i: number) {
  return makeSample({
    t: i * 50,
    at: 1_700_000_000_000 + i * 50,
    rss: 40e6 + i * 1000.5,
    heapTotal: 8e6,
    heapUsed: 5e6 + i * 3,
    external: 1e6 + i,
    arrayBuffers: i * 65536,
    bytesRead: i * 65536,
    bytesProcessed: i * 32768,
    chunks: i,
    inFlight: 1,
    elMeanMs: 0.123456789 * i,
    elMaxMs: 1.5,
    gcCount: Math.floor(i / 10),
    gcMs: i / 7,
  });
}

/** The shared summary fixture (lib/test-fixtures.ts) for this run. */
export function makeSummary(run: RunState, patch: Parameters<typeof baseSummary>[0] = {}): RunSummary {
  return baseSummary({
    runId: run.id,
    strategy: run.strategy,
    fileBytes: 4 * 1024 * 1024,
    bytesRead: 4 * 1024 * 1024,
    bytesProcessed: 4 * 1024 * 1024,
    chunks: 64,
    durationMs: 1234,
    mbPerSec: 3.24,
    peak: { rss: 50e6, heapTotal: 8e6, heapUsed: 6e6, external: 1.1e6, arrayBuffers: 4e6 },
    procPeakRss: 51e6,
    peakBufferedBytes: 3.9e6,
    eventLoopDelayMs: { p50: 0.1, p99: 1.2, max: 2 },
    gc: { count: 3, totalMs: 1.5 },
    sampleCount: 25,
    nodeVersion: '20.20.0',
    params: run.params,
    startedAt: run.queuedAt + 10,
    ...patch,
  });
}
