import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MIB } from '../../lib/protocol/params';
import { DEFAULT_STREAMS_PARAMS, type StreamsParams } from './shared/params';
import { MEMORY_FIELDS } from '../../lib/protocol';
import type { StreamsSummary } from './shared/schema';
import { ensureDataFile, type DataFile } from '../../server/data/data-files';
import { withDataFiles } from '../../server/test-support';
import { liveChildCount } from '../../server/runner/runner';
import { startStreamsRun } from './parent/run';
import { streamsLab } from './parent/index';
import type { Strategy } from './child/strategy';

const rootDir = fileURLToPath(new URL('../..', import.meta.url));
const CHUNK_BYTES = 64 * 1024;

/*
 * What each strategy does with a consumer slower than the disk (1 ms per 64 KiB chunk) is on the
 * strategy itself (`expects`). The two fromEvent strategies lose data: a 'data' listener makes the
 * stream flow at disk speed, the file is read long before the consumer is done, and
 * takeUntil('end') then completes the pipeline, dropping every chunk still queued in concatMap.
 * Every other strategy either reads at the consumer's pace (pull), buffers but waits for the queue
 * to drain (rxjs-from, rxjs-merge-map), or overlaps the consumer calls and waits for all of them
 * (ixjs-flatMap and the other bounded ones with the Concurrency knob above 1).
 */
const STRATEGIES: readonly Strategy[] = streamsLab.strategies;
const STRATEGY_IDS = STRATEGIES.map((s) => s.id);
const findStrategy = (id: string) => STRATEGIES.find((s) => s.id === id);
const FLAT_MEMORY = STRATEGIES.filter((s) => s.expects.flatMemory).map((s) => s.id);
const BOUNDED = STRATEGIES.filter((s) => s.concurrency === 'bounded').map((s) => s.id);

function installedVersion(library: string): string {
  if (library === 'node') return process.versions.node;
  return (JSON.parse(readFileSync(join(rootDir, 'node_modules', library, 'package.json'), 'utf8')) as { version: string }).version;
}

let seq = 0;

async function run(strategy: string, params: StreamsParams, file: DataFile): Promise<StreamsSummary> {
  return startStreamsRun({ runId: `strategy-test-${++seq}`, strategy, params, file }).done;
}

