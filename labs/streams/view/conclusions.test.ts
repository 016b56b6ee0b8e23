import { describe, expect, it } from 'vitest';
import { MIB } from '../../../lib/protocol/params';
import { DEFAULT_STREAMS_PARAMS } from '../shared/params';
import type { Measured, Memory } from '../../../lib/protocol';
import type { StreamsSummary } from '../shared/schema';
import { makeSummary } from '../../../lib/test-fixtures';
import {
  concludeFromEventLoss,
  concludeGarbageVsRetained,
  concludeMemoryBudget,
  concludePushVsPull,
  concludeWhereTheFileGoes,
  concludeWhoHoldsTheFile,
  concludeConcurrency,
} from './conclusions';
import type { HeapSnapshotSummary } from '../../../lib/protocol';
import type { HeapHolder } from '../../../lib/heap/analysis';

const FILE = 32 * MIB;
const KB = 1024;
const mem = (over: Partial<Memory> = {}): Memory => ({
  rss: 60 * MIB,
  heapTotal: 10 * MIB,
  heapUsed: 6 * MIB,
  external: 3 * MIB,
  arrayBuffers: 1 * MIB,
  ...over,
});

/** The shared summary fixture with this file's baseline: an idle reading, 2 ms per chunk. */
function summary(over: Parameters<typeof makeSummary>[0] = {}): Measured<StreamsSummary> {
  const { peak, params, ...rest } = over;
  return makeSummary({
    durationMs: 1500,
    mbPerSec: 21,
    peak: mem(peak),
    idle: mem(),
    procPeakRss: 0,
    sampleCount: 30,
    params: { delayMs: 2, ...params },
    ...rest,
  });
}

describe('concludePushVsPull', () => {
  const pull = summary({ strategy: 'pipeline-generator', peakBufferedBytes: 128 * KB, peak: { arrayBuffers: 0.9 * MIB } });

  it('names how far each reader ran ahead when push buffered the file and pull did not', () => {
    const push = summary({ peakBufferedBytes: 31 * MIB, peak: { arrayBuffers: 31.5 * MIB } });
    expect(concludePushVsPull(push, pull)).toEqual({
      asExpected: true,
      text:
        'rxjs-from ran up to 31 MB ahead of its consumer (97% of the 32 MB file) and its arrayBuffers peaked at 31.5 MB, while ' +
        'pipeline-generator was never more than 0.1 MB ahead (2.0 highWaterMarks) with arrayBuffers at 0.9 MB. ' +
        "rxjs-from read on without waiting for its consumer; pipeline-generator read at its consumer's pace.",
    });
  });

  it('says so when the push reader did not run ahead, quoting how far behind its consumer was', () => {
    const push = summary({ peakBufferedBytes: 4 * MIB, peak: { arrayBuffers: 5 * MIB }, params: { delayMs: 0 }, durationMs: 2300 });
    const c = concludePushVsPull(push, pull);
    expect(c.asExpected).toBe(false);
    expect(c.text).toMatch(
      /Not what this lesson expects: the push reader stayed within 13% of the file this time: its consumer \(0 ms a chunk\) was never more than 4\.0 MB behind it in the 2\.3 s run, so this run does not show the missing backpressure\.$/,
    );
  });

  it('says so when the pull reader ran far ahead', () => {
    const push = summary({ peakBufferedBytes: 31 * MIB });
    const c = concludePushVsPull(push, { ...pull, peakBufferedBytes: 1 * MIB });
    expect(c.asExpected).toBe(false);
    expect(c.text).toMatch(
      /Not what this lesson expects: the pull reader ran 16\.0 highWaterMarks ahead, more than the 8 this lesson expects of a pull reader\.$/,
    );
  });

  it('concludes nothing from a run that was stopped', () => {
    const push = summary({ outcome: 'stopped', reason: 'stopped by the user', bytesProcessed: 8 * MIB });
    expect(concludePushVsPull(push, pull)).toEqual({
      asExpected: false,
      text:
        'rxjs-from ended as stopped (stopped by the user) after 8.0 of 32 MB (25%) was processed, not completed as this step needs, ' +
        'so it shows nothing about the lesson. Run the step again.',
    });
  });
});

