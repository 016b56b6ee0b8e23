/**
 * The HTTP lab's verdict: what a finished run showed, from its figures, compared with the other
 * runs of its experiment where the lesson is a comparison (streamed vs buffered, socket buffers
 * with and without drain). When the figures contradict what the strategy is meant to show, the
 * sentence says so instead of reciting the lesson. Pure: every number comes from a summary.
 */
import { MIB } from '../../../lib/protocol/params';
import type { HttpSummary } from '../shared/schema';
import type { Role } from '../shared/roles';
import { counterpartOf, type StrategyTraits } from '../../../components/lab-view';
import { formatCount, formatMb, formatMbCeil, formatMs, formatSeconds, formatTimes } from '../../../lib/readouts/format';
import { memoryLimitText, peakRssOf, reasonSuffix, refusedText } from '../../../lib/readouts/outcome-text';

/** The lesson's usual endpoint (findAll + JSON.stringify): what its conclusions measure the others against. */
export const BASELINE_STRATEGY = 'buffered-json';
/** Streaming "lowered" the heap only when the buffered run's peak heapUsed was at least this many times its own. */
export const LOWER_RATIO = 2;
/** Latencies within this factor of each other read "about the same". */
export const SAME_RATIO = 1.2;
/** Ignoring drain "held" socket buffers when they peaked at this many times a pull run's, and at least PILE_MIN_BYTES. */
export const PILE_RATIO = 4;
export const PILE_MIN_BYTES = MIB;
/** Under this much heap growth above idle, buffered responses are too small to stand out from the server's own heap. */
export const SMALL_GROWTH_BYTES = 8 * MIB;

/** "18 of 20 responses": how far a run got. */
export function responsesPart(s: HttpSummary): string {
  return `${formatCount(s.responsesOk)} of ${formatCount(s.requestsPlanned)} responses`;
}

/** "20 responses of 1,000 rows from a cursor, 4 at once": the load a run served (`how`: where the rows came from). */
export function loadPart(s: HttpSummary, how = ''): string {
  return `${formatCount(s.responsesOk)} responses of ${formatCount(s.rows)} rows${how}, ${s.params.concurrency} at once`;
}

/** "4 slow clients reading 256 KB/s each". */
export function slowPart(s: HttpSummary): string {
  const n = s.params.slowClients;
  return `${n} slow client${n === 1 ? '' : 's'} reading ${formatCount(s.params.slowKbps)} KB/s each`;
}

/** "raised p50 latency 4× (120 ms vs 30 ms)": how a run's median latency compares with the baseline's. */
export function latencyChange(s: HttpSummary, base: HttpSummary): string {
  const facts = `(${formatMs(s.latencyP50Ms)} vs ${formatMs(base.latencyP50Ms)})`;
  if (!(s.latencyP50Ms > 0) || !(base.latencyP50Ms > 0)) return `p50 latency ${facts}`;
  const ratio = s.latencyP50Ms / base.latencyP50Ms;
  if (ratio >= SAME_RATIO) return `raised p50 latency ${formatTimes(ratio)} ${facts}`;
  if (ratio <= 1 / SAME_RATIO) return `lowered p50 latency ${formatTimes(1 / ratio)} ${facts}`;
  return `left p50 latency about the same ${facts}`;
}

/** How many times the baseline's peak heapUsed is the run's (above 1: the run's was lower). */
export function heapRatio(s: HttpSummary, base: HttpSummary): number {
  return s.peak.heapUsed > 0 ? base.peak.heapUsed / s.peak.heapUsed : Infinity;
}

/** A hint when the buffered run's heap hardly grew: then no strategy can look lower. */
export function smallTableHint(base: HttpSummary): string {
  const growth = base.aboveIdle?.heapUsed;
  if (growth === undefined || growth >= SMALL_GROWTH_BYTES) return '';
  return (
    ` ${BASELINE_STRATEGY}'s heap grew only ${formatMb(Math.max(0, growth))} above idle: its responses are too small to stand out ` +
    "from the server's own heap; try more rows or more clients at once."
  );
}

/** " and held at most 0.3 MB in socket buffers with 4 slow clients…", or "" without slow clients. */
function socketPart(s: HttpSummary): string {
  return s.params.slowClients > 0 ? `; it held at most ${formatMbCeil(s.peakWritableBytes)} in socket buffers with ${slowPart(s)}` : '';
}