describe('strategies', () => {
  const data = withDataFiles('strategies', [4, 16]);
  let small: DataFile;
  let large: DataFile;
  beforeAll(() => {
    [small, large] = data.files;
  });

  it("finds every strategy file of the lab, the article's six first", () => {
    expect(STRATEGY_IDS.slice(0, 6)).toEqual(['rxjs-fromEvent', 'rxjs-from', 'ixjs-from', 'ixjs-fromEvent', 'pipeline-generator', 'iterator-helper']);
    expect(STRATEGY_IDS).toHaveLength(18);
  });

  describe('on a 4 MiB file with a 1 ms consumer', () => {
    const smallParams = (): StreamsParams => ({ ...DEFAULT_STREAMS_PARAMS, sizeMb: 4, delayMs: 1, budgetMb: null });

    it.each([...STRATEGY_IDS])('%s completes, or reports data-lost when the stream ends before the consumer, with a full summary', async (id) => {
      const strategy = findStrategy(id)!;
      // A strategy that loses data does so when the file ends while its consumer is behind. With 1 ms
      // a chunk (64 ms for the file) a reader starved beside two busy loops read no faster than its
      // consumer once, and ixjs-fromEvent completed; 10 ms a chunk (640 ms) keeps the consumer behind.
      const p = strategy.expects.outcome === 'data-lost' ? { ...smallParams(), delayMs: 10 } : smallParams();
      const s = await run(id, p, small);

      expect(s.outcome).toBe(strategy.expects.outcome);
      expect(s.fileBytes).toBe(small.bytes);
      // Every strategy reads the whole file; the data-lost ones just never process all of it.
      expect(s.bytesRead).toBe(small.bytes);
      if (s.outcome === 'completed') {
        expect(s.reason).toBeNull();
        expect(s.bytesProcessed).toBe(small.bytes);
      } else {
        expect(s.bytesProcessed).toBeLessThan(small.bytes);
        expect(s.reason).toBe(`the run ended with ${small.bytes - s.bytesProcessed} of ${small.bytes} bytes never processed`);
      }
      expect(s.chunks).toBe(s.bytesProcessed / CHUNK_BYTES);
      if (strategy.expects.concurrentConsumers) expect(s.peakInFlight).toBeGreaterThan(1);
      else expect(s.peakInFlight).toBe(1);

      expect(s.strategy).toBe(id);
      expect(s.params).toEqual(p);
      for (const field of MEMORY_FIELDS) expect(s.peak?.[field], `peak.${field}`).toBeGreaterThan(0);
      expect(s.idle).not.toBeNull();
      expect(s.idle!.rss).toBeGreaterThan(0);
      expect(s.aboveIdle).not.toBeNull();
      expect(s.procPeakRss).toBeGreaterThan(0);
      expect(s.nodeVersion).toBe(process.versions.node);
      expect(s.library).toEqual({ name: strategy.library, version: installedVersion(strategy.library) });
      expect(s.sampleCount).toBeGreaterThan(0);
    });
  });

  describe('with the Concurrency knob at 4 on a 4 MiB file', () => {
    it('finds every strategy that takes the knob', () => {
      expect(BOUNDED).toEqual(
        expect.arrayContaining(['readable-map', 'ixjs-flatMap', 'p-map', 'streaming-iterables', 'rxjs-merge-map', 'effect-stream', 'highland']),
      );
    });

    it.each([...BOUNDED])('%s overlaps consumer calls, never more than 4, and processes every byte', async (id) => {
      // 3 ms a call (64 calls) keeps the consumer slower than the disk, so a strategy that honours
      // the knob has calls waiting to start and reaches more than one in flight.
      const p: StreamsParams = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 4, delayMs: 3, concurrency: 4, budgetMb: null };
      const s = await run(id, p, small);
      expect(s.outcome).toBe('completed');
      expect(s.reason).toBeNull();
      expect(s.bytesProcessed).toBe(small.bytes);
      expect(s.chunks).toBe(small.bytes / CHUNK_BYTES);
      expect(s.concurrency).toBe(4);
      expect(s.peakInFlight).toBeGreaterThan(1);
      expect(s.peakInFlight).toBeLessThanOrEqual(4);
    });
  });

  it('reports data-lost only when the consumer is slower than the disk: fromEvent keeps every byte with delayMs 0', async () => {
    // With no wait, consume() settles in the same turn as the 'data' event, so nothing is queued
    // when 'end' arrives. This pins the loss above on the slow consumer, not on the operators.
    for (const id of ['rxjs-fromEvent', 'ixjs-fromEvent']) {
      const s = await run(id, { ...DEFAULT_STREAMS_PARAMS, sizeMb: 4, delayMs: 0, budgetMb: null }, small);
      expect([id, s.outcome, s.bytesProcessed]).toEqual([id, 'completed', small.bytes]);
    }
  });

  describe('push vs pull on a 16 MiB file', () => {
    // Retained mode runs gc() before each reading, so arrayBuffers counts only live chunks, not
    // chunks already processed and waiting for a collection. Runs are sequential on purpose.
    const largeParams = (delayMs = 2): StreamsParams => ({ ...DEFAULT_STREAMS_PARAMS, sizeMb: 16, delayMs, retained: true, budgetMb: null });

    it('rxjs-from (push) holds most of the file in arrayBuffers', async () => {
      // A push reader holds what it has read and the consumer has not: the file less what the
      // consumer got through while the file was being read. The consumer's 10 ms a chunk (256
      // chunks, ~2.6 s) is wall time a busy machine does not shorten, while reading is CPU and
      // thread-pool work it does stretch: at 2 ms a chunk a loaded machine brought the peak down to
      // 63 % of 32 MiB, at 5 ms two busy loops beside the run to 78 % of 16 MiB; at 10 ms reading
      // must take over a second (not the ~50 ms it takes) before the peak falls under half the file.
      const s = await run('rxjs-from', largeParams(10), large);
      expect(s.outcome).toBe('completed');
      expect(s.bytesProcessed).toBe(large.bytes);
      expect(s.peak?.arrayBuffers).toBeGreaterThan(0.6 * large.bytes);
      expect(s.peakBufferedBytes).toBeGreaterThan(0.5 * large.bytes);
    });

    it.each(FLAT_MEMORY)('%s (pull) keeps arrayBuffers under 4 MiB', async (id) => {
      const s = await run(id, largeParams(), large);
      expect(s.outcome).toBe('completed');
      expect(s.bytesProcessed).toBe(large.bytes);
      expect(s.peak?.arrayBuffers).toBeLessThan(4 * MIB);
      expect(s.peakBufferedBytes).toBeLessThan(4 * MIB);
    });

    it('ixjs-toArray (pull reader, keeping sink) keeps arrayBuffers low but grows heapUsed to the file size', async () => {
      const s = await run('ixjs-toArray', largeParams(), large);
      expect(s.outcome).toBe('completed');
      expect(s.peak?.arrayBuffers).toBeLessThan(4 * MIB);
      // Every chunk is kept as a string of the same length (the file is ASCII).
      expect(s.peak?.heapUsed).toBeGreaterThan(0.75 * large.bytes);
    });
  });
});
