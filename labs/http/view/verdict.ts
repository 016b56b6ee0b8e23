/**
 * The HTTP lab's verdict: what a finished run showed, from its figures, compared with the other
 * runs of its experiment where the lesson is a comparison (streamed vs buffered, socket buffers
 * with and without drain). When the figures contradict what the strategy is meant to show, the
 * sentence says so instead of reciting the lesson. Pure: every number comes from a summary.
 */
import { MIB } from '../../../lib/protocol/params';
import type { Measured, Verdict } from '../../../lib/protocol';
import type { HttpSummary } from '../shared/schema';
import type { Role } from '../shared/roles';
import type { LabVerdict, StrategyTraits } from '../../../components/lab-view';
import { counterpartOf } from '../../../lib/readouts/counterpart';
import { formatCount, formatMb, formatMbCeil, formatMs, formatSeconds, formatTimes } from '../../../lib/readouts/format';
import {
  completedExpected,
  knownFigures,
  memoryLimitText,
  outcomeExpected,
  peakRssFigures,
  peakRssOf,
  reasonSuffix,
  refusedText,
} from '../../../lib/readouts/outcome-text';

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

/** A verdict's figures as its parts gather them: a time not measured is null, left out of the verdict (knownFigures). */
type Figures = Record<string, number | string | null>;
/** A sentence judged by its figures, before the declared outcome is weighed in. */
type Judged = { text: string; figures: Figures; expected: boolean | null };

/** The figures responsesPart quotes. */
function responsesFigures(s: Measured<HttpSummary>): Figures {
  return { responsesOk: s.responsesOk, requestsPlanned: s.requestsPlanned };
}

/** The figures loadPart quotes. */
function loadFigures(s: Measured<HttpSummary>): Figures {
  return { responsesOk: s.responsesOk, rows: s.rows, 'params.concurrency': s.params.concurrency };
}

/** The figures slowPart quotes. */
function slowFigures(s: Measured<HttpSummary>): Figures {
  return { 'params.slowClients': s.params.slowClients, 'params.slowKbps': s.params.slowKbps };
}

/** A figure of the run it is measured against, under that run's strategy id ("buffered-json.peak.heapUsed"). */
function theirs(o: Measured<HttpSummary>, figures: Figures): Figures {
  return Object.fromEntries(Object.entries(figures).map(([k, v]) => [`${o.strategy}.${k}`, v]));
}

/** "18 of 20 responses": how far a run got. */
export function responsesPart(s: Measured<HttpSummary>): string {
  return `${formatCount(s.responsesOk)} of ${formatCount(s.requestsPlanned)} responses`;
}

/** "20 responses of 1,000 rows from a cursor, 4 at once": the load a run served (`how`: where the rows came from). */
export function loadPart(s: Measured<HttpSummary>, how = ''): string {
  return `${formatCount(s.responsesOk)} responses of ${formatCount(s.rows)} rows${how}, ${s.params.concurrency} at once`;
}

/** "4 slow clients reading 256 KB/s each". */
export function slowPart(s: Measured<HttpSummary>): string {
  const n = s.params.slowClients;
  return `${n} slow client${n === 1 ? '' : 's'} reading ${formatCount(s.params.slowKbps)} KB/s each`;
}

/** "raised p50 latency 4× (120 ms vs 30 ms)": how a run's median latency compares with the baseline's. */
export function latencyChange(s: Measured<HttpSummary>, base: Measured<HttpSummary>): string {
  // Not measured (null: no response timed) is no ratio, and no "0.0 ms" either.
  if (s.latencyP50Ms === null || base.latencyP50Ms === null) return 'p50 latency not measured for both runs';
  const facts = `(${formatMs(s.latencyP50Ms)} vs ${formatMs(base.latencyP50Ms)})`;
  if (!(s.latencyP50Ms > 0) || !(base.latencyP50Ms > 0)) return `p50 latency ${facts}`;
  const ratio = s.latencyP50Ms / base.latencyP50Ms;
  if (ratio >= SAME_RATIO) return `raised p50 latency ${formatTimes(ratio)} ${facts}`;
  if (ratio <= 1 / SAME_RATIO) return `lowered p50 latency ${formatTimes(1 / ratio)} ${facts}`;
  return `left p50 latency about the same ${facts}`;
}

/** How many times the baseline's peak heapUsed is the run's (above 1: the run's was lower). */
export function heapRatio(s: Measured<HttpSummary>, base: Measured<HttpSummary>): number {
  return s.peak.heapUsed > 0 ? base.peak.heapUsed / s.peak.heapUsed : Infinity;
}