/** A pull (cursor) run: did streaming lower the heap compared with the buffered run? */
function cursorVerdict(s: HttpSummary, base: HttpSummary | undefined): string {
  if (!base) {
    return (
      `Served ${loadPart(s, ' from a cursor')}: heapUsed peaked at ${formatMb(s.peak.heapUsed)}, p50 latency ${formatMs(s.latencyP50Ms)}, ` +
      `first bytes after ${formatMs(s.ttfbP50Ms)}${socketPart(s)}. Run ${BASELINE_STRATEGY} beside it to compare.`
    );
  }
  const ratio = heapRatio(s, base);
  const heaps = `(${formatMb(s.peak.heapUsed)} vs ${formatMb(base.peak.heapUsed)})`;
  const firstBytes = `first bytes after ${formatMs(s.ttfbP50Ms)} (${BASELINE_STRATEGY}: ${formatMs(base.ttfbP50Ms)})`;
  if (ratio >= LOWER_RATIO) {
    return `Compared with ${BASELINE_STRATEGY}, streaming the response lowered peak heap ${formatTimes(ratio)} ${heaps} and ${latencyChange(s, base)}; ${firstBytes}${socketPart(s)}.`;
  }
  const lower = ratio > 1 ? `was only ${formatTimes(ratio)} lower than` : 'was not lower than';
  return (
    `Not what streaming should show: ${s.strategy}'s peak heap ${lower} ${BASELINE_STRATEGY}'s ${heaps}; it ${latencyChange(s, base)}.` + smallTableHint(base)
  );
}

/** Rows read whole, then streamed out: the heap should stay near the buffered run's. */
function bufferedInVerdict(s: HttpSummary, base: HttpSummary | undefined): string {
  if (!base) {
    return (
      `Served ${loadPart(s)}: heapUsed peaked at ${formatMb(s.peak.heapUsed)}, p50 latency ${formatMs(s.latencyP50Ms)}. ` +
      `It loads every row before writing the first line; run ${BASELINE_STRATEGY} beside it to compare.`
    );
  }
  const ratio = heapRatio(s, base);
  const heaps = `(${formatMb(s.peak.heapUsed)} vs ${formatMb(base.peak.heapUsed)})`;
  if (ratio >= LOWER_RATIO) {
    return (
      `Not what this strategy should show: ${s.strategy} reads every row before writing, yet its peak heap was ${formatTimes(ratio)} ` +
      `lower than ${BASELINE_STRATEGY}'s ${heaps}.`
    );
  }
  const notLower = ratio > 1 ? `was only ${formatTimes(ratio)} lower than ${BASELINE_STRATEGY}'s` : `was not lower than ${BASELINE_STRATEGY}'s`;
  return `${s.strategy} streamed out but buffered in: its peak heap ${notLower} ${heaps}, because every row is in memory before the first line is written.`;
}

/** True when a run's socket buffers piled up next to a pull run's: PILE_RATIO times as much, and at least PILE_MIN_BYTES. */
export function piledUp(s: HttpSummary, pull: HttpSummary): boolean {
  return s.peakWritableBytes >= PILE_MIN_BYTES && s.peakWritableBytes >= PILE_RATIO * pull.peakWritableBytes;
}

/** Writes that ignore drain: with slow clients the unread rows pile up in socket buffers. */
function drainVerdict(s: HttpSummary, pull: HttpSummary | undefined): string {
  const held = formatMb(s.peakWritableBytes);
  const beside = pull ? ` (${pull.strategy}: ${formatMb(pull.peakWritableBytes)})` : '';
  if (s.params.slowClients === 0) {
    return (
      `With no slow clients every response was read as fast as it was written, so ignoring drain cost little: socket buffers ` +
      `peaked at ${held}${beside}. Add slow clients to see the difference.`
    );
  }
  if (!pull) {
    const piled = s.peakWritableBytes >= PILE_MIN_BYTES ? ': res.write kept queueing rows the clients had not read' : ', too little to show a pile-up';
    return `${s.strategy} held up to ${held} in socket buffers with ${slowPart(s)}${piled}. Run ndjson-cursor beside it to compare.`;
  }
  if (piledUp(s, pull))
    return `${s.strategy} held ${held} in socket buffers with ${slowPart(s)}; ${pull.strategy} at most ${formatMbCeil(pull.peakWritableBytes)}.`;
  return (
    `Not what ignoring drain should show: with ${slowPart(s)}, ${s.strategy}'s socket buffers peaked at ${held}, ` +
    `not much more than ${pull.strategy}'s ${formatMb(pull.peakWritableBytes)}.`
  );
}

