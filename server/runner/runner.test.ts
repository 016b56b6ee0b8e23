import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MIB } from '../../lib/protocol/params';
import { DEFAULT_STREAMS_PARAMS, type StreamsParams } from '../../labs/streams/shared/params';
import { summarySchema, type Sample } from '../../lib/protocol';
import type { StreamsSummary } from '../../labs/streams/shared/schema';
import { ensureDataFile, type DataFile } from '../data/data-files';
import { withDataFiles } from '../test-support';
import { streamsLab } from '../../labs/streams/parent/index';

const STRATEGY_IDS = streamsLab.strategies.map((s) => s.id);
import { startStreamsRun } from '../../labs/streams/parent/run';
import { liveChildCount, type RunHandle } from './runner';

interface Finished {
  summary: StreamsSummary;
  /** The child's pid, or null when no child ever reported ready. */
  pid: number | null;
  samples: Sample[];
  /** liveChildCount() at the moment `done` settled. */
  liveAtEnd: number;
}

let seq = 0;

/** Runs one strategy to its end; `onSample` may act on the handle (e.g. stop it). */
async function runToEnd(
  strategy: string,
  params: StreamsParams,
  file: { path: string; bytes: number },
  onSample?: (sample: Sample, handle: Pick<RunHandle, 'stop'>) => void,
): Promise<Finished> {
  let pid: number | null = null;
  const samples: Sample[] = [];
  const handle = startStreamsRun({
    runId: `runner-test-${++seq}`,
    strategy,
    params,
    file,
    onStarted: (info) => {
      pid = info.pid;
    },
    onSample: (sample) => {
      samples.push(sample);
      onSample?.(sample, handle);
    },
  });
  const summary = await handle.done;
  return { summary, pid, samples, liveAtEnd: liveChildCount() };
}

/** The run's child has exited and been reaped: signal 0 to its pid finds no process. */
function expectChildGone(run: Finished): void {
  expect(run.pid).not.toBeNull();
  expect(run.liveAtEnd).toBe(0);
  let code: string | undefined;
  try {
    process.kill(run.pid!, 0);
  } catch (err) {
    code = (err as NodeJS.ErrnoException).code;
  }
  expect(code).toBe('ESRCH');
}

const params = (patch: Partial<StreamsParams>): StreamsParams => ({ ...DEFAULT_STREAMS_PARAMS, budgetMb: null, ...patch });