describe('concludeWhereTheFileGoes', () => {
  it('compares arrayBuffers and heapUsed growth over idle', () => {
    const push = summary({ aboveIdle: mem({ arrayBuffers: 30 * MIB, heapUsed: 2 * MIB }) });
    expect(concludeWhereTheFileGoes(push)).toEqual({
      asExpected: true,
      text:
        'arrayBuffers rose 30 MB above idle (94% of the 32 MB file) while heapUsed rose 2.0 MB. Each chunk is a Buffer, whose ' +
        "bytes Node allocates outside the V8 heap and counts in arrayBuffers (and in external, which includes it): heapUsed's " +
        "growth was 7% of arrayBuffers'.",
    });
  });

  it('says so when the file never piled up', () => {
    const push = summary({ aboveIdle: mem({ arrayBuffers: 3 * MIB, heapUsed: 2 * MIB }), peakBufferedBytes: 256 * KB });
    expect(concludeWhereTheFileGoes(push)).toEqual({
      asExpected: false,
      text:
        'arrayBuffers rose 3.0 MB above idle (9% of the 32 MB file) while heapUsed rose 2.0 MB. Not what this lesson expects: ' +
        'the file never piled up, because the reader was at most 0.3 MB ahead.',
    });
  });

  it('says so when the heap grew more than the Buffers', () => {
    const push = summary({ aboveIdle: mem({ arrayBuffers: 20 * MIB, heapUsed: 25 * MIB }) });
    expect(concludeWhereTheFileGoes(push).text).toContain('Not what this lesson expects: the V8 heap grew at least as much as the Buffers did.');
  });
});

describe('concludeFromEventLoss', () => {
  it('names the bytes that never reached the consumer', () => {
    const s = summary({ strategy: 'rxjs-fromEvent', outcome: 'data-lost', bytesProcessed: 2 * MIB, peakBufferedBytes: 30 * MIB });
    expect(concludeFromEventLoss(s)).toEqual({
      asExpected: true,
      text:
        "Only 2.0 of 32 MB (6%) reached the consumer: 30 MB was lost. The 'data' listener read all 32 MB, up to 30 MB ahead of " +
        "the consumer, and the pipeline completed after 1.5 s with 30 MB read but never processed: takeUntil('end') completes " +
        'when the last chunk is read, not when it is processed, dropping every chunk concatMap still has queued.',
    });
  });

  it('quotes how much was read when the stream ended before the whole file was', () => {
    const s = summary({ strategy: 'rxjs-fromEvent', outcome: 'data-lost', bytesRead: 20 * MIB, bytesProcessed: 2 * MIB, peakBufferedBytes: 18 * MIB });
    expect(concludeFromEventLoss(s).text).toContain(
      "The 'data' listener read 20 MB of the 32 MB file, up to 18 MB ahead of the consumer, and the pipeline completed after 1.5 s with 18 MB read but never processed",
    );
  });

  it('says so when every byte arrived, quoting how far behind the consumer was', () => {
    expect(concludeFromEventLoss(summary({ strategy: 'rxjs-fromEvent' }))).toEqual({
      asExpected: false,
      text:
        'Not what this lesson expects: all 32 MB reached the consumer, so takeUntil cut nothing off this time. The consumer ' +
        '(2 ms a chunk) was never more than 0.1 MB behind the reader in the 1.5 s run.',
    });
  });
});

