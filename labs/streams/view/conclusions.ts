/**
 * What each walkthrough step concludes from the runs that just happened. Every number comes from a
 * StreamsSummary of a run that took samples; when the figures contradict what the lesson expects,
 * the text says so instead of reciting the expected result. Pure: the walkthrough and the tests
 * call these with summaries only.
 */
import type { Measured, Outcome } from '../../../lib/protocol';
import type { StreamsSummary } from '../shared/schema';
import { formatMb, formatPercent, formatSeconds } from '../../../lib/readouts/format';
import { highWaterMarkBytes } from './buffer';
import { unfinished as unfinishedRuns, type Conclusion } from '../../../lib/lessons/unfinished';
import { peakRssOf } from '@/lib/readouts/outcome-text';
import { formatRetainerPath, shortScriptName, type HeapHolder } from '../../../lib/heap/analysis';

/** A push reader this far ahead of its consumer (share of the file) has ignored backpressure. */
export const PUSH_AHEAD_SHARE = 0.5;
/** A pull reader stays within this many highWaterMarks of its consumer. */
export const PULL_AHEAD_HWMS = 8;

function share(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}

/** "2.0 highWaterMarks": how many of the run's chunks a byte count is. */
function inHwms(bytes: number, s: Measured<StreamsSummary>): string {
  const n = bytes / highWaterMarkBytes(s.params.chunkKb);
  return `${n.toFixed(1)} highWaterMark${n.toFixed(1) === '1.0' ? '' : 's'}`;
}

/** "12 of 32 MB (38%)" */
function processedPart(s: Measured<StreamsSummary>): string {
  return `${formatMb(s.bytesProcessed).replace(/ MB$/, '')} of ${formatMb(s.fileBytes)} (${formatPercent(share(s.bytesProcessed, s.fileBytes))})`;
}

/** "57 times (229 ms in all)": the garbage collections the child observed during the run. */
function gcFigures(s: Measured<StreamsSummary>): string {
  const ms = s.gc.totalMs < 10 ? s.gc.totalMs.toFixed(1) : Math.round(s.gc.totalMs).toString();
  return `${s.gc.count} time${s.gc.count === 1 ? '' : 's'} (${ms} ms in all)`;
}

/** "RSS peak 79 MB, 58 MB when idle, at most 2.0 MB read ahead of its consumer": what a budget run measured. */
function budgetFigures(s: Measured<StreamsSummary>): string {
  const idle = s.idle ? `, ${formatMb(s.idle.rss)} when idle` : '';
  return `RSS peak ${formatMb(peakRssOf(s))}${idle}, at most ${formatMb(s.peakBufferedBytes)} read ahead of its consumer`;
}

/** The streams lab's runs that did not end as a step needs: see unfinished.ts. */
function unfinished(runs: ReadonlyArray<[Measured<StreamsSummary>, readonly Outcome[]]>): Conclusion | null {
  return unfinishedRuns(runs, (s) => `${processedPart(s)} was processed`);
}