/**
 * The buffered baseline on its own: the figures, whether nothing went out before the body was
 * built, and, with slow clients, the whole bodies res.end left queued in their sockets.
 */
function bufferedVerdict(s: HttpSummary): string {
  const facts = `Served ${loadPart(s)}: heapUsed peaked at ${formatMb(s.peak.heapUsed)}, p50 latency ${formatMs(s.latencyP50Ms)}`;
  const slow =
    s.params.slowClients > 0 && s.peakWritableBytes >= PILE_MIN_BYTES
      ? ` With ${slowPart(s)}, res.end handed their whole bodies to the sockets: up to ${formatMb(s.peakWritableBytes)} waited there.`
      : '';
  // Headers go out with res.end(body), so a first byte later than the transfer means the wait was the building.
  if (s.ttfbP50Ms >= s.transferP50Ms && s.ttfbP50Ms > 0) {
    return `${facts}, ${formatMs(s.ttfbP50Ms)} of it before the first byte: every body is built whole in memory before anything is sent.${slow}`;
  }
  return `${facts}, first bytes after ${formatMs(s.ttfbP50Ms)} and ${formatMs(s.transferP50Ms)} of transfer.${slow}`;
}

function completedVerdict(s: HttpSummary, others: readonly HttpSummary[], traits: StrategyTraits | undefined): string {
  // What it is measured against is the strategy's own declaration (comparedWith), first found first.
  const base = counterpartOf(s, others, traits);
  const role = traits?.role as Role | null | undefined;
  switch (role) {
    case 'cursor':
      return cursorVerdict(s, base);
    case 'buffered-in':
      return bufferedInVerdict(s, base);
    case 'ignores-drain':
      return drainVerdict(s, base);
    case 'buffered':
      return bufferedVerdict(s);
    default:
      // No declared role known (the catalog has not arrived, or the strategy is gone): the figures alone.
      return `Served ${loadPart(s)}: heapUsed peaked at ${formatMb(s.peak.heapUsed)}, p50 latency ${formatMs(s.latencyP50Ms)}.`;
  }
}

/**
 * The verdict sentence for a finished HTTP run. `others` are the experiment's other finished HTTP
 * runs; `traits` are the strategy's declarations: its role picks the lesson, and it is measured against
 * the first of its comparedWith that ran (a streamed run: buffered-json; write-ignoring-drain: a cursor).
 */
export function httpVerdict(s: HttpSummary, others: readonly HttpSummary[], traits: StrategyTraits | undefined): string {
  switch (s.outcome) {
    case 'completed':
      return completedVerdict(s, others, traits);
    case 'data-lost':
      return `Only ${responsesPart(s)} came back complete and right (${formatCount(s.badResponses)} wrong)${reasonSuffix(s.reason)}.`;
    case 'out-of-memory':
      return (
        `Out of memory: RSS reached ${formatMb(peakRssOf(s))} and ${memoryLimitText(s)} with up to ${s.peakOpenResponses} responses open, ` +
        `after ${responsesPart(s)}; heapUsed peaked at ${formatMb(s.peak.heapUsed)}.`
      );
    case 'crashed':
      return `Crashed after ${responsesPart(s)}${reasonSuffix(s.reason)}.`;
    case 'stopped':
      if (s.sampleCount === 0 && s.responsesOk === 0) return 'Stopped before it started: nothing was measured.';
      return `Stopped after ${formatSeconds(s.durationMs)} with ${responsesPart(s)} served; heapUsed peaked at ${formatMb(s.peak.heapUsed)}.`;
    case 'timed-out':
      return `Timed out after ${s.params.timeoutS} s with ${responsesPart(s)} served; heapUsed peaked at ${formatMb(s.peak.heapUsed)}.`;
    case 'interrupted':
      return `Interrupted after ${formatSeconds(s.durationMs)}: ${s.reason ?? 'the server shut down'}, so the run has no result; ${responsesPart(s)} were served by then.`;
    case 'refused':
      return refusedText(s);
    default: {
      const never: never = s.outcome;
      return String(never);
    }
  }
}
