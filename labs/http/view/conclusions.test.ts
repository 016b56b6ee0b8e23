import { describe, expect, it } from 'vitest';
import { MIB } from '../../../lib/protocol/params';
import { makeHttpSummary as summary } from '../../../lib/test-fixtures';
import { concludeBufferedIn, concludeBufferedVsStreamed, concludeSlowClients } from './conclusions';
import { HTTP_LESSON_STEPS, LOAD_PARAMS, SLOW_PARAMS, describeHttpParams } from './steps';

const load = { params: LOAD_PARAMS, rows: LOAD_PARAMS.rows, requestsPlanned: 20, responsesOk: 20 };
// Figures of the lesson's presets as measured here (npm run bench -- --lab http --rows 100000 --requests 20 --concurrency 10).
const buffered = summary({ ...load, runId: 'b', strategy: 'buffered-json', peak: { heapUsed: 292.3 * MIB }, latencyP50Ms: 1333, ttfbP50Ms: 1116 });
const cursor = summary({ ...load, runId: 'c', strategy: 'ndjson-cursor', peak: { heapUsed: 61.8 * MIB }, latencyP50Ms: 3489, ttfbP50Ms: 145 });
const allRows = summary({ ...load, runId: 'a', strategy: 'ndjson-all-rows', peak: { heapUsed: 261.3 * MIB }, ttfbP50Ms: 1775 });

describe('step 1: a buffered response vs a streamed one', () => {
  it('concludes from the heaps, and says what streaming cost', () => {
    expect(concludeBufferedVsStreamed(buffered, cursor)).toEqual({
      asExpected: true,
      text:
        "buffered-json's heapUsed peaked at 292 MB serving 20 responses of 100,000 rows, 10 at once; ndjson-cursor's at 61.8 MB: streaming " +
        'lowered the peak 4.7×. Each buffered response held all its rows as objects, then the whole JSON string; the cursor holds one ' +
        'read of 500 rows per response. Streaming raised p50 latency 2.6× (3489 ms vs 1333 ms), and its first bytes left after 145 ms instead of 1116 ms.',
    });
  });

  it('says so when the streamed heap was not clearly lower', () => {
    const high = { ...cursor, peak: { ...cursor.peak, heapUsed: 200 * MIB } };
    const c = concludeBufferedVsStreamed(buffered, high);
    expect(c.asExpected).toBe(false);
    expect(c.text).toMatch(/Not what this lesson expects: the streamed response's peak heap was only 1\.5× lower\.$/);
  });

  it('draws nothing from a run that did not complete', () => {
    const crashed = { ...cursor, outcome: 'crashed' as const, responsesOk: 3, reason: 'killed by SIGKILL' };
    expect(concludeBufferedVsStreamed(buffered, crashed)).toEqual({
      asExpected: false,
      text: 'ndjson-cursor ended as crashed (killed by SIGKILL) after 3 of 20 responses came back right, not completed as this step needs, so it shows nothing about the lesson. Run the step again.',
    });
  });
});

describe('step 2: streamed out, buffered in', () => {
  it('finds the heap near the buffered one', () => {
    expect(concludeBufferedIn(buffered, allRows)).toEqual({
      asExpected: true,
      text:
        "ndjson-all-rows's heapUsed peaked at 261 MB, 89% of buffered-json's 292 MB, though it writes NDJSON lines that wait for 'drain': " +
        'it reads every row with pool.query before writing the first line, so the rows sit in the heap just the same. Streamed out, ' +
        'buffered in: its first bytes left after 1775 ms (buffered-json: 1116 ms).',
    });
  });

  it('says so when the heap was far lower', () => {
    const low = { ...allRows, peak: { ...allRows.peak, heapUsed: 100 * MIB } };
    expect(concludeBufferedIn(buffered, low)).toEqual({
      asExpected: false,
      text: "ndjson-all-rows's heapUsed peaked at 100 MB, 34% of buffered-json's 292 MB. Not what this lesson expects: reading every row first should have kept its heap near buffered-json's, yet it was 2.9× lower.",
    });
  });
});

describe('step 3: slow clients', () => {
  const slow = { params: SLOW_PARAMS, rows: SLOW_PARAMS.rows, requestsPlanned: 6, responsesOk: 6 };
  const pull = summary({ ...slow, runId: 'c', strategy: 'ndjson-cursor', peakWritableBytes: 0.1 * MIB });

  it('finds the unread rows in write-ignoring-drain’s socket buffers', () => {
    const drain = summary({ ...slow, runId: 'd', strategy: 'write-ignoring-drain', peakWritableBytes: 32.4 * MIB });
    expect(concludeSlowClients(drain, pull)).toEqual({
      asExpected: true,
      text:
        "With 4 slow clients reading 2,048 KB/s each, write-ignoring-drain's socket buffers held up to 32.4 MB; ndjson-cursor's at most 0.1 MB. " +
        "res.write returned false, the strategy wrote on, and the rows the clients had not read waited in the server's memory; stream.pipeline " +
        "stopped reading the cursor until 'drain'.",
    });
  });

  it('says so when nothing piled up', () => {
    const drain = summary({ ...slow, runId: 'd', strategy: 'write-ignoring-drain', peakWritableBytes: 0.2 * MIB });
    expect(concludeSlowClients(drain, pull).asExpected).toBe(false);
    expect(concludeSlowClients(drain, pull).text).toContain('Not what this lesson expects: ignoring drain piled up hardly more than waiting for it.');
  });
});

describe('HTTP_LESSON_STEPS', () => {
  it('runs HTTP experiments, each step concluding from its own presets’ runs', () => {
    expect(HTTP_LESSON_STEPS.map((s) => [s.lab, s.n, s.presets.map((p) => p.strategies.join('+'))])).toEqual([
      ['http', 1, ['buffered-json+ndjson-cursor']],
      ['http', 2, ['buffered-json+ndjson-all-rows']],
      ['http', 3, ['write-ignoring-drain+ndjson-cursor']],
    ]);
    expect(HTTP_LESSON_STEPS[0].conclude([buffered, cursor])).toEqual(concludeBufferedVsStreamed(buffered, cursor));
  });

  it('quotes the figures of its presets, never typed twice', () => {
    expect(HTTP_LESSON_STEPS[0].paragraphs[0]).toContain(`all ${describeHttpParams(LOAD_PARAMS).split(' rows')[0]} rows`);
    expect(HTTP_LESSON_STEPS[2].paragraphs[0]).toContain(`${SLOW_PARAMS.slowClients} extra clients`);
    expect(describeHttpParams(SLOW_PARAMS)).toBe('200,000 rows, 2 requests, 2 at once, 4 slow clients at 2,048 KB/s');
    expect(HTTP_LESSON_STEPS[2].paragraphs[0]).toContain('one response of 200,000 rows at 2,048 KB/s');
  });
});
