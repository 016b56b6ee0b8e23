import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS, MIB } from './params';
import type { Memory, RunSummary } from './protocol';
import {
  concludeFromEventLoss,
  concludeGarbageVsRetained,
  concludeMemoryBudget,
  concludePushVsPull,
  concludeWhereTheFileGoes,
} from './lessons-conclusions';

const FILE = 32 * MIB;
const KB = 1024;
const mem = (over: Partial<Memory> = {}): Memory => ({ rss: 60 * MIB, heapTotal: 10 * MIB, heapUsed: 6 * MIB, external: 3 * MIB, arrayBuffers: 1 * MIB, ...over });

type Over = Omit<Partial<RunSummary>, 'peak' | 'params'> & { peak?: Partial<Memory>; params?: Partial<RunSummary['params']> };

function summary(over: Over = {}): RunSummary {
  const { peak, params, ...rest } = over;
  return {
    runId: 'r1',
    strategy: 'rxjs-from',
    outcome: 'completed',
    reason: null,
    fileBytes: FILE,
    bytesRead: FILE,
    bytesProcessed: FILE,
    chunks: 512,
    durationMs: 1500,
    mbPerSec: 21,
    peak: mem(peak),
    idle: mem(),
    aboveIdle: null,
    procPeakRss: 0,
    peakBufferedBytes: 128 * KB,
    peakInFlight: 1,
    eventLoopDelayMs: { p50: 1, p99: 2, max: 3 },
    gc: { count: 3, totalMs: 4 },
    sampleCount: 30,
    nodeVersion: '20.20.2',
    library: { name: 'rxjs', version: '7.8.2' },
    params: { ...DEFAULT_PARAMS, sizeMb: 32, delayMs: 2, ...params },
    startedAt: 1_700_000_000_000,
    ...rest,
  };
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
        "Push reads as fast as the disk allows; pull reads at the consumer's pace.",
    });
  });

  it('says so when the push reader did not run ahead', () => {
    const push = summary({ peakBufferedBytes: 4 * MIB, peak: { arrayBuffers: 5 * MIB }, params: { delayMs: 0 } });
    const c = concludePushVsPull(push, pull);
    expect(c.asExpected).toBe(false);
    expect(c.text).toContain(
      'Not what this lesson expects: the push reader stayed within 13% of the file this time, so the consumer (0 ms a chunk) kept up with the disk',
    );
  });

  it('says so when the pull reader ran far ahead', () => {
    const push = summary({ peakBufferedBytes: 31 * MIB });
    const c = concludePushVsPull(push, { ...pull, peakBufferedBytes: 1 * MIB });
    expect(c.asExpected).toBe(false);
    expect(c.text).toMatch(/Not what this lesson expects: the pull reader ran 16\.0 highWaterMarks ahead, more than the few a pull reader needs\.$/);
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
    const c = concludeWhereTheFileGoes(push);
    expect(c.asExpected).toBe(true);
    expect(c.text).toMatch(/^arrayBuffers rose 30 MB above idle \(94% of the 32 MB file\) while heapUsed rose 2\.0 MB\. Each chunk is a Buffer/);
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
        "Only 2.0 of 32 MB (6%) reached the consumer: 30 MB was lost. The 'data' listener read the file at disk speed (up to 30 MB " +
        "ahead of the consumer), 'end' fired as soon as the last chunk was read, and takeUntil completed the pipeline, dropping every " +
        'chunk concatMap still had queued.',
    });
  });

  it('says so when every byte arrived', () => {
    const c = concludeFromEventLoss(summary({ strategy: 'rxjs-fromEvent' }));
    expect(c.asExpected).toBe(false);
    expect(c.text).toMatch(/^Not what this lesson expects: all 32 MB reached the consumer\./);
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
        'it peaked at 0.2 MB, and the reader was at most 0.1 MB ahead in either run. The 11.2 MB difference was chunks already ' +
        'consumed and waiting for the garbage collector, not data the stream was holding: a plain process.memoryUsage() reading ' +
        'cannot tell the two apart.',
    });
  });

  it('says so when the GC kept the default run small too', () => {
    const plain = summary({ strategy: 'ixjs-from', peak: { arrayBuffers: 0.3 * MIB } });
    const c = concludeGarbageVsRetained(plain, retained);
    expect(c.asExpected).toBe(false);
    expect(c.text).toContain('Not what this lesson expects: the default run showed little garbage (0.10 MB more)');
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

  it('says so when the push reader fit under the budget', () => {
    const push = summary({ fileBytes: file, bytesProcessed: file, procPeakRss: 79 * MIB, params });
    expect(concludeMemoryBudget(push, pull)).toEqual({
      asExpected: false,
      text:
        'Not what this lesson expects: rxjs-from finished within the 80 MB budget (RSS peak 79 MB): the file and the idle process fit ' +
        'under it. pipeline-generator processed 48 of 48 MB (100%) under the 80 MB budget with RSS peaking at 58.5 MB.',
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