/** Step 1: a push reader runs ahead by the whole file, a pull reader by a few chunks. */
export function concludePushVsPull(push: Measured<StreamsSummary>, pull: Measured<StreamsSummary>): Conclusion {
  const stop = unfinished([
    [push, ['completed']],
    [pull, ['completed']],
  ]);
  if (stop) return stop;
  const pushShare = share(push.peakBufferedBytes, push.fileBytes);
  const pullAhead = pull.peakBufferedBytes;
  const facts =
    `${push.strategy} ran up to ${formatMb(push.peakBufferedBytes)} ahead of its consumer (${formatPercent(pushShare)} of the ` +
    `${formatMb(push.fileBytes)} file) and its arrayBuffers peaked at ${formatMb(push.peak.arrayBuffers)}, while ${pull.strategy} ` +
    `was never more than ${formatMb(pullAhead)} ahead (${inHwms(pullAhead, pull)}) with arrayBuffers at ${formatMb(pull.peak.arrayBuffers)}.`;
  const pushIgnored = pushShare >= PUSH_AHEAD_SHARE;
  const pullHeld = pullAhead <= PULL_AHEAD_HWMS * highWaterMarkBytes(pull.params.chunkKb);
  if (pushIgnored && pullHeld) {
    return {
      asExpected: true,
      text: `${facts} ${push.strategy} read on without waiting for its consumer; ${pull.strategy} read at its consumer's pace.`,
    };
  }
  const surprises: string[] = [];
  if (!pushIgnored) {
    surprises.push(
      `the push reader stayed within ${formatPercent(pushShare)} of the file this time: its consumer ` +
        `(${push.params.delayMs} ms a chunk) was never more than ${formatMb(push.peakBufferedBytes)} behind it in the ` +
        `${formatSeconds(push.durationMs)} run, so this run does not show the missing backpressure`,
    );
  }
  if (!pullHeld) {
    surprises.push(`the pull reader ran ${inHwms(pullAhead, pull)} ahead, more than the ${PULL_AHEAD_HWMS} this lesson expects of a pull reader`);
  }
  return { asExpected: false, text: `${facts} Not what this lesson expects: ${surprises.join('; and ')}.` };
}

/** Step 2: the file piles up in arrayBuffers (Buffers live outside the V8 heap), not in heapUsed. */
export function concludeWhereTheFileGoes(push: Measured<StreamsSummary>): Conclusion {
  const stop = unfinished([[push, ['completed']]]);
  if (stop) return stop;
  // Growth over the idle process is what the run added; fall back to peaks if idle was never read.
  const grew = push.aboveIdle ?? push.peak;
  const ab = grew.arrayBuffers;
  const heap = grew.heapUsed;
  const facts =
    `arrayBuffers rose ${formatMb(ab)} above idle (${formatPercent(share(ab, push.fileBytes))} of the ${formatMb(push.fileBytes)} file) ` +
    `while heapUsed rose ${formatMb(heap)}.`;
  if (share(ab, push.fileBytes) < PUSH_AHEAD_SHARE) {
    return {
      asExpected: false,
      text: `${facts} Not what this lesson expects: the file never piled up, because the reader was at most ${formatMb(push.peakBufferedBytes)} ahead.`,
    };
  }
  if (heap >= ab) {
    return { asExpected: false, text: `${facts} Not what this lesson expects: the V8 heap grew at least as much as the Buffers did.` };
  }
  return {
    asExpected: true,
    text:
      `${facts} Each chunk is a Buffer, whose bytes Node allocates outside the V8 heap and counts in arrayBuffers (and in ` +
      `external, which includes it): heapUsed's growth was ${formatPercent(share(heap, ab))} of arrayBuffers'.`,
  };
}

/** Step 3: takeUntil(fromEvent(stream, 'end')) completes while chunks are still queued. */
export function concludeFromEventLoss(s: Measured<StreamsSummary>): Conclusion {
  const stop = unfinished([[s, ['data-lost', 'completed']]]);
  if (stop) return stop;
  if (s.outcome === 'completed') {
    return {
      asExpected: false,
      text:
        `Not what this lesson expects: all ${formatMb(s.fileBytes)} reached the consumer, so takeUntil cut nothing off this time. ` +
        `The consumer (${s.params.delayMs} ms a chunk) was never more than ${formatMb(s.peakBufferedBytes)} behind the reader ` +
        `in the ${formatSeconds(s.durationMs)} run.`,
    };
  }
  const lost = Math.max(0, s.fileBytes - s.bytesProcessed);
  const read = s.bytesRead >= s.fileBytes ? `all ${formatMb(s.fileBytes)}` : `${formatMb(s.bytesRead)} of the ${formatMb(s.fileBytes)} file`;
  const unprocessed = Math.max(0, s.bytesRead - s.bytesProcessed);
  return {
    asExpected: true,
    text:
      `Only ${processedPart(s)} reached the consumer: ${formatMb(lost)} was lost. The 'data' listener read ${read}, up to ` +
      `${formatMb(s.peakBufferedBytes)} ahead of the consumer, and the pipeline completed after ${formatSeconds(s.durationMs)} ` +
      `with ${formatMb(unprocessed)} read but never processed: takeUntil('end') completes when the last chunk is read, not ` +
      'when it is processed, dropping every chunk concatMap still has queued.',
  };
}

