/**
 * Garbage or kept? A reader that stayed in step with its consumer can still show most of the file
 * in memory: buffers nobody references any more that no full GC has freed yet, or chunks the
 * strategy keeps. Only what a GC left tells them apart: retained mode's samples (a GC before
 * each), V8's own full GCs during a default-mode run, and the harness's full GC once the strategy
 * finished (labs/streams/child/gc-left.ts). Pure.
 */
import type { StreamsSummary } from '../shared/schema';
import type { Measured, Verdict } from '../../../lib/protocol';
import { formatMb, formatPercent } from '../../../lib/readouts/format';
import type { StrategyTraits } from '../../../components/lab-view';

/** A GC that left at least this share of what had been read: the strategy kept it. */
export const KEPT_SHARE = 0.5;

/** What the figures say about memory a reader in step with its consumer showed. */
export type KeptEvidence =
  /** A GC left most of what was read: `keptBytes` above the idle baseline; `how` says which GC. */
  | { kind: 'kept'; keptBytes: number; how: string; figures: Verdict['figures'] }
  /** A full GC freed it: `how` names the GC and what it left. */
  | { kind: 'garbage'; how: string; figures: Verdict['figures'] }
  /** No GC's reading: a run recorded before these figures (`legacy`), or one whose GC was not measured. */
  | { kind: 'unknown'; legacy: boolean };

const above = (value: number, base: number | undefined) => Math.max(0, value - (base ?? 0));

/** Bytes a reading holds beyond the idle baseline (arrayBuffers plus the V8 heap). */
function leftAbove(s: Measured<StreamsSummary>, arrayBuffers: number, heapUsed: number): number {
  return above(arrayBuffers, s.idle?.arrayBuffers) + above(heapUsed, s.idle?.heapUsed);
}

/** "16 MB (100% of the file)". */
function ofFile(s: Measured<StreamsSummary>, bytes: number): string {
  return `${formatMb(bytes)} (${formatPercent(s.fileBytes > 0 ? bytes / s.fileBytes : 0)} of the file)`;
}

/** Retained mode: every sample came after a GC, so its peaks are memory still referenced. */
function retainedEvidence(s: Measured<StreamsSummary>): KeptEvidence {
  const kept = above(s.peak.arrayBuffers, s.idle?.arrayBuffers) + (s.aboveIdle?.heapUsed ?? 0);
  const figures = { 'peak.arrayBuffers': s.peak.arrayBuffers, 'aboveIdle.heapUsed': s.aboveIdle?.heapUsed ?? 0 };
  if (kept >= KEPT_SHARE * s.fileBytes) {
    return { kind: 'kept', keptBytes: kept, how: `with a GC before every sample, arrayBuffers and the heap still held ${ofFile(s, kept)}`, figures };
  }
  return { kind: 'garbage', how: `with a GC before every sample they held only ${formatMb(kept)}`, figures };
}

/**
 * V8's latest full GC during the run, when it came late enough to say something (a few chunks read).
 * Only a low reading is evidence: V8 frees dead buffers' memory concurrently after the collection,
 * so a reading taken as it ends can still count buffers already dead (measured: a run of ixjs-from
 * read 10.7 MB there, another 0.2 MB; docs/results.md §21). What is kept is told by a GC that ran
 * to the end of its sweep: retained mode's, or the harness's after the run.
 */
function duringRun(s: Measured<StreamsSummary>): KeptEvidence | null {
  const { gcLeftArrayBuffers: ab, gcLeftHeapUsed: heap, gcLeftBytesRead: read } = s;
  if (typeof ab !== 'number' || typeof heap !== 'number' || typeof read !== 'number') return null;
  if (read < 8 * s.params.chunkKb * 1024) return null;
  if (leftAbove(s, ab, heap) >= KEPT_SHARE * read) return null;
  return {
    kind: 'garbage',
    how: `a full GC with ${formatMb(read)} read left ${formatMb(ab)} of arrayBuffers`,
    figures: { gcLeftArrayBuffers: ab, gcLeftHeapUsed: heap, gcLeftBytesRead: read },
  };
}

/** The harness's full GC once the strategy had finished. */
function afterRun(s: Measured<StreamsSummary>): KeptEvidence | null {
  const { endGcArrayBuffers: ab, endGcHeapUsed: heap } = s;
  if (typeof ab !== 'number' || typeof heap !== 'number') return null;
  const left = leftAbove(s, ab, heap);
  const figures = { endGcArrayBuffers: ab, endGcHeapUsed: heap };
  if (left >= KEPT_SHARE * s.fileBytes) {
    return { kind: 'kept', keptBytes: left, how: `a full GC once it had finished still left ${ofFile(s, left)}`, figures };
  }
  return { kind: 'garbage', how: `a full GC once it had finished left ${formatMb(ab)} of arrayBuffers`, figures };
}

/**
 * Which it was, from the GCs' figures: kept when the GC after the run still found most of the file,
 * garbage when a full GC freed it, unknown without a GC's reading. A strategy that held its chunks
 * only until its run returned is freed by then: its memory reads as garbage that outlived no run.
 */
export function keptEvidence(s: Measured<StreamsSummary>): KeptEvidence {
  if (s.params.retained) return retainedEvidence(s);
  const after = afterRun(s);
  if (after?.kind === 'kept') return after;
  // The GC nearest the peak says most: V8's own during the run, else the one after it.
  const freed = duringRun(s) ?? after;
  if (freed) return freed;
  return { kind: 'unknown', legacy: s.endGcArrayBuffers === undefined && s.gcLeftArrayBuffers === undefined };
}

/**
 * The sentence of a run whose strategy kept what it read, and whether that is what it is there to
 * show: yes for one that keeps its results by design (toArray) and holds backpressure, no for one
 * that claims to discard them. `keptBytes` tells the card to offer a heap snapshot of a run again.
 */
export function keptVerdict(
  s: Measured<StreamsSummary>,
  evidence: Extract<KeptEvidence, { kind: 'kept' }>,
  traits: StrategyTraits | undefined,
): Pick<Verdict, 'text' | 'figures' | 'expected'> {
  const design = traits?.keepsResults ? ' (it keeps every result until the end, by design)' : '';
  return {
    text:
      `The reader stayed within ${formatMb(s.peakBufferedBytes)} of the consumer, but the strategy keeps what it read${design}: ` +
      `${evidence.how}, so that was not garbage. A heap snapshot shows what holds it.`,
    figures: { peakBufferedBytes: s.peakBufferedBytes, fileBytes: s.fileBytes, keptBytes: evidence.keptBytes, ...evidence.figures },
    expected: traits?.keepsResults ? (traits.mode === 'pull' ? true : null) : traits ? false : null,
  };
}

/** Default mode with no GC's reading (the runtime refused to expose gc()): neither can be told. */
export function undecidedText(s: Measured<StreamsSummary>, what: string): string {
  return (
    `${what}, while the reader was never more than ${formatMb(s.peakBufferedBytes)} ahead of the consumer: garbage not yet ` +
    'collected or chunks the strategy keeps, which no GC measured here tells apart. Retained mode (a GC before every sample) counts only memory still referenced.'
  );
}
