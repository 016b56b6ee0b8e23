/**
 * What each step of the HTTP walkthrough concludes from the runs that just happened. Every number
 * comes from a summary, and the thresholds are the HTTP verdict's (labs/http/view/verdict.ts),
 * so a step and a run card never disagree; when the figures contradict the lesson, the text says so.
 * Pure.
 */
import type { Measured } from '../../../lib/protocol';
import type { HttpSummary } from '../shared/schema';
import { formatMb, formatMbCeil, formatMs, formatPercent, formatTimes } from '../../../lib/readouts/format';
import { BASELINE_STRATEGY, heapRatio, latencyChange, loadPart, LOWER_RATIO, piledUp, responsesPart, slowPart, smallTableHint } from './verdict';
import type { Conclusion } from '../../../lib/lessons/unfinished';
import { unfinished } from '../../../lib/lessons/unfinished';

const served = (s: Measured<HttpSummary>) => `${responsesPart(s)} came back right`;

/** "buffered-json's heapUsed peaked at 292 MB; ndjson-cursor's at 61.8 MB". */
function heaps(a: Measured<HttpSummary>, b: Measured<HttpSummary>): string {
  return `${a.strategy}'s heapUsed peaked at ${formatMb(a.peak.heapUsed)} serving ${loadPart(a)}; ${b.strategy}'s at ${formatMb(b.peak.heapUsed)}`;
}

/** Step 1: a cursor streamed into the response keeps the heap far below the buffered endpoint's. */
export function concludeBufferedVsStreamed(buffered: Measured<HttpSummary>, cursor: Measured<HttpSummary>): Conclusion {
  const stop = unfinished(
    [
      [buffered, ['completed']],
      [cursor, ['completed']],
    ],
    served,
  );
  if (stop) return stop;
  const ratio = heapRatio(cursor, buffered);
  const firstBytes = `its first bytes left after ${formatMs(cursor.ttfbP50Ms)} instead of ${formatMs(buffered.ttfbP50Ms)}`;
  if (ratio >= LOWER_RATIO) {
    return {
      asExpected: true,
      text:
        `${heaps(buffered, cursor)}: streaming lowered the peak ${formatTimes(ratio)}. Each buffered response held all its rows as objects, ` +
        `then the whole JSON string; the cursor holds one read of ${cursor.params.cursorRows} rows per response. Streaming ${latencyChange(cursor, buffered)}, ` +
        `and ${firstBytes}.`,
    };
  }
  const lower = ratio > 1 ? `only ${formatTimes(ratio)} lower` : 'not lower';
  return {
    asExpected: false,
    text: `${heaps(buffered, cursor)}. Not what this lesson expects: the streamed response's peak heap was ${lower}.${smallTableHint(buffered)}`,
  };
}

/** Step 2: NDJSON written with drain, but from pool.query's every row: the heap stays near the buffered one. */
export function concludeBufferedIn(buffered: Measured<HttpSummary>, allRows: Measured<HttpSummary>): Conclusion {
  const stop = unfinished(
    [
      [buffered, ['completed']],
      [allRows, ['completed']],
    ],
    served,
  );
  if (stop) return stop;
  const ratio = heapRatio(allRows, buffered);
  const share = formatPercent(allRows.peak.heapUsed / buffered.peak.heapUsed);
  const facts = `${allRows.strategy}'s heapUsed peaked at ${formatMb(allRows.peak.heapUsed)}, ${share} of ${BASELINE_STRATEGY}'s ${formatMb(buffered.peak.heapUsed)}`;
  if (ratio < LOWER_RATIO) {
    return {
      asExpected: true,
      text:
        `${facts}, though it writes NDJSON lines that wait for 'drain': it reads every row with pool.query before writing the first ` +
        `line, so the rows sit in the heap just the same. Streamed out, buffered in: its first bytes left after ` +
        `${formatMs(allRows.ttfbP50Ms)} (${BASELINE_STRATEGY}: ${formatMs(buffered.ttfbP50Ms)}).`,
    };
  }
  return {
    asExpected: false,
    text: `${facts}. Not what this lesson expects: reading every row first should have kept its heap near ${BASELINE_STRATEGY}'s, yet it was ${formatTimes(ratio)} lower.`,
  };
}

/** Step 3: with slow clients, writes that ignore drain pile up in socket buffers; the pipeline waits. */
export function concludeSlowClients(drain: Measured<HttpSummary>, cursor: Measured<HttpSummary>): Conclusion {
  const stop = unfinished(
    [
      [drain, ['completed']],
      [cursor, ['completed']],
    ],
    served,
  );
  if (stop) return stop;
  const facts =
    `With ${slowPart(drain)}, ${drain.strategy}'s socket buffers held up to ${formatMb(drain.peakWritableBytes)}; ` +
    `${cursor.strategy}'s at most ${formatMbCeil(cursor.peakWritableBytes)}`;
  if (piledUp(drain, cursor)) {
    return {
      asExpected: true,
      text:
        `${facts}. res.write returned false, the strategy wrote on, and the rows the clients had not read waited in the server's ` +
        `memory; stream.pipeline stopped reading the cursor until 'drain'.`,
    };
  }
  return { asExpected: false, text: `${facts}. Not what this lesson expects: ignoring drain piled up hardly more than waiting for it.` };
}