/** Step 4: memory a default run shows includes garbage; retained mode (GC before each sample) does not. */
export function concludeGarbageVsRetained(plain: Measured<StreamsSummary>, retained: Measured<StreamsSummary>): Conclusion {
  const stop = unfinished([
    [plain, ['completed']],
    [retained, ['completed']],
  ]);
  if (stop) return stop;
  const plainAb = plain.peak.arrayBuffers;
  const retainedAb = retained.peak.arrayBuffers;
  const garbage = Math.max(0, plainAb - retainedAb);
  const ahead = Math.max(plain.peakBufferedBytes, retained.peakBufferedBytes);
  const facts =
    `Without forced collection ${plain.strategy}'s arrayBuffers peaked at ${formatMb(plainAb)}; collecting garbage before every ` +
    `sample (retained mode) it peaked at ${formatMb(retainedAb)}, and the reader was at most ${formatMb(ahead)} ahead in either run.`;
  // Garbage counts as a clear difference once it is twice what is retained and over a megabyte.
  if (plainAb >= 2 * retainedAb && garbage >= 1024 * 1024) {
    return {
      asExpected: true,
      text:
        `${facts} The two runs differ only in that collection, so the ${formatMb(garbage)} difference is memory nothing ` +
        'referenced any more: garbage, not data the stream was holding. A plain process.memoryUsage() reading cannot tell the two apart.',
    };
  }
  return {
    asExpected: false,
    text:
      `${facts} Not what this lesson expects: the default run showed little garbage (${formatMb(garbage)} more); its GC ran ` +
      `${gcFigures(plain)} during the ${formatSeconds(plain.durationMs)} run. Run it again.`,
  };
}

/** Step 5: under a memory budget the push reader is killed; the pull reader finishes the same file. */
export function concludeMemoryBudget(push: Measured<StreamsSummary>, pull: Measured<StreamsSummary>): Conclusion {
  const stop = unfinished([
    [push, ['out-of-memory', 'completed']],
    [pull, ['completed', 'out-of-memory']],
  ]);
  if (stop) return stop;
  const budget = push.params.budgetMb === null ? 'no' : `the ${push.params.budgetMb} MB`;
  const pullFacts = `${pull.strategy} ${pull.outcome === 'completed' ? 'processed' : 'got through'} ${processedPart(pull)} under ${budget} budget with RSS peaking at ${formatMb(peakRssOf(pull))}.`;
  if (push.outcome === 'out-of-memory' && pull.outcome === 'completed') {
    return {
      asExpected: true,
      text:
        `${push.strategy}'s RSS reached ${formatMb(peakRssOf(push))}, past ${budget} budget, after only ${processedPart(push)} was ` +
        `processed: it had read ${formatMb(push.peakBufferedBytes)} ahead of its consumer. The lab killed it the way a container's ` +
        `memory limit would: the article's out-of-memory failure, without taking the machine with it. ${pullFacts}`,
    };
  }
  const surprises: string[] = [];
  if (push.outcome === 'completed') {
    surprises.push(`${push.strategy} finished within ${budget} budget (${budgetFigures(push)})`);
  }
  if (pull.outcome === 'out-of-memory') {
    surprises.push(`${pull.strategy} passed the budget too (${budgetFigures(pull)})`);
  }
  return { asExpected: false, text: `Not what this lesson expects: ${surprises.join('; and ')}. ${pullFacts}` };
}

