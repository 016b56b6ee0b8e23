/**
 * The streams lab's verdict: one sentence on what a finished run showed, every number taken from
 * its summary, with the figures it quotes and whether they show what the strategy declares (its
 * mode: a pull reader holds backpressure, a push reader does not). Pure: the run card and the
 * tests call it with a summary and nothing else.
 */
import type { StreamsSummary } from '../shared/schema';
import type { Measured, Verdict } from '../../../lib/protocol';
import { formatMb, formatMbCeil, formatPercent, formatSeconds } from '../../../lib/readouts/format';
import { completedExpected, memoryLimitText, outcomeExpected, peakRssFigures, peakRssOf, reasonSuffix, refusedText } from '../../../lib/readouts/outcome-text';
import type { LabVerdict, StrategyTraits } from '../../../components/lab-view';
import { keptEvidence, keptVerdict, undecidedText } from './kept';

/** Above this share of the file held at once, the reader did not wait for the consumer. */
export const IGNORED_SHARE = 0.5;
/** Below this share of the file (or a few chunks) the reader counts as keeping pace with the consumer. */
export const SMALL_SHARE = 0.1;

function share(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}

/** What a sentence judged by its figures says, before the declared outcome is weighed in. */
type Judged = Pick<Verdict, 'text' | 'expected'> & { figures: Verdict['figures'] };

/** The figures processedPart quotes. */
function processedFigures(s: Measured<StreamsSummary>): Verdict['figures'] {
  return { bytesProcessed: s.bytesProcessed, fileBytes: s.fileBytes };
}

/**
 * A reader that ignored backpressure is what a push reader is there to show; a pull reader's claim
 * is contradicted. Without a declared mode there is no claim to hold it to.
 */
function ignoredExpected(info: StrategyTraits | undefined): boolean | null {
  return info?.mode === 'push' ? true : info?.mode === 'pull' ? false : null;
}

/**
 * A reader that kept pace is what a pull reader is there to show. A push reader's missing
 * backpressure simply did not show (its consumer kept up): that neither confirms nor contradicts it.
 */
function heldExpected(info: StrategyTraits | undefined): boolean | null {
  return info?.mode === 'pull' ? true : null;
}

/** "12 of 31 MB (40%)": how much of the file reached the consumer. */
function processedPart(s: Measured<StreamsSummary>): string {
  const mb = (bytes: number) => formatMb(bytes).replace(/ MB$/, '');
  return `${mb(s.bytesProcessed)} of ${formatMb(s.fileBytes)} (${formatPercent(share(s.bytesProcessed, s.fileBytes))})`;
}

/** How a run whose reader kept pace ends: a push reader only got lucky, a pull reader held. */
function heldEnding(mode: StrategyTraits['mode'] | undefined): string {
  return mode === 'push' ? 'the consumer kept up, so the missing backpressure did not show.' : 'backpressure held.';
}

/**
 * The reader kept pace, yet heapUsed grew by most of the file. Only retained mode (a GC before
 * every sample) or a strategy that keeps its results by design (toArray) can call that kept;
 * in default mode a strategy that discards every result only shows garbage not yet collected.
 */
