/**
 * Wording every lab's verdict shares for how a run ended badly: which memory limit it crossed and
 * why it crashed, and how a verdict's `expected` is told from the strategy's declared outcome.
 * Pure; each lab's verdict adds how far its own work got and what its figures show.
 */
import { MIB } from '../protocol/params';
import type { Measured, Memory, Outcome, RunSummary, Verdict } from '../protocol';
import { formatMb, formatSeconds } from './format';

/** What a verdict needs to know of the strategy's expectation (the catalog's StrategyTraits has it). */
type Expecting = { expectedOutcome?: Outcome | null } | undefined;

/**
 * Does a run that ended this way show what its strategy is expected to show, as far as its outcome
 * tells? null when it can't be told: a person stopped it, the server went down, or the strategy
 * declares no outcome (one of yours). A completed run still needs its figures judged (completedExpected).
 */
export function outcomeExpected(outcome: Outcome, traits: Expecting): boolean | null {
  if (outcome === 'stopped' || outcome === 'interrupted') return null;
  const declared = traits?.expectedOutcome;
  if (declared === null || declared === undefined) return null;
  return outcome === declared;
}

/**
 * `expected` of a completed run: false when its strategy is expected to end otherwise (the
 * fromEvent readers lose data), else what its figures say (`byFigures`).
 */
export function completedExpected(traits: Expecting, byFigures: boolean | null): boolean | null {
  const declared = traits?.expectedOutcome;
  if (declared !== null && declared !== undefined && declared !== 'completed') return false;
  return byFigures;
}

/** The figures every ending quotes from the common summary fields: RSS against the budget (when RSS was read at all). */
export function peakRssFigures(s: Pick<RunSummary, 'peak' | 'procPeakRss' | 'params'>): Record<string, number> {
  const budget = s.params.budgetMb;
  const rss = peakRssOf(s);
  return { ...(rss !== null && { peakRss: rss }), ...(budget !== null && { 'params.budgetMb': budget }) };
}

/** A fenced strategy stopped at the first thing its fence forbids: what it tried, and why nothing else was measured. */
export function refusedText(s: Pick<RunSummary, 'reason' | 'durationMs'>): string {
  return `Refused after ${formatSeconds(s.durationMs)}: ${s.reason ?? 'the strategy tried something its fence forbids'}. Strategies of yours run fenced (no file writes, no signal or connection beyond their own run; only what their lab's harness needs besides), so the run ended there.`;
}

type Peaks = { peak: Memory | null; procPeakRss: number | null };

/** Highest RSS seen, from inside the child or from /proc; null when neither was read (the run never started). */
export function peakRssOf(s: { peak: Memory; procPeakRss: number | null }): number;
export function peakRssOf(s: Peaks): number | null;
export function peakRssOf(s: Peaks): number | null {
  const known = [s.peak?.rss, s.procPeakRss].filter((v): v is number => typeof v === 'number');
  return known.length > 0 ? Math.max(...known) : null;
}

/** "passed the 80 MB memory budget" or "hit the V8 heap limit": what ended an out-of-memory run. */
export function memoryLimitText(s: Pick<RunSummary, 'peak' | 'procPeakRss' | 'params'>): string {
  const budgetMb = s.params.budgetMb;
  const rss = peakRssOf(s);
  return budgetMb !== null && rss !== null && rss > budgetMb * MIB ? `passed the ${budgetMb} MB memory budget` : 'hit the V8 heap limit';
}

/** ": killed by SIGSEGV" from a run's reason (no trailing full stop), or "" when it has none. */
export function reasonSuffix(reason: string | null): string {
  return reason ? `: ${reason.trim().replace(/\.$/, '')}` : '';
}

/**
 * A verdict from the fields every lab's summary has: for a lab whose pages have no verdict of
 * their own yet, so its runs still say how they ended and what they held, in numbers. A completed
 * run's figures are not held to any lesson here, so its `expected` is null.
 */