/** A hint when the buffered run's heap hardly grew: then no strategy can look lower. */
export function smallTableHint(base: Measured<HttpSummary>): string {
  const growth = base.aboveIdle?.heapUsed;
  if (growth === undefined || growth >= SMALL_GROWTH_BYTES) return '';
  return (
    ` ${BASELINE_STRATEGY}'s heap grew only ${formatMb(Math.max(0, growth))} above idle: its responses are too small to stand out ` +
    "from the server's own heap; try more rows or more clients at once."
  );
}

/** " and held at most 0.3 MB in socket buffers with 4 slow clients…", or "" without slow clients. */
function socketPart(s: Measured<HttpSummary>): string {
  return s.params.slowClients > 0 ? `; it held at most ${formatMbCeil(s.peakWritableBytes)} in socket buffers with ${slowPart(s)}` : '';
}

/** The figures socketPart quotes. */
function socketFigures(s: Measured<HttpSummary>): Figures {
  return s.params.slowClients > 0 ? { peakWritableBytes: s.peakWritableBytes, ...slowFigures(s) } : {};
}

/** The figures latencyChange quotes. */
function latencyFigures(s: Measured<HttpSummary>, base: Measured<HttpSummary>): Figures {
  const figures: Figures = { latencyP50Ms: s.latencyP50Ms, ...theirs(base, { latencyP50Ms: base.latencyP50Ms }) };
  if (s.latencyP50Ms !== null && base.latencyP50Ms !== null && s.latencyP50Ms > 0 && base.latencyP50Ms > 0)
    figures.latencyRatio = s.latencyP50Ms / base.latencyP50Ms;
  return figures;
}

/** The figures of a comparison of peak heaps, and smallTableHint's when it is said. */
function heapFigures(s: Measured<HttpSummary>, base: Measured<HttpSummary>, hint = false): Figures {
  const growth = hint && smallTableHint(base) ? theirs(base, { 'aboveIdle.heapUsed': Math.max(0, base.aboveIdle?.heapUsed ?? 0) }) : {};
  return { 'peak.heapUsed': s.peak.heapUsed, ...theirs(base, { 'peak.heapUsed': base.peak.heapUsed }), heapRatio: heapRatio(s, base), ...growth };
}

/** A pull (cursor) run: did streaming lower the heap compared with the buffered run? */
function cursorVerdict(s: Measured<HttpSummary>, base: Measured<HttpSummary> | undefined): Judged {
  if (!base) {
    return {
      text:
        `Served ${loadPart(s, ' from a cursor')}: heapUsed peaked at ${formatMb(s.peak.heapUsed)}, p50 latency ${formatMs(s.latencyP50Ms)}, ` +
        `first bytes after ${formatMs(s.ttfbP50Ms)}${socketPart(s)}. Run ${BASELINE_STRATEGY} beside it to compare.`,
      figures: { ...loadFigures(s), 'peak.heapUsed': s.peak.heapUsed, latencyP50Ms: s.latencyP50Ms, ttfbP50Ms: s.ttfbP50Ms, ...socketFigures(s) },
      // The lesson is a comparison, and the run it compares with is missing.
      expected: null,
    };
  }
  const ratio = heapRatio(s, base);
  const heaps = `(${formatMb(s.peak.heapUsed)} vs ${formatMb(base.peak.heapUsed)})`;
  const firstBytes = `first bytes after ${formatMs(s.ttfbP50Ms)} (${BASELINE_STRATEGY}: ${formatMs(base.ttfbP50Ms)})`;
  if (ratio >= LOWER_RATIO) {
    return {
      text: `Compared with ${BASELINE_STRATEGY}, streaming the response lowered peak heap ${formatTimes(ratio)} ${heaps} and ${latencyChange(s, base)}; ${firstBytes}${socketPart(s)}.`,
      figures: {
        ...heapFigures(s, base),
        ...latencyFigures(s, base),
        ttfbP50Ms: s.ttfbP50Ms,
        ...theirs(base, { ttfbP50Ms: base.ttfbP50Ms }),
        ...socketFigures(s),
      },
      expected: true,
    };
  }
  const lower = ratio > 1 ? `was only ${formatTimes(ratio)} lower than` : 'was not lower than';
  return {
    text:
      `Not what streaming should show: ${s.strategy}'s peak heap ${lower} ${BASELINE_STRATEGY}'s ${heaps}; it ${latencyChange(s, base)}.` +
      smallTableHint(base),
    figures: { ...heapFigures(s, base, true), ...latencyFigures(s, base) },
    expected: false,
  };
}