function heapVerdict(s: Measured<StreamsSummary>, heapGrowth: number, info: StrategyTraits | undefined): Judged {
  const grew = `heapUsed grew by ${formatMb(heapGrowth)} (${formatPercent(share(heapGrowth, s.fileBytes))} of the file)`;
  const head = `The reader stayed within ${formatMb(s.peakBufferedBytes)} of the consumer`;
  const figures = { peakBufferedBytes: s.peakBufferedBytes, 'aboveIdle.heapUsed': heapGrowth, fileBytes: s.fileBytes };
  // The reader kept pace either way: the heap growth is results or garbage, not a backpressure failure.
  const expected = heldExpected(info);
  if (s.params.retained) return { text: `${head}, yet with a GC before every sample ${grew}: the results were kept on the V8 heap.`, figures, expected };
  const evidence = keptEvidence(s);
  if (evidence.kind === 'kept') return keptVerdict(s, evidence, info);
  const retry = 'Retained mode (a GC before every sample) counts only memory still referenced.';
  const peakAb = { 'peak.arrayBuffers': s.peak.arrayBuffers };
  if (evidence.kind === 'garbage') {
    return {
      text: `${head}. ${grew} and arrayBuffers peaked at ${formatMb(s.peak.arrayBuffers)}, but ${evidence.how}, so that was garbage not yet collected: ${heldEnding(info?.mode)}`,
      figures: { ...figures, ...peakAb, ...evidence.figures },
      expected,
    };
  }
  if (!evidence.legacy) return { text: undecidedText(s, `${grew}`), figures, expected: null };
  // Runs recorded before the GCs' figures: only the strategy's declaration is left to go by.
  if (info?.keepsResults) {
    return { text: `${head}, yet ${grew}: this strategy keeps every result until the end, so they stayed on the V8 heap.`, figures, expected };
  }
  if (!info) return { text: `${head}, yet ${grew}; this could be kept results or garbage not yet collected. ${retry}`, figures, expected };
  return {
    text:
      `${head}. ${grew} and arrayBuffers peaked at ${formatMb(s.peak.arrayBuffers)}, but this strategy discards every result, ` +
      `so that was garbage not yet collected: ${heldEnding(info.mode)} ${retry}`,
    figures: { ...figures, ...peakAb },
    expected,
  };
}

/**
 * A strategy's `mode` is its author's claim, not a figure. When the figures show a reader that did not
 * wait for its consumer, a strategy declared pull is told so: the claim is contradicted.
 */
function contradicted(info: StrategyTraits | undefined): string {
  return info?.mode === 'pull' ? ' It is declared pull, but these figures contradict that: this reader does not hold backpressure.' : '';
}

/**
 * A run whose consumer calls overlapped. Bounded concurrency (a pull reader, N calls in flight)
 * keeps memory flat; calls bounded by a push reader still let the backlog pile up; calls past the
 * knob, or with no knob at all, are the unbounded kind. Told apart by the figures, not the claim.
 */
function concurrencyVerdict(s: Measured<StreamsSummary>, info: StrategyTraits | undefined, aheadShare: number): Judged {
  const ab = s.peak.arrayBuffers;
  const abShare = share(ab, s.fileBytes);
  const bound = s.concurrency;
  const calls = `up to ${s.peakInFlight} consumer calls running at once`;
  const figures = { 'peak.arrayBuffers': ab, fileBytes: s.fileBytes, peakInFlight: s.peakInFlight };
  const within = typeof bound === 'number' && s.peakInFlight <= bound;
  // The chunks in the calls' hands (and as many again in the operator's queue) are read ahead by
  // design: a bounded pull reader at 64 calls of 64 KB on an 8 MB file holds the file's whole size
  // that way. Past that slack the reader ran ahead; arrayBuffers alone, within it, is garbage.
  const slack = Math.max(2 * (typeof bound === 'number' ? bound : s.peakInFlight) * s.params.chunkKb * 1024, 8 * s.params.chunkKb * 1024);
  const grew = s.peakBufferedBytes > slack && (aheadShare >= IGNORED_SHARE || abShare >= IGNORED_SHARE);
  if (within && !grew) {
    return {
      text:
        `Bounded concurrency: ${calls} (the knob: ${bound}), and arrayBuffers stayed under ${formatMbCeil(ab)} (${formatPercent(abShare)} of the file): ` +
        `the reader waited for a free call, so ${heldEnding(info?.mode)}`,
      figures: { ...figures, concurrency: bound },
      expected: heldExpected(info),
    };
  }
  if (within) {
    return {
      text:
        `The calls were bounded (${calls}, the knob: ${bound}), but arrayBuffers grew to ${formatPercent(abShare)} of the file (${formatMb(ab)}) ` +
        `while the reader ran up to ${formatMb(s.peakBufferedBytes)} ahead: the reader did not wait for a free call, so the backlog piled up in memory.${contradicted(info)}`,
      figures: { ...figures, concurrency: bound, peakBufferedBytes: s.peakBufferedBytes },
      expected: ignoredExpected(info),
    };
  }
  const past = typeof bound === 'number' ? ` That is more than its concurrency knob (${bound}).` : '';
  // An unbounded operator (flatMap left to its default) does not fall behind: it starts a consumer call per chunk.
  return {
    text: `arrayBuffers reached ${formatPercent(abShare)} of the file (${formatMb(ab)}) with ${calls}: the operator ignored backpressure.${past}${contradicted(info)}`,
    figures,
    expected: ignoredExpected(info),
  };
}

