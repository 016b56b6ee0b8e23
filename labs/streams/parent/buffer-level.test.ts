import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bufferLevel, highWaterMarkBytes, peakOf } from '../view/buffer';
import { DEFAULT_STREAMS_PARAMS, type StreamsParams } from '../shared/params';
import type { RunSummary, Sample } from '../../../lib/protocol';
import { ensureDataFile, type DataFile } from '../../../server/data/data-files';
import { startStreamsRun } from './run';
import { liveChildCount } from '../../../server/runner/runner';
import { withTempDataDir } from '../../../server/test-support';

let seq = 0;

async function runWithSamples(strategy: string, params: StreamsParams, file: DataFile): Promise<{ summary: RunSummary; samples: Sample[] }> {
  const samples: Sample[] = [];
  const handle = startStreamsRun({ runId: `buffer-level-${++seq}`, strategy, params, file, onSample: (s) => samples.push(s) });
  return { summary: await handle.done, samples };
}

// 8 MiB in 64 KiB chunks at 20 ms each: ~2.6 s per run, 20 ms samples. The consumer is slow
// enough that it takes only a few chunks while the push reader reads the whole file: reading is
// ~25 ms here, and busy cores stretch it (each chunk is a thread-pool round trip that waits for a
// core: two busy loops made 16 MiB take ~290 ms), while the consumer's wait is wall time. At 5 ms a
// chunk a loaded machine left 89.5 % of 16 MiB buffered; here reading may take 260 ms before less
// than 90 % is.
const params: StreamsParams = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 8, delayMs: 20, sampleMs: 20, budgetMb: null };
const hwm = highWaterMarkBytes(params.chunkKb);

describe('buffer level of real runs', () => {
  withTempDataDir('buffer-level');
  let file: DataFile;

  beforeAll(async () => {
    file = await ensureDataFile({ sizeMb: params.sizeMb });
  });

  afterEach(() => {
    expect(liveChildCount()).toBe(0);
  });

  it('ramps to the file size for a push reader (rxjs-from)', async () => {
    const { summary, samples } = await runWithSamples('rxjs-from', params, file);
    expect(summary).toMatchObject({ outcome: 'completed', bytesProcessed: file.bytes });
    const level = bufferLevel(samples);
    // Once the whole file has been read, nearly all of it is still waiting for the consumer.
    const readAll = samples.findIndex((s) => s.bytesRead === file.bytes);
    expect(readAll).toBeGreaterThanOrEqual(0);
    expect(level.buffered[readAll].y).toBeGreaterThan(0.9 * file.bytes);
    expect(peakOf(level.buffered)!.y).toBeGreaterThan(0.9 * file.bytes);
    // The run ends with everything processed: the level falls back to zero.
    expect(level.buffered.at(-1)!.y).toBe(0);
  });

  it('stays under a few highWaterMarks for a pull reader (pipeline-generator)', async () => {
    const { summary, samples } = await runWithSamples('pipeline-generator', params, file);
    expect(summary).toMatchObject({ outcome: 'completed', bytesProcessed: file.bytes });
    const level = bufferLevel(samples);
    expect(samples.length).toBeGreaterThan(10);
    const peak = peakOf(level.buffered)!.y;
    // One chunk in the consumer, one in the stream's buffer, one being read: a few hwm at most.
    expect(peak).toBeLessThanOrEqual(4 * hwm);
    expect(peak).toBeGreaterThan(0);
    // The stream's own buffer never holds more than its highWaterMark.
    expect(peakOf(level.readableLength)!.y).toBeLessThanOrEqual(hwm);
  });
});
