/** Shared by unit tests: the one sample fixture and a summary fixture per lab (of a run that took samples). */
import { MIB } from './protocol/params';
import { DEFAULT_STREAMS_PARAMS as DEFAULT_PARAMS } from '../labs/streams/shared/params';
import type { Measured, Memory, Sample } from './protocol';
import type { CpuSummary } from '../labs/cpu/shared/schema';
import type { DeadlineSummary } from '../labs/deadline/shared/schema';
import type { HttpSummary } from '../labs/http/shared/schema';
import type { StreamsSummary } from '../labs/streams/shared/schema';
import { DEFAULT_CPU_PARAMS } from '../labs/cpu/shared/params';
import { DEFAULT_DEADLINE_PARAMS } from '../labs/deadline/shared/params';
import { DEFAULT_HTTP_PARAMS } from '../labs/http/shared/params';
import { HTTP_READINGS } from '../labs/http/shared/schema';

/** The fields every lab's sample has, all zero. */
function commonSample(): Sample {
  return { t: 0, at: 0, rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0, elMeanMs: 0, elMaxMs: 0, gcCount: 0, gcMs: 0 };
}

/** A streams lab sample: the common fields and the lab's readings, zero unless patched. */
export function makeSample(patch: Partial<Sample> = {}): Sample {
  return { ...commonSample(), bytesRead: 0, bytesProcessed: 0, chunks: 0, inFlight: 0, readableLength: 0, ...patch };
}

/** An HTTP lab sample: the common fields and every one of the lab's readings, zero unless patched. */
export function makeHttpSample(patch: Partial<Sample> = {}): Sample {
  return { ...commonSample(), ...Object.fromEntries(HTTP_READINGS.map((r) => [r, 0])), ...patch } as Sample;
}

type SummaryPatch = Omit<Partial<StreamsSummary>, 'peak' | 'params'> & { peak?: Partial<Memory>; params?: Partial<StreamsSummary['params']> };

