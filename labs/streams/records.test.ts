/**
 * The records option (#30): the file split into CSV lines before the strategy, one consumer call
 * per line, against the same file read in chunks. Both count the same records, and every byte
 * still reaches the consumer; only the number of calls differs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS, type StreamsParams } from './shared/params';
import type { DataFile } from '../../server/data/data-files';
import { withDataFiles } from '../../server/test-support';
import { startStreamsRun } from './parent/run';

let seq = 0;
const run = (strategy: string, params: StreamsParams, file: DataFile) => startStreamsRun({ runId: `records-test-${++seq}`, strategy, params, file }).done;

describe('records, not chunks', () => {
  const data = withDataFiles('records', [1]);
  let file: DataFile;
  beforeAll(() => {
    [file] = data.files;
  });
  // No delay: 1 MiB is ~16,000 lines, one call each.
  const params: StreamsParams = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 1, delayMs: 0, budgetMb: null };

  it.each(['pipeline-generator', 'rxjs-from', 'readable-map'])('%s gets one consumer call per CSV line, and every byte', async (id) => {
    const lines = file.rows + 1; // the header is a line too
    const [chunked, records] = [await run(id, params, file), await run(id, { ...params, records: true }, file)];
    for (const s of [chunked, records]) {
      expect(s.outcome).toBe('completed');
      expect(s.bytesProcessed).toBe(file.bytes);
      expect(s.records).toBe(lines);
      expect(s.recordsPerSec).toBeGreaterThan(0);
    }
    // 64 KiB chunks: 16 calls for the file; records: one per line.
    expect(chunked.chunks).toBe(Math.ceil(file.bytes / (64 * 1024)));
    expect(records.chunks).toBe(lines);
    // A sequential strategy (and readable-map at the default knob of 1) has one call in flight.
    expect(records.peakInFlight).toBe(1);
    expect(records.concurrency).toBe(1);
  });

  it('readable-map at concurrency 8 keeps up to 8 record calls in flight, never more', async () => {
    const s = await run('readable-map', { ...params, records: true, delayMs: 1, concurrency: 8 }, file);
    expect(s.outcome).toBe('completed');
    expect(s.records).toBe(file.rows + 1);
    expect(s.concurrency).toBe(8);
    expect(s.peakInFlight).toBeGreaterThan(1);
    expect(s.peakInFlight).toBeLessThanOrEqual(8);
  });
});