/** How the memory behaved for a run that finished reading: did backpressure hold? */
function backpressureVerdict(s: Measured<StreamsSummary>, info: StrategyTraits | undefined): Judged {
  const ab = s.peak.arrayBuffers;
  const abShare = share(ab, s.fileBytes);
  const aheadShare = share(s.peakBufferedBytes, s.fileBytes);
  const abFigures = { 'peak.arrayBuffers': ab, fileBytes: s.fileBytes };
  if (s.peakInFlight > 1) return concurrencyVerdict(s, info, aheadShare);
  // With a few chunks in flight a pull reader is a handful of highWaterMarks ahead, nothing more.
  const chunkBytes = s.params.chunkKb * 1024;
  const slack = Math.max(SMALL_SHARE * s.fileBytes, 8 * chunkBytes);
  // Heap growth over the idle baseline; a few dozen chunks' worth of garbage strings is normal.
  const heapGrowth = s.aboveIdle?.heapUsed ?? 0;
  const heapGrew = share(heapGrowth, s.fileBytes) >= IGNORED_SHARE && heapGrowth > 64 * chunkBytes;
  if (heapGrew && aheadShare < SMALL_SHARE) return heapVerdict(s, heapGrowth, info);
  // arrayBuffers alone is not proof: a reader that never ran ahead holds only garbage buffers.
  const aheadKnown = s.sampleCount > 0 && s.peakBufferedBytes <= slack;
  const aheadFigures = { ...abFigures, peakBufferedBytes: s.peakBufferedBytes };
  if (aheadShare >= IGNORED_SHARE || (abShare >= IGNORED_SHARE && !aheadKnown)) {
    return {
      text:
        `arrayBuffers grew to ${formatPercent(abShare)} of the file (${formatMb(ab)}) while the consumer fell behind ` +
        `by up to ${formatMb(s.peakBufferedBytes)}: the reader ignored backpressure.${contradicted(info)}`,
      figures: aheadFigures,
      expected: ignoredExpected(info),
    };
  }
  if (s.peakBufferedBytes <= slack) {
    // A few dozen chunks of garbage are normal between GCs; past that it is worth explaining.
    if (ab > Math.max(SMALL_SHARE * s.fileBytes, 32 * chunkBytes)) {
      // Buffers the reader no longer holds still count until a full GC frees them; chunks the
      // strategy keeps count too: only what a GC left tells which (kept.ts).
      const evidence = keptEvidence(s);
      if (evidence.kind === 'kept') return keptVerdict(s, evidence, info);
      const peaked = `arrayBuffers peaked at ${formatMb(ab)} (${formatPercent(abShare)} of the file)`;
      if (evidence.kind === 'unknown' && !evidence.legacy) return { text: undecidedText(s, peaked), figures: aheadFigures, expected: null };
      const because = evidence.kind === 'garbage' ? ` (${evidence.how})` : '';
      return {
        text:
          `${peaked}, yet the reader was never more than ${formatMb(s.peakBufferedBytes)} ahead of the consumer, ` +
          `so most of it was garbage not yet collected${because}: ${heldEnding(info?.mode)}`,
        figures: evidence.kind === 'garbage' ? { ...aheadFigures, ...evidence.figures } : aheadFigures,
        expected: heldExpected(info),
      };
    }
    return {
      text: `arrayBuffers stayed under ${formatMbCeil(ab)} (${formatPercent(abShare)} of the file): ${heldEnding(info?.mode)}`,
      figures: abFigures,
      expected: heldExpected(info),
    };
  }
  // Neither held nor piled up whole: the figures fit a loose pull reader and a push reader with a quick consumer alike.
  return {
    text:
      `The reader ran up to ${formatMb(s.peakBufferedBytes)} (${formatPercent(aheadShare)} of the file) ahead of the consumer ` +
      `and arrayBuffers peaked at ${formatMb(ab)}: backpressure was loose but the file never piled up whole.`,
    figures: aheadFigures,
    expected: null,
  };
}