/** Rows read whole, then streamed out: the heap should stay near the buffered run's. */
function bufferedInVerdict(s: Measured<HttpSummary>, base: Measured<HttpSummary> | undefined): Judged {
  if (!base) {
    return {
      text:
        `Served ${loadPart(s)}: heapUsed peaked at ${formatMb(s.peak.heapUsed)}, p50 latency ${formatMs(s.latencyP50Ms)}. ` +
        `It loads every row before writing the first line; run ${BASELINE_STRATEGY} beside it to compare.`,
      figures: { ...loadFigures(s), 'peak.heapUsed': s.peak.heapUsed, latencyP50Ms: s.latencyP50Ms },
      expected: null,
    };
  }
  const ratio = heapRatio(s, base);
  const heaps = `(${formatMb(s.peak.heapUsed)} vs ${formatMb(base.peak.heapUsed)})`;
  if (ratio >= LOWER_RATIO) {
    return {
      text:
        `Not what this strategy should show: ${s.strategy} reads every row before writing, yet its peak heap was ${formatTimes(ratio)} ` +
        `lower than ${BASELINE_STRATEGY}'s ${heaps}.`,
      figures: heapFigures(s, base),
      expected: false,
    };
  }
  const notLower = ratio > 1 ? `was only ${formatTimes(ratio)} lower than ${BASELINE_STRATEGY}'s` : `was not lower than ${BASELINE_STRATEGY}'s`;
  return {
    text: `${s.strategy} streamed out but buffered in: its peak heap ${notLower} ${heaps}, because every row is in memory before the first line is written.`,
    figures: heapFigures(s, base),
    expected: true,
  };
}

/** True when a run's socket buffers piled up next to a pull run's: PILE_RATIO times as much, and at least PILE_MIN_BYTES. */
export function piledUp(s: Measured<HttpSummary>, pull: Measured<HttpSummary>): boolean {
  return s.peakWritableBytes >= PILE_MIN_BYTES && s.peakWritableBytes >= PILE_RATIO * pull.peakWritableBytes;
}

/** Writes that ignore drain: with slow clients the unread rows pile up in socket buffers. */
function drainVerdict(s: Measured<HttpSummary>, pull: Measured<HttpSummary> | undefined): Judged {
  const held = formatMb(s.peakWritableBytes);
  const beside = pull ? ` (${pull.strategy}: ${formatMb(pull.peakWritableBytes)})` : '';
  const own = { peakWritableBytes: s.peakWritableBytes };
  const pulls = pull ? theirs(pull, { peakWritableBytes: pull.peakWritableBytes }) : {};
  if (s.params.slowClients === 0) {
    return {
      text:
        `With no slow clients every response was read as fast as it was written, so ignoring drain cost little: socket buffers ` +
        `peaked at ${held}${beside}. Add slow clients to see the difference.`,
      figures: { ...own, ...pulls, 'params.slowClients': 0 },
      // Nothing read slowly, so nothing could pile up: the run can't show it either way.
      expected: null,
    };
  }
  if (!pull) {
    const pile = s.peakWritableBytes >= PILE_MIN_BYTES;
    const piled = pile ? ': res.write kept queueing rows the clients had not read' : ', too little to show a pile-up';
    return {
      text: `${s.strategy} held up to ${held} in socket buffers with ${slowPart(s)}${piled}. Run ndjson-cursor beside it to compare.`,
      figures: { ...own, ...slowFigures(s) },
      // A pile-up of PILE_MIN_BYTES shows on its own; less, with slow clients reading, is not what ignoring drain should show.
      expected: pile,
    };
  }
  const figures = { ...own, ...slowFigures(s), ...pulls };
  if (piledUp(s, pull)) {
    return {
      text: `${s.strategy} held ${held} in socket buffers with ${slowPart(s)}; ${pull.strategy} at most ${formatMbCeil(pull.peakWritableBytes)}.`,
      figures,
      expected: true,
    };
  }
  return {
    text:
      `Not what ignoring drain should show: with ${slowPart(s)}, ${s.strategy}'s socket buffers peaked at ${held}, ` +
      `not much more than ${pull.strategy}'s ${formatMb(pull.peakWritableBytes)}.`,
    figures,
    expected: false,
  };
}

/**
 * The buffered baseline on its own: the figures, whether nothing went out before the body was
 * built, and, with slow clients, the whole bodies res.end left queued in their sockets.
 */
