/**
 * Writes N made-up but well-formed run records, through the same store the server uses, so the
 * history pages can be measured with a full store:
 *   node --import tsx scripts/seed-runs.ts --count 500 --samples 600 [--data-dir DIR]
 * The records go to <data-dir>/runs (default: STREAM_LAB_DATA_DIR or data/). Retention is set
 * high enough to keep them all.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { RECORD_FORMAT } from '../lib/history';
import { MIB } from '../lib/protocol/params';
import { DEFAULT_STREAMS_PARAMS } from '../labs/streams/shared/params';
import type { Outcome, RunState, Sample } from '../lib/protocol';
import { dataDir } from '../server/data/data-files';
import { RunStore } from '../server/store/run-store';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '500' }, samples: { type: 'string', default: '600' }, 'data-dir': { type: 'string' } },
});
const count = Number(values.count);
const perRun = Number(values.samples);
if (!Number.isInteger(count) || count < 1 || count > 100_000) throw new RangeError('--count must be a whole number between 1 and 100000');
if (!Number.isInteger(perRun) || perRun < 0 || perRun > 20_000) throw new RangeError('--samples must be a whole number between 0 and 20000');

const STRATEGIES = [
  ['rxjs-from', 'rxjs', true],
  ['rxjs-from-event', 'rxjs', true],
  ['pipeline-generator', 'node', false],
  ['for-await', 'node', false],
  ['web-streams', 'node', false],
] as const;
const OUTCOMES: Outcome[] = ['completed', 'completed', 'completed', 'data-lost', 'stopped'];

function sample(i: number, push: boolean, fileBytes: number): Sample {
  const read = Math.min(fileBytes, (push ? 4 : 1) * i * 65536);
  const processed = Math.min(fileBytes, i * 65536);
  const held = push ? read - processed : 65536;
  return {
    t: i * 50,
    at: Date.now() + i * 50,
    rss: 45 * MIB + held * 1.05,
    heapTotal: 9 * MIB,
    heapUsed: 6 * MIB + (i % 40) * 40_000,
    external: 1.2 * MIB + held,
    arrayBuffers: held,
    bytesRead: read,
    bytesProcessed: processed,
    chunks: Math.floor(processed / 65536),
    inFlight: 1,
    readableLength: 0,
    elMeanMs: 0.4,
    elMaxMs: 2.5,
    gcCount: Math.floor(i / 25),
    gcMs: i / 25,
  };
}

const hex = (n: number) => n.toString(16).padStart(10, '0');
const store = await RunStore.open({ dir: join(values['data-dir'] ?? dataDir(), 'runs'), keepRuns: 100_000, keepBytes: 1_000_000 * MIB });
const started = performance.now();
const base = Date.now() - count * 60_000;
for (let n = 0; n < count; n++) {
  const [strategy, library, push] = STRATEGIES[n % STRATEGIES.length];
  const outcome = OUTCOMES[n % OUTCOMES.length];
  const params = { ...DEFAULT_STREAMS_PARAMS, sizeMb: [16, 32, 150][n % 3], delayMs: [2, 10][n % 2] };
  const fileBytes = params.sizeMb * MIB;
  const run: RunState = {
    lab: 'streams',
    id: `r-${hex(0x5eed000000 + n)}`,
    experimentId: `e-${hex(0x5eed000000 + Math.floor(n / 2))}`,
    strategy,
    params,
    status: 'running',
    queuedAt: base + n * 60_000,
    startedAt: base + n * 60_000 + 50,
    pid: null,
    preparedUnits: fileBytes,
    summary: null,
  };
  store.begin({
    format: RECORD_FORMAT,
    run,
    experiment: null,
    versions: { node: process.versions.node, library: { name: library, version: 'seed' } },
    recordedAt: run.queuedAt,
    endedAt: null,
    observed: null,
    notes: ['Seeded by scripts/seed-runs.ts, not a real run.'],
  });
  const samples = Array.from({ length: perRun }, (_, i) => sample(i, push, fileBytes));
  for (const s of samples) store.appendSample(run.id, s);
  const last = samples.at(-1);
  const peak = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
  for (const s of samples) for (const k of Object.keys(peak) as Array<keyof typeof peak>) peak[k] = Math.max(peak[k], s[k]);
  const durationMs = last?.t ?? 0;
  await store.end(
    {
      ...run,
      status: outcome,
      summary: {
        lab: 'streams',
        cpu: null,
        runId: run.id,
        strategy,
        outcome,
        reason: null,
        fileBytes,
        bytesRead: last?.bytesRead ?? 0,
        // A data-lost run, by definition, processed less than the file.
        bytesProcessed: outcome === 'data-lost' ? Math.round(0.6 * fileBytes) : (last?.bytesProcessed ?? 0),
        chunks: last?.chunks ?? 0,
        durationMs,
        mbPerSec: durationMs > 0 ? (last?.bytesProcessed ?? 0) / MIB / (durationMs / 1000) : 0,
        peak,
        idle: null,
        aboveIdle: null,
        procPeakRss: peak.rss,
        peakBufferedBytes: peak.arrayBuffers,
        peakInFlight: 1,
        eventLoopDelayMs: { p50: 0.3, p99: 2, max: 2.5 },
        gc: { count: last?.gcCount ?? 0, totalMs: last?.gcMs ?? 0 },
        sampleCount: perRun,
        nodeVersion: process.versions.node,
        library: { name: library, version: 'seed' },
        params,
        startedAt: run.startedAt!,
      },
    },
    run.queuedAt + durationMs + 100,
  );
}
await store.close();
const { runs, bytes } = store.storage();
console.log(
  `seeded ${count} runs × ${perRun} samples in ${((performance.now() - started) / 1000).toFixed(1)} s; store holds ${runs} runs, ${(bytes / MIB).toFixed(1)} MiB`,
);