export function commonVerdict(s: Measured<RunSummary>, traits?: Expecting): Verdict {
  const expected = s.outcome === 'completed' ? completedExpected(traits, null) : outcomeExpected(s.outcome, traits);
  const text = (t: string, figures: Verdict['figures']): Verdict => ({ text: t, figures, expected });
  const heap = `heapUsed peaked at ${formatMb(s.peak.heapUsed)}`;
  const heapFigure = { 'peak.heapUsed': s.peak.heapUsed };
  const duration = { durationMs: s.durationMs };
  switch (s.outcome) {
    case 'completed':
      return text(
        `Completed in ${formatSeconds(s.durationMs)}: ${heap}, RSS at ${formatMb(peakRssOf(s))}, event-loop delay at most ${s.eventLoopDelayMs.max.toFixed(1)} ms.`,
        { ...duration, ...heapFigure, peakRss: peakRssOf(s), 'eventLoopDelayMs.max': s.eventLoopDelayMs.max },
      );
    case 'data-lost':
      return text(`Not all the work came back right${reasonSuffix(s.reason)}; ${heap}.`, heapFigure);
    case 'out-of-memory':
      return text(`Out of memory: RSS reached ${formatMb(peakRssOf(s))} and ${memoryLimitText(s)}.`, peakRssFigures(s));
    case 'crashed':
      return text(`Crashed after ${formatSeconds(s.durationMs)}${reasonSuffix(s.reason)}.`, duration);
    case 'stopped':
      return text(`Stopped after ${formatSeconds(s.durationMs)}; ${heap}.`, { ...duration, ...heapFigure });
    case 'timed-out':
      return text(`Timed out after ${s.params.timeoutS} s; ${heap}.`, { 'params.timeoutS': s.params.timeoutS, ...heapFigure });
    case 'interrupted':
      return text(`Interrupted after ${formatSeconds(s.durationMs)}: ${s.reason ?? 'the server shut down'}, so the run has no result.`, duration);
    case 'refused':
      return text(refusedText(s), duration);
    default: {
      const never: never = s.outcome;
      return text(String(never), {});
    }
  }
}

/**
 * The verdict of a run that took no sample, whatever its lab: stopped or failed before its strategy
 * started, or ended before the sampler's first reading. Its lab's figures fold from samples too, so
 * there is nothing to judge: it says how the run ended and that nothing was measured, never zeros.
 */
export function unmeasuredVerdict(s: RunSummary, traits?: Expecting): Verdict {
  const expected = s.outcome === 'completed' ? completedExpected(traits, null) : outcomeExpected(s.outcome, traits);
  const text = (t: string, figures: Verdict['figures'] = {}): Verdict => ({ text: t, figures, expected });
  // A run ended before its process was started (in the queue, while preparing) has no time at all.
  const when = s.durationMs === 0 ? 'before it started' : 'before its first sample';
  const rss = peakRssOf(s);
  switch (s.outcome) {
    case 'stopped':
      return text(`Stopped ${when}: nothing was measured.`);
    case 'crashed':
      return text(`Crashed ${when}, so nothing was measured${reasonSuffix(s.reason)}.`);
    case 'out-of-memory':
      // The budget is checked against /proc too, so the RSS that ended it may be known.
      return rss === null
        ? text(`Out of memory ${when}, so nothing was measured${reasonSuffix(s.reason)}.`)
        : text(`Out of memory ${when}: RSS reached ${formatMb(rss)} (read from outside) and ${memoryLimitText(s)}.`, peakRssFigures(s));
    case 'timed-out':
      return text(`Timed out after ${s.params.timeoutS} s ${when}: nothing was measured.`, { 'params.timeoutS': s.params.timeoutS });
    case 'interrupted':
      return text(`Interrupted ${when}: ${s.reason ?? 'the server shut down'}, so the run has no result.`);
    case 'refused':
      return text(refusedText(s), { durationMs: s.durationMs });
    case 'completed':
    case 'data-lost':
      return text(`Ended as ${s.outcome} ${when}, so nothing was measured.`);
    default: {
      const never: never = s.outcome;
      return text(String(never));
    }
  }
}

/** A verdict's figures without those not measured (null): a verdict quotes what was measured, never a stand-in 0. */
export function knownFigures(figures: Record<string, number | string | null | undefined>): Record<string, number | string> {
  return Object.fromEntries(Object.entries(figures).filter(([, v]) => v !== null && v !== undefined)) as Record<string, number | string>;
}