/** A completed streams run over a 32 MiB file with unremarkable figures; tests patch what they test. */
export function makeSummary(over: SummaryPatch = {}): Measured<StreamsSummary> {
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

type HttpSummaryPatch = Omit<Partial<HttpSummary>, 'peak' | 'params'> & { peak?: Partial<Memory>; params?: Partial<HttpSummary['params']> };

/**
 * A completed HTTP run: 20 responses of a 1,000-row table, 4 clients at once, with unremarkable
 * figures; tests patch what they test.
 */
export function makeHttpSummary(over: HttpSummaryPatch = {}): Measured<HttpSummary> {
  const { peak, params, ...rest } = over;
  return {
    runId: 'h1',
    strategy: 'buffered-json',
    outcome: 'completed',
    reason: null,
    durationMs: 1400,
    peak: { rss: 67 * MIB, heapTotal: 14 * MIB, heapUsed: 9 * MIB, external: 4 * MIB, arrayBuffers: MIB / 8, ...peak },
    idle: null,
    aboveIdle: null,
    procPeakRss: 68 * MIB,
    eventLoopDelayMs: { p50: 1, p99: 20, max: 25 },
    gc: { count: 5, totalMs: 6 },
    cpu: null,
    sampleCount: 28,
    nodeVersion: '20.20.2',
    library: { name: 'pg', version: '8.16.3' },
    params: { ...DEFAULT_HTTP_PARAMS, rows: 1000, requests: 20, concurrency: 4, ...params },
    startedAt: 1_700_000_000_000,
    rows: 1000,
    requestsPlanned: 20,
    responsesOk: 20,
    badResponses: 0,
    reqPerSec: 19.5,
    latencyP50Ms: 20,
    latencyP99Ms: 120,
    ttfbP50Ms: 20,
    transferP50Ms: 0.4,
    bytesReceived: 20 * 90_000,
    peakWritableBytes: 0,
    peakOpenResponses: 4,
    slowP50Ms: 0,
    loadCpuMs: 800,
    ...rest,
    lab: 'http',
  };
}

type CpuSummaryPatch = Omit<Partial<CpuSummary>, 'peak' | 'params'> & { peak?: Partial<Memory>; params?: Partial<CpuSummary['params']> };

/**
 * A completed CPU run of one thread: 4 requests of fib(40) (1 s each alone), 4 at once, on 2
 * cores, one after another; tests patch what they test.
 */
export function makeCpuSummary(over: CpuSummaryPatch = {}): Measured<CpuSummary> {
  const { peak, params, ...rest } = over;
  return {
    runId: 'c1',
    strategy: 'single-thread',
    outcome: 'completed',
    reason: null,
    durationMs: 5000,
    peak: { rss: 50 * MIB, heapTotal: 8 * MIB, heapUsed: 6 * MIB, external: 2 * MIB, arrayBuffers: MIB / 8, ...peak },
    idle: null,
    aboveIdle: null,
    procPeakRss: 51 * MIB,
    eventLoopDelayMs: { p50: 1, p99: 1000, max: 1000 },
    gc: { count: 2, totalMs: 3 },
    cpu: null,
    sampleCount: 25,
    nodeVersion: '20.20.2',
    library: { name: 'node:http', version: '20.20.2' },
    params: { ...DEFAULT_CPU_PARAMS, n: 40, requests: 4, concurrency: 4, ...params },
    startedAt: 1_700_000_000_000,
    requestsPlanned: 4,
    requestsOk: 4,
    badRequests: 0,
    makespanMs: 4000,
    latencyP50Ms: 2500,
    latencyMaxMs: 4000,
    computeMsAlone: 1000,
    computeMsMin: 1000,
    speedup: 1,
    speedupMeasured: 1,
    spawnP50Ms: 0,
    pingP50Ms: 500,
    pingMaxMs: 1000,
    peakTreeRss: 50 * MIB,
    peakProcesses: 1,
    peakThreads: 11,
    peakMessageListeners: 0,
    servers: 1,
    cores: 2,
    timeline: [0, 1, 2, 3].map((i) => ({ startMs: 0, firstByteMs: (i + 1) * 1000, endMs: (i + 1) * 1000, servedBy: '100', ok: true })),
    threadCpu: [{ pid: 100, tid: 100, cpuMs: 4000 }],
    ...rest,
    lab: 'cpu',
  };
}

/** The unbounded run recorded in docs/results.md §10 (default schedule); tests patch what they test. */
export function makeDeadlineSummary(over: Partial<Measured<DeadlineSummary>> = {}): Measured<DeadlineSummary> {
  return {
    runId: 'd1',
    strategy: 'unbounded',
    outcome: 'completed',
    reason: null,
    durationMs: 61_000,
    peak: { rss: 120 * MIB, heapTotal: 20 * MIB, heapUsed: 12 * MIB, external: 2 * MIB, arrayBuffers: MIB },
    idle: null,
    aboveIdle: null,
    procPeakRss: 121 * MIB,
    eventLoopDelayMs: { p50: 10, p99: 3000, max: 3505 },
    gc: { count: 20, totalMs: 30 },
    cpu: null,
    sampleCount: 1000,
    nodeVersion: '20.20.2',
    library: { name: 'undici', version: '7.30.2' },
    params: DEFAULT_DEADLINE_PARAMS,
    startedAt: 1_700_000_000_000,
    requestsPlanned: 240,
    sent: 240,
    onTime: 70,
    late: 121,
    timedOut: 49,
    refused: 0,
    errors: 0,
    latencyP50Ms: 5000,
    latencyP99Ms: 21_546,
    latencyMaxMs: 21_822,
    latenessP50Ms: 40,
    latenessP99Ms: 3355,
    latenessMaxMs: 3519,
    deadlineTimersFired: 49,
    deadlineLatenessMaxMs: 3357,
    spikeLatenessP99Ms: 2212,
    recoveryMs: 22_200,
    recoveredBelowMs: 225,
    peakInFlight: 100,
    workMsPerObject: 2.54,
    baselineDemandCores: 0.25,
    spikeDemandCores: 1.02,
    cores: 2,
    objectsFetched: 12_000,
    objectsWorked: 12_000,
    scheduleStartMs: 1200,
    lateness: [],
    ...over,
    lab: 'deadline',
  };
}
