/**
 * Wording every lab's verdict shares for how a run ended badly: which memory limit it crossed and
 * why it crashed, and how a verdict's `expected` is told from the strategy's declared outcome.
 * Pure; each lab's verdict adds how far its own work got and what its figures show.
 */
import { MIB } from '../protocol/params';
import type { Outcome, RunSummary, Verdict } from '../protocol';
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

/** The figures every ending quotes from the common summary fields: RSS against the budget, how long. */
export function peakRssFigures(s: Pick<RunSummary, 'peak' | 'procPeakRss' | 'params'>): Record<string, number> {
  const budget = s.params.budgetMb;
  return { peakRss: peakRssOf(s), ...(budget !== null && { 'params.budgetMb': budget }) };
}

/** A fenced strategy stopped at the first thing its fence forbids: what it tried, and why nothing else was measured. */
export function refusedText(s: Pick<RunSummary, 'reason' | 'durationMs'>): string {
  return `Refused after ${formatSeconds(s.durationMs)}: ${s.reason ?? 'the strategy tried something its fence forbids'}. Strategies of yours run fenced (no file writes, no signal or connection beyond their own run; only what their lab's harness needs besides), so the run ended there.`;
}

/** Highest RSS seen, from inside the child or from /proc. */
export function peakRssOf(s: Pick<RunSummary, 'peak' | 'procPeakRss'>): number {
  return Math.max(s.peak.rss, s.procPeakRss);
}

/** "passed the 80 MB memory budget" or "hit the V8 heap limit": what ended an out-of-memory run. */
export function memoryLimitText(s: Pick<RunSummary, 'peak' | 'procPeakRss' | 'params'>): string {
  const budgetMb = s.params.budgetMb;
  return budgetMb !== null && peakRssOf(s) > budgetMb * MIB ? `passed the ${budgetMb} MB memory budget` : 'hit the V8 heap limit';
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
export function commonVerdict(s: RunSummary, traits?: Expecting): Verdict {
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
      return s.sampleCount === 0
        ? text('Stopped before it started: nothing was measured.', {})
        : text(`Stopped after ${formatSeconds(s.durationMs)}; ${heap}.`, { ...duration, ...heapFigure });
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