/**
 * The streams lab's verdict. `info` (from the strategy catalog) sharpens the wording for a push
 * reader whose consumer kept up, and tells results kept by design from garbage; its mode and
 * expected outcome decide `expected`.
 */
export function streamsVerdict(s: Measured<StreamsSummary>, info?: StrategyTraits): Verdict {
  const ended = (text: string, figures: Verdict['figures']): Verdict => ({ text, figures, expected: outcomeExpected(s.outcome, info) });
  const abFigure = { 'peak.arrayBuffers': s.peak.arrayBuffers };
  switch (s.outcome) {
    case 'completed': {
      const judged = backpressureVerdict(s, info);
      return { ...judged, expected: completedExpected(info, judged.expected) };
    }
    case 'data-lost': {
      const lost = Math.max(0, s.fileBytes - s.bytesProcessed);
      return ended(
        `Data lost: the run finished with only ${processedPart(s)} processed, so ${formatMb(lost)} never reached the consumer ` +
          `(arrayBuffers peaked at ${formatMb(s.peak.arrayBuffers)}).`,
        { ...processedFigures(s), lostBytes: lost, ...abFigure },
      );
    }
    case 'out-of-memory':
      return ended(
        `Out of memory: RSS reached ${formatMb(peakRssOf(s))} and ${memoryLimitText(s)} after ${processedPart(s)} was processed, ` +
          `with arrayBuffers at ${formatMb(s.peak.arrayBuffers)}.`,
        { ...peakRssFigures(s), ...processedFigures(s), ...abFigure },
      );
    case 'crashed':
      return ended(`Crashed after ${processedPart(s)} was processed${reasonSuffix(s.reason)}.`, processedFigures(s));
    case 'stopped':
      if (s.sampleCount === 0 && s.bytesProcessed === 0) return ended('Stopped before it started: nothing was measured.', {});
      return ended(
        `Stopped after ${formatSeconds(s.durationMs)} with ${processedPart(s)} processed; ` + `arrayBuffers peaked at ${formatMb(s.peak.arrayBuffers)}.`,
        { durationMs: s.durationMs, ...processedFigures(s), ...abFigure },
      );
    case 'timed-out':
      return ended(`Timed out after ${s.params.timeoutS} s with ${processedPart(s)} processed; ` + `arrayBuffers peaked at ${formatMb(s.peak.arrayBuffers)}.`, {
        'params.timeoutS': s.params.timeoutS,
        ...processedFigures(s),
        ...abFigure,
      });
    case 'interrupted':
      return ended(
        `Interrupted after ${formatSeconds(s.durationMs)}: ${s.reason ?? 'the server shut down'}, so the run has no result; ` +
          `${processedPart(s)} was processed by then.`,
        { durationMs: s.durationMs, ...processedFigures(s) },
      );
    case 'refused':
      return ended(refusedText(s), { durationMs: s.durationMs });
    default: {
      const never: never = s.outcome;
      return ended(String(never), {});
    }
  }
}

/** What the lab registry picks up from this folder (scripts/lab-index.mjs). */
export const verdict: LabVerdict = (s, _siblings, traits) => streamsVerdict(s as Measured<StreamsSummary>, traits);