describe('concludeGarbageVsRetained', () => {
  const retained = summary({ strategy: 'ixjs-from', peak: { arrayBuffers: 0.2 * MIB }, params: { retained: true } });

  it('calls the difference garbage when the default run shows much more', () => {
    const plain = summary({ strategy: 'ixjs-from', peak: { arrayBuffers: 11.4 * MIB } });
    expect(concludeGarbageVsRetained(plain, retained)).toEqual({
      asExpected: true,
      text:
        "Without forced collection ixjs-from's arrayBuffers peaked at 11.4 MB; collecting garbage before every sample (retained mode) " +
        'it peaked at 0.2 MB, and the reader was at most 0.1 MB ahead in either run. The two runs differ only in that collection, ' +
        'so the 11.2 MB difference is memory nothing referenced any more: garbage, not data the stream was holding. A plain ' +
        'process.memoryUsage() reading cannot tell the two apart.',
    });
  });

  it("quotes the default run's GC figures, not a guessed cause, when it showed little garbage", () => {
    const plain = summary({ strategy: 'ixjs-from', peak: { arrayBuffers: 0.3 * MIB }, gc: { count: 57, totalMs: 229.4 }, durationMs: 1720 });
    const c = concludeGarbageVsRetained(plain, retained);
    expect(c.asExpected).toBe(false);
    expect(c.text).toMatch(
      /Not what this lesson expects: the default run showed little garbage \(0\.10 MB more\); its GC ran 57 times \(229 ms in all\) during the 1\.7 s run\. Run it again\.$/,
    );
  });

  it('keeps a decimal for a short total GC time and says "time" for one collection', () => {
    const plain = summary({ strategy: 'ixjs-from', peak: { arrayBuffers: 0.3 * MIB }, gc: { count: 1, totalMs: 0.42 } });
    expect(concludeGarbageVsRetained(plain, retained).text).toContain('its GC ran 1 time (0.4 ms in all) during the 1.5 s run.');
  });
});

describe('concludeMemoryBudget', () => {
  const params = { sizeMb: 48, budgetMb: 80 };
  const file = 48 * MIB;
  const pull = summary({ strategy: 'pipeline-generator', fileBytes: file, bytesProcessed: file, peak: { rss: 55 * MIB }, procPeakRss: 58.5 * MIB, params });

  it('tells the out-of-memory kill apart from the pull reader that finished', () => {
    const push = summary({
      outcome: 'out-of-memory',
      reason: 'RSS 82 MB passed the 80 MB memory budget',
      fileBytes: file,
      bytesProcessed: 6 * MIB,
      peakBufferedBytes: 22.8 * MIB,
      peak: { rss: 70 * MIB },
      procPeakRss: 82.4 * MIB,
      params,
    });
    expect(concludeMemoryBudget(push, pull)).toEqual({
      asExpected: true,
      text:
        "rxjs-from's RSS reached 82.4 MB, past the 80 MB budget, after only 6.0 of 48 MB (13%) was processed: it had read 22.8 MB " +
        "ahead of its consumer. The lab killed it the way a container's memory limit would: the article's out-of-memory failure, " +
        'without taking the machine with it. pipeline-generator processed 48 of 48 MB (100%) under the 80 MB budget with RSS peaking at 58.5 MB.',
    });
  });

  it('says so when the push reader fit under the budget, with its measured RSS and read-ahead', () => {
    const push = summary({ fileBytes: file, bytesProcessed: file, procPeakRss: 79 * MIB, peakBufferedBytes: 20 * MIB, params });
    expect(concludeMemoryBudget(push, pull)).toEqual({
      asExpected: false,
      text:
        'Not what this lesson expects: rxjs-from finished within the 80 MB budget (RSS peak 79 MB, 60 MB when idle, at most 20 MB read ' +
        'ahead of its consumer). pipeline-generator processed 48 of 48 MB (100%) under the 80 MB budget with RSS peaking at 58.5 MB.',
    });
  });

  it('says so when the pull reader passed the budget too, leaving out an idle figure that was never read', () => {
    const push = summary({ outcome: 'out-of-memory', fileBytes: file, bytesProcessed: 6 * MIB, procPeakRss: 82 * MIB, params });
    const overPull = { ...pull, outcome: 'out-of-memory' as const, bytesProcessed: 40 * MIB, procPeakRss: 81 * MIB, idle: null };
    expect(concludeMemoryBudget(push, overPull)).toEqual({
      asExpected: false,
      text:
        'Not what this lesson expects: pipeline-generator passed the budget too (RSS peak 81 MB, at most 0.1 MB read ahead of its ' +
        'consumer). pipeline-generator got through 40 of 48 MB (83%) under the 80 MB budget with RSS peaking at 81 MB.',
    });
  });

  it('concludes nothing when a run crashed', () => {
    const push = summary({ outcome: 'crashed', reason: 'boom.', bytesProcessed: 0, fileBytes: file, params });
    expect(concludeMemoryBudget(push, pull).text).toBe(
      'rxjs-from ended as crashed (boom) after 0.0 of 48 MB (0%) was processed, not out-of-memory or completed as this step needs, ' +
        'so it shows nothing about the lesson. Run the step again.',
    );
  });
});