describe('startRun', () => {
  const data = withDataFiles('runner', [4, 32]);
  let small: DataFile;
  let large: DataFile;
  beforeAll(() => {
    [small, large] = data.files;
  });

  it('rejects an unknown strategy before starting anything', () => {
    expect(() => startStreamsRun({ runId: 'x', strategy: 'nope', params: params({}), file: { path: '/nonexistent', bytes: 1 } })).toThrow(
      new RangeError('unknown strategy "nope" in lab streams'),
    );
    expect(liveChildCount()).toBe(0);
  });

  it('ends a run as stopped when stopped mid-run, and the child is gone', async () => {
    // 1 s per chunk: the first sample arrives long before the first chunk is processed.
    const run = await runToEnd('for-await', params({ sizeMb: 4, delayMs: 1000 }), small, (_s, handle) => handle.stop());
    expect(run.summary).toMatchObject({ outcome: 'stopped', reason: 'stopped by the user', fileBytes: small.bytes, bytesProcessed: 0 });
    expect(run.summary.idle).not.toBeNull();
    expect(run.samples.length).toBeGreaterThan(0);
    expectChildGone(run);
  });

  it('ends a run as stopped without starting a process when stopped at once', async () => {
    const handle = startStreamsRun({
      runId: 'stop-at-once',
      strategy: 'for-await',
      params: params({ sizeMb: 4 }),
      file: small,
      onStarted: () => expect.unreachable(),
    });
    handle.stop();
    const summary = await handle.done;
    expect(summary).toMatchObject({ outcome: 'stopped', reason: 'stopped by the user', sampleCount: 0, bytesProcessed: 0, idle: null });
    // Nothing was measured: null peaks, not zeros, and so they stay on the wire.
    expect(summary).toMatchObject({ peak: null, procPeakRss: null, aboveIdle: null });
    expect(summarySchema.parse(JSON.parse(JSON.stringify(summary)))).toMatchObject({ peak: null, procPeakRss: null });
    expect(liveChildCount()).toBe(0);
  });

  // A stop() (or the watchdog) between the child's 'done' and its exit must not turn a finished run
  // into 'stopped'. With the sampler off, the only onSample call is the final sample, delivered
  // while the runner handles 'done', which makes that window deterministic.
  it('keeps a run completed when stop() arrives after the child reported done', async () => {
    const run = await runToEnd('for-await', params({ sizeMb: 4, delayMs: 0, sampleMs: null }), small, (_s, handle) => handle.stop());
    expect(run.summary.bytesProcessed).toBe(small.bytes);
    expect(run.summary.outcome).toBe('completed');
  });

  it('ends a run as timed-out when the watchdog fires, and the child is gone', async () => {
    const run = await runToEnd('for-await', params({ sizeMb: 4, delayMs: 1000, timeoutS: 1 }), small);
    expect(run.summary).toMatchObject({ outcome: 'timed-out', reason: 'watchdog: no result after 1 s' });
    expect(run.summary.bytesProcessed).toBeLessThan(small.bytes);
    expectChildGone(run);
  });

  it('completes with only the final sample when the sampler is off', async () => {
    const run = await runToEnd('for-await', params({ sizeMb: 4, delayMs: 0, sampleMs: null }), small);
    expect(run.summary).toMatchObject({ outcome: 'completed', bytesProcessed: small.bytes, sampleCount: 1 });
    expect(run.samples).toHaveLength(1);
    // The final sample is a measurement: the peak is its reading.
    expect(run.summary.peak).toEqual({
      rss: run.samples[0].rss,
      heapTotal: run.samples[0].heapTotal,
      heapUsed: run.samples[0].heapUsed,
      external: run.samples[0].external,
      arrayBuffers: run.samples[0].arrayBuffers,
    });
    expect(run.summary.peak!.rss).toBeGreaterThan(0);
    // The parent still watches the child from outside.
    expect(run.summary.procPeakRss).toBeGreaterThan(0);
    expectChildGone(run);
  });

  describe('memory budget', () => {
    // The minimum budget (32 MB) is below the RSS of an idle child (~45–58 MB: Node plus the
    // strategy's library), so it would trip for any strategy before a byte is read. 72 MB sits
    // between a pull reader's peak on this file (~55 MB) and rxjs-from's (~87 MB: idle + the file).
    const budgetMb = 72;

    it('reports out-of-memory when RSS passes the budget, and the child is gone', async () => {
      const run = await runToEnd('rxjs-from', params({ sizeMb: 32, delayMs: 2, budgetMb }), large);
      expect(run.summary.outcome).toBe('out-of-memory');
      const match = /^RSS (\d+) MB passed the 72 MB memory budget$/.exec(run.summary.reason ?? '');
      expect(match, run.summary.reason ?? 'no reason').not.toBeNull();
      expect(Number(match![1])).toBeGreaterThanOrEqual(budgetMb);
      // The reading that crossed the budget is the run's peak (from a sample or from /proc).
      expect(Math.max(run.summary.peak?.rss ?? 0, run.summary.procPeakRss ?? 0)).toBeGreaterThan(budgetMb * MIB);
      expect(run.summary.bytesProcessed).toBeLessThan(large.bytes);
      expectChildGone(run);
    });

    it('lets a pull reader finish under the same budget', async () => {
      const run = await runToEnd('for-await', params({ sizeMb: 32, delayMs: 2, budgetMb }), large);
      expect(run.summary).toMatchObject({ outcome: 'completed', bytesProcessed: large.bytes });
      expectChildGone(run);
    });
  });

  describe('V8 heap limit', () => {
    // The push readers (rxjs-from, the fromEvent pair) hold Buffers, which live outside the V8 heap,
    // so a small --max-old-space-size never stops them. ixjs-toArray is the one that fills the heap:
    // toArray keeps every consume() result, a 64 KiB string per chunk, so the heap grows with the
    // file (~32 MB of strings here) while the pull reader keeps Buffers low.
    it('reports out-of-memory when the V8 heap limit is reached, and the child is gone', async () => {
      const run = await runToEnd('ixjs-toArray', params({ sizeMb: 32, delayMs: 0, maxOldSpaceMb: 16 }), large);
      expect(run.summary).toMatchObject({ outcome: 'out-of-memory', reason: 'V8 heap limit reached (--max-old-space-size=16)' });
      expect(run.summary.bytesProcessed).toBeLessThan(large.bytes);
      expectChildGone(run);
    });

    it('lets a pull reader that keeps nothing finish within the same heap limit', async () => {
      const run = await runToEnd('for-await', params({ sizeMb: 32, delayMs: 0, maxOldSpaceMb: 16 }), large);
      expect(run.summary).toMatchObject({ outcome: 'completed', bytesProcessed: large.bytes });
      expectChildGone(run);
    });
  });

  describe('when the file cannot be opened', () => {
    const missing = { path: '/nonexistent', bytes: 1 };
    const runs = new Map<string, Finished>();

    beforeAll(async () => {
      for (const id of STRATEGY_IDS) runs.set(id, await runToEnd(id, params({ delayMs: 0 }), missing));
    });

    it.each([...STRATEGY_IDS])('reports crashed and the child is gone (%s)', (id) => {
      const run = runs.get(id)!;
      expect(run.summary).toMatchObject({ outcome: 'crashed', fileBytes: 1, bytesProcessed: 0 });
      expectChildGone(run);
    });

    // rxjs-fromEvent never listens for 'error', so its ENOENT is an uncaught exception: the child
    // reports those too, so every strategy names the error.
    for (const id of STRATEGY_IDS) {
      it(`names the error in the crash reason (${id})`, () => {
        expect(runs.get(id)!.summary.reason).toBe("ENOENT: no such file or directory, open '/nonexistent'");
      });
    }
  });
});