function bufferedVerdict(s: Measured<HttpSummary>): Judged {
  const facts = `Served ${loadPart(s)}: heapUsed peaked at ${formatMb(s.peak.heapUsed)}, p50 latency ${formatMs(s.latencyP50Ms)}`;
  const piled = s.params.slowClients > 0 && s.peakWritableBytes >= PILE_MIN_BYTES;
  const slow = piled ? ` With ${slowPart(s)}, res.end handed their whole bodies to the sockets: up to ${formatMb(s.peakWritableBytes)} waited there.` : '';
  const figures = {
    ...loadFigures(s),
    'peak.heapUsed': s.peak.heapUsed,
    latencyP50Ms: s.latencyP50Ms,
    ttfbP50Ms: s.ttfbP50Ms,
    ...(piled && { ...slowFigures(s), peakWritableBytes: s.peakWritableBytes }),
  };
  // Headers go out with res.end(body), so a first byte later than the transfer means the wait was the building.
  if (s.ttfbP50Ms !== null && s.transferP50Ms !== null && s.ttfbP50Ms >= s.transferP50Ms && s.ttfbP50Ms > 0) {
    return {
      text: `${facts}, ${formatMs(s.ttfbP50Ms)} of it before the first byte: every body is built whole in memory before anything is sent.${slow}`,
      figures,
      expected: true,
    };
  }
  // The baseline is not held to a figure of its own beyond that: the lesson compares the others with it.
  return {
    text: `${facts}, first bytes after ${formatMs(s.ttfbP50Ms)} and ${formatMs(s.transferP50Ms)} of transfer.${slow}`,
    figures: { ...figures, transferP50Ms: s.transferP50Ms },
    expected: null,
  };
}

function completedVerdict(s: Measured<HttpSummary>, others: readonly Measured<HttpSummary>[], traits: StrategyTraits | undefined): Judged {
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
      return {
        text: `Served ${loadPart(s)}: heapUsed peaked at ${formatMb(s.peak.heapUsed)}, p50 latency ${formatMs(s.latencyP50Ms)}.`,
        figures: { ...loadFigures(s), 'peak.heapUsed': s.peak.heapUsed, latencyP50Ms: s.latencyP50Ms },
        expected: null,
      };
  }
}

/**
 * The verdict for a finished HTTP run. `others` are the experiment's other finished HTTP runs;
 * `traits` are the strategy's declarations: its role picks the lesson, and it is measured against
 * the first of its comparedWith that ran (a streamed run: buffered-json; write-ignoring-drain: a cursor).
 */
export function httpVerdict(s: Measured<HttpSummary>, others: readonly Measured<HttpSummary>[], traits: StrategyTraits | undefined): Verdict {
  const v = judgeHttp(s, others, traits);
  return { ...v, figures: knownFigures(v.figures) };
}

function judgeHttp(s: Measured<HttpSummary>, others: readonly Measured<HttpSummary>[], traits: StrategyTraits | undefined): Judged {
  const ended = (text: string, figures: Figures): Judged => ({ text, figures, expected: outcomeExpected(s.outcome, traits) });
  const heap = { 'peak.heapUsed': s.peak.heapUsed };
  switch (s.outcome) {
    case 'completed': {
      const judged = completedVerdict(s, others, traits);
      return { ...judged, expected: completedExpected(traits, judged.expected) };
    }
    case 'data-lost':
      return ended(`Only ${responsesPart(s)} came back complete and right (${formatCount(s.badResponses)} wrong)${reasonSuffix(s.reason)}.`, {
        ...responsesFigures(s),
        badResponses: s.badResponses,
      });
    case 'out-of-memory':
      return ended(
        `Out of memory: RSS reached ${formatMb(peakRssOf(s))} and ${memoryLimitText(s)} with up to ${s.peakOpenResponses} responses open, ` +
          `after ${responsesPart(s)}; heapUsed peaked at ${formatMb(s.peak.heapUsed)}.`,
        { ...peakRssFigures(s), peakOpenResponses: s.peakOpenResponses, ...responsesFigures(s), ...heap },
      );
    case 'crashed':
      return ended(`Crashed after ${responsesPart(s)}${reasonSuffix(s.reason)}.`, responsesFigures(s));
    case 'stopped':
      if (s.sampleCount === 0 && s.responsesOk === 0) return ended('Stopped before it started: nothing was measured.', {});
      return ended(`Stopped after ${formatSeconds(s.durationMs)} with ${responsesPart(s)} served; heapUsed peaked at ${formatMb(s.peak.heapUsed)}.`, {
        durationMs: s.durationMs,
        ...responsesFigures(s),
        ...heap,
      });
    case 'timed-out':
      return ended(`Timed out after ${s.params.timeoutS} s with ${responsesPart(s)} served; heapUsed peaked at ${formatMb(s.peak.heapUsed)}.`, {
        'params.timeoutS': s.params.timeoutS,
        ...responsesFigures(s),
        ...heap,
      });
    case 'interrupted':
      return ended(
        `Interrupted after ${formatSeconds(s.durationMs)}: ${s.reason ?? 'the server shut down'}, so the run has no result; ${responsesPart(s)} were served by then.`,
        { durationMs: s.durationMs, ...responsesFigures(s) },
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
export const verdict: LabVerdict = (s, siblings, traits) => httpVerdict(s as Measured<HttpSummary>, siblings as readonly Measured<HttpSummary>[], traits);