describe('concludeWhoHoldsTheFile', () => {
  const MERGE = 'file:///app/node_modules/rxjs/dist/cjs/internal/operators/mergeInternals.js';
  const holder = (className: string, bytes: number, fromRxjs: boolean): HeapHolder => ({
    id: 1,
    className,
    name: className,
    selfBytes: 1000,
    retainedBytes: bytes,
    pathOmitted: 0,
    path: [
      { edge: 'buffer', edgeType: 'context', className, name: className, retainedBytes: bytes },
      {
        edge: 'context',
        edgeType: 'internal',
        className: 'system / Context',
        name: 'system / Context',
        retainedBytes: bytes,
        functions: fromRxjs ? [{ name: 'outerNext', script: MERGE, line: 12, column: 5 }] : [],
      },
      { edge: '', edgeType: '', className: 'Window / global', name: 'global', retainedBytes: bytes },
    ],
  });
  const snap = (atMs: number, largest: HeapHolder[]): HeapSnapshotSummary => ({
    n: 1,
    trigger: 'at 1 s',
    atMs,
    pauseMs: 400,
    before: mem(),
    bytes: 6 * MIB,
    error: null,
    analysis: {
      nodeCount: 1,
      edgeCount: 1,
      fileBytes: 6 * MIB,
      totalBytes: 30 * MIB,
      arrayBufferBytes: 24 * MIB,
      groups: [],
      largest,
      parseMs: 1,
      analysisMs: 1,
    },
  });
  const run = (strategy: string, snapshot: HeapSnapshotSummary | null) =>
    summary({ strategy, fileBytes: FILE, ...(snapshot && { heapSnapshots: [snapshot] }) } as Parameters<typeof makeSummary>[0]);

  it('names the holder, its share of the file and the rxjs closures on its path when push holds the file and pull nothing', () => {
    const c = concludeWhoHoldsTheFile(
      run('rxjs-from', snap(1000, [holder('Array', 22.7 * MIB, true)])),
      run('pipeline-generator', snap(1000, [holder('Histogram', 0.4 * MIB, false)])),
    );
    expect(c.asExpected).toBe(true);
    expect(c.text).toContain("1.0 s in, rxjs-from's largest holder was Array, retaining 22.7 MB (71% of the 32 MB file): Array 22.7 MB ← context of outerNext");
    expect(c.text).toContain('node_modules/rxjs/dist/cjs/internal/operators/mergeInternals.js');
    expect(c.text).toContain("pipeline-generator's at 1.0 s: Histogram, retaining 0.4 MB (1% of the 32 MB file).");
  });

  it("leaves out what Stream Lab's harness keeps: the sampler's histogram is not the pull run's answer", () => {
    const sampler = { ...holder('Node / histogram', 0.4 * MIB, false), harness: true };
    const c = concludeWhoHoldsTheFile(
      run('rxjs-from', snap(1000, [holder('Array', 22.7 * MIB, true)])),
      run('pipeline-generator', snap(1000, [sampler, holder('ArrayBuffer', 64 * KB, false)])),
    );
    expect(c.asExpected).toBe(true);
    expect(c.text).toContain(
      "pipeline-generator's at 1.0 s: ArrayBuffer, retaining 0.06 MB (0.2% of the 32 MB file). Holders Stream Lab's own code keeps (its sampler, the lab's scenario) are left out.",
    );
  });

  it('says so when the figures contradict the lesson: a pull run holding the file, a path without rxjs, a missing snapshot', () => {
    const pushy = run('rxjs-from', snap(1000, [holder('Array', 22.7 * MIB, true)]));
    const c = concludeWhoHoldsTheFile(pushy, run('pipeline-generator', snap(1000, [holder('Array', 8 * MIB, false)])));
    expect(c.asExpected).toBe(false);
    expect(c.text).toMatch(/Not what this lesson expects: pipeline-generator held 5% of the file or more\.$/);
    const noRxjs = concludeWhoHoldsTheFile(run('rxjs-from', snap(1000, [holder('Array', 22.7 * MIB, false)])), run('pipeline-generator', snap(1000, [])));
    expect(noRxjs).toMatchObject({ asExpected: false });
    expect(noRxjs.text).toContain('its retainer path names no function of rxjs');
    expect(concludeWhoHoldsTheFile(pushy, run('pipeline-generator', null))).toEqual({
      asExpected: false,
      text: 'No heap snapshot of pipeline-generator: the run ended before its moment came.',
    });
  });
});