/** A holder this big (share of the file) is "what holds the file"; a pull run's largest stays under HOLDS_NOTHING_SHARE. */
export const HOLDS_FILE_SHARE = 0.5;
export const HOLDS_NOTHING_SHARE = 0.05;

/** Step 6: heap snapshots of both runs at the same moment, and what their largest holders are. */
export function concludeWhoHoldsTheFile(push: Measured<StreamsSummary>, pull: Measured<StreamsSummary>): Conclusion {
  const stop = unfinished([
    [push, ['completed']],
    [pull, ['completed']],
  ]);
  if (stop) return stop;
  const [a, b] = [push.heapSnapshots?.[0], pull.heapSnapshots?.[0]];
  const missing = [a ? null : push, b ? null : pull].filter((s) => s !== null).map((s) => s!.strategy);
  if (!a || !b) return { asExpected: false, text: `No heap snapshot of ${missing.join(' or ')}: the run ended before its moment came.` };
  const failed = [a.analysis ? null : `${push.strategy}: ${a.error}`, b.analysis ? null : `${pull.strategy}: ${b.error}`].filter(Boolean);
  if (!a.analysis || !b.analysis) return { asExpected: false, text: `A snapshot could not be analysed (${failed.join('; ')}).` };
  // The lesson is about the strategies: what the sampler or the scenario keeps (labelled harness) is no answer.
  const own = (largest: readonly HeapHolder[]) => largest.find((h) => !h.harness);
  const [top, other] = [own(a.analysis.largest), own(b.analysis.largest)];
  const leftOut = [a.analysis.largest[0], b.analysis.largest[0]].some((h) => h?.harness)
    ? " Holders Stream Lab's own code keeps (its sampler, the lab's scenario) are left out."
    : '';
  const file = push.fileBytes;
  const holds = (h: HeapHolder | undefined) =>
    h
      ? `${h.className}, retaining ${formatMb(h.retainedBytes)} (${formatPercent(share(h.retainedBytes, file))} of the ${formatMb(file)} file)`
      : 'nothing listed';
  const fromRxjs = (top?.path ?? []).flatMap((s) => s.functions ?? []).find((f) => /node_modules\/rxjs\//.test(f.script));
  const facts =
    `${formatSeconds(a.atMs)} in, ${push.strategy}'s largest holder was ${holds(top)}: ${top ? formatRetainerPath(top.path) : ''}. ` +
    `${pull.strategy}'s at ${formatSeconds(b.atMs)}: ${holds(other)}.${leftOut}`;
  const pushHolds = top !== undefined && share(top.retainedBytes, file) >= HOLDS_FILE_SHARE;
  const pullHolds = other !== undefined && share(other.retainedBytes, file) >= HOLDS_NOTHING_SHARE;
  if (pushHolds && !pullHolds && fromRxjs) {
    return {
      asExpected: true,
      text:
        `${facts} The chunks rxjs-from has read but the consumer not yet taken wait in that array, kept alive by the closures ` +
        `of ${shortScriptName(fromRxjs.script)}: concatMap is mergeMap with one inner subscription at a time, and every other ` +
        `value is buffered until it ends. A pull pipeline never asks for a chunk it cannot hand on, so nothing grows.`,
    };
  }
  const surprises = [
    pushHolds ? null : `${push.strategy}'s largest holder kept under ${formatPercent(HOLDS_FILE_SHARE)} of the file`,
    pushHolds && !fromRxjs ? `its retainer path names no function of rxjs` : null,
    pullHolds ? `${pull.strategy} held ${formatPercent(HOLDS_NOTHING_SHARE)} of the file or more` : null,
  ].filter(Boolean);
  return { asExpected: false, text: `${facts} Not what this lesson expects: ${surprises.join('; and ')}.` };
}

/** Step 7: the bounded strategy at N calls must be this many times faster than at one call (the N-fold ideal, with room for the API's spread). */
export const CONCURRENCY_SPEEDUP = 3;
/**
 * A bounded pull strategy's reader stays this close to its calls (share of the file); a push one's
 * runs PUSH_AHEAD_SHARE ahead. Read ahead, not arrayBuffers: on an 8 MiB file a pull run's
 * default-mode arrayBuffers peaked at 2.0 MB (25 %), garbage of the calls' bodies not yet collected,
 * while it was never more than 0.1 MB ahead.
 */
export const BOUNDED_AHEAD_SHARE = 0.1;

/** "1,234 records/s" */
function perSec(s: Measured<StreamsSummary>): string {
  return `${Math.round(s.recordsPerSec ?? 0).toLocaleString('en-US')} records/s`;
}

/**
 * Step 7: one strategy at one call and at N calls in flight against the mock API, and a push
 * strategy with the same bound: the calls overlap in both, only the pull one keeps memory flat.
 */
export function concludeConcurrency(one: Measured<StreamsSummary>, bounded: Measured<StreamsSummary>, push: Measured<StreamsSummary>): Conclusion {
  const stop = unfinished([
    [one, ['completed']],
    [bounded, ['completed']],
    [push, ['completed']],
  ]);
  if (stop) return stop;
  const n = bounded.params.concurrency ?? 1;
  const speedup = (bounded.recordsPerSec ?? 0) / Math.max(1e-9, one.recordsPerSec ?? 0);
  const [boundedShare, pushShare] = [share(bounded.peak.arrayBuffers, bounded.fileBytes), share(push.peak.arrayBuffers, push.fileBytes)];
  const [boundedAhead, pushAhead] = [share(bounded.peakBufferedBytes, bounded.fileBytes), share(push.peakBufferedBytes, push.fileBytes)];
  const latency =
    bounded.apiP50Ms === undefined
      ? ''
      : ` The API answered in ${bounded.apiP50Ms.toFixed(0)} ms at the median and ${(bounded.apiP99Ms ?? 0).toFixed(0)} ms at p99.`;
  const facts =
    `${one.strategy} with one call at a time did ${perSec(one)}; with ${n} in flight (at most ${bounded.peakInFlight} measured) ` +
    `${perSec(bounded)}, ${speedup.toFixed(1)}× as many, while it read at most ${formatMb(bounded.peakBufferedBytes)} ahead of its calls ` +
    `(arrayBuffers peaked at ${formatMb(bounded.peak.arrayBuffers)}, ${formatPercent(boundedShare)} of the file). ${push.strategy} with the same bound did ${perSec(push)}, but its arrayBuffers ` +
    `reached ${formatMb(push.peak.arrayBuffers)} (${formatPercent(pushShare)} of the file): it read ${formatMb(push.peakBufferedBytes)} ` +
    `ahead of its calls.${latency}`;
  const surprises = [
    speedup >= CONCURRENCY_SPEEDUP ? null : `${n} calls in flight were less than ${CONCURRENCY_SPEEDUP}× as fast as one`,
    boundedAhead < BOUNDED_AHEAD_SHARE ? null : `${bounded.strategy} read ${formatPercent(BOUNDED_AHEAD_SHARE)} of the file or more ahead of its calls`,
    pushAhead >= PUSH_AHEAD_SHARE ? null : `${push.strategy} stayed within ${formatPercent(PUSH_AHEAD_SHARE)} of the file of its calls`,
  ].filter(Boolean);
  if (surprises.length > 0) return { asExpected: false, text: `${facts} Not what this lesson expects: ${surprises.join('; and ')}.` };
  return {
    asExpected: true,
    text:
      `${facts} Bounded concurrency is a pull reader with ${n} slots: it asks for the next record only when a call finishes, so ` +
      `throughput grows with the slots and memory does not. mergeMap bounds the calls too, but from() pushes every chunk it ` +
      `reads into mergeMap's buffer, so the backlog grows with the file: a bound on the calls is not a bound on memory.`,
  };
}