describe('concludeConcurrency', () => {
  const FILE8 = 8 * MIB;
  const http = (strategy: string, concurrency: number, recordsPerSec: number, arrayBuffers: number, over: Parameters<typeof makeSummary>[0] = {}) =>
    summary({
      strategy,
      fileBytes: FILE8,
      bytesProcessed: FILE8,
      recordsPerSec,
      peakInFlight: concurrency,
      apiP50Ms: 20.4,
      apiP99Ms: 49.6,
      peak: { arrayBuffers },
      params: { sizeMb: 8, consumer: 'http', concurrency },
      ...over,
    } as Parameters<typeof makeSummary>[0]);

  it('quotes the speed-up and both memories when the bounded pull run is faster and flat and the push one holds the file', () => {
    // Recorded on the walkthrough's step 7: the pull run's arrayBuffers at 25 % of the file were garbage, 0.1 MB read ahead.
    const c = concludeConcurrency(
      http('readable-map', 1, 2200, 0.3 * MIB),
      http('readable-map', 8, 15800, 2 * MIB, { peakBufferedBytes: 0.1 * MIB }),
      http('rxjs-merge-map', 8, 15500, 7.6 * MIB, { peakBufferedBytes: 7.4 * MIB }),
    );
    expect(c.asExpected).toBe(true);
    expect(c.text).toContain(
      'readable-map with one call at a time did 2,200 records/s; with 8 in flight (at most 8 measured) 15,800 records/s, 7.2× as many, ' +
        'while it read at most 0.1 MB ahead of its calls (arrayBuffers peaked at 2.0 MB, 25% of the file).',
    );
    expect(c.text).toContain('rxjs-merge-map with the same bound did 15,500 records/s, but its arrayBuffers reached 7.6 MB (95% of the file)');
    expect(c.text).toContain('The API answered in 20 ms at the median and 50 ms at p99.');
  });

  it('says which figure contradicts the lesson: too little speed-up, a bounded run that held the file, a push run that did not', () => {
    const c = concludeConcurrency(
      http('readable-map', 1, 2200, 0.3 * MIB),
      http('readable-map', 8, 4000, 3 * MIB, { peakBufferedBytes: 2 * MIB }),
      http('rxjs-merge-map', 8, 15500, 1 * MIB, { peakBufferedBytes: 1 * MIB }),
    );
    expect(c.asExpected).toBe(false);
    expect(c.text).toMatch(
      /Not what this lesson expects: 8 calls in flight were less than 3× as fast as one; and readable-map read 10% of the file or more ahead of its calls; and rxjs-merge-map stayed within 50% of the file of its calls\.$/,
    );
  });
});
