/**
 * Wording every lab's verdict shares for how a run ended badly: which memory limit it crossed and
 * why it crashed. Pure; each lab's verdict adds how far its own work got.
 */
import { MIB } from '../protocol/params';
import type { RunSummary } from '../protocol';
import { formatMb, formatSeconds } from './format';

/** A fenced strategy stopped at the first thing its fence forbids: what it tried, and why nothing else was measured. */
export function refusedText(s: Pick<RunSummary, 'reason' | 'durationMs'>): string {
  return `Refused after ${formatSeconds(s.durationMs)}: ${s.reason ?? 'the strategy tried something its fence forbids'}. Strategies of yours run fenced (no file writes, no child processes, no worker threads), so the run ended there.`;
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
 * their own yet, so its runs still say how they ended and what they held, in numbers.
 */
export function commonVerdict(s: RunSummary): string {
  const heap = `heapUsed peaked at ${formatMb(s.peak.heapUsed)}`;
  switch (s.outcome) {
    case 'completed':
      return `Completed in ${formatSeconds(s.durationMs)}: ${heap}, RSS at ${formatMb(peakRssOf(s))}, event-loop delay at most ${s.eventLoopDelayMs.max.toFixed(1)} ms.`;
    case 'data-lost':
      return `Not all the work came back right${reasonSuffix(s.reason)}; ${heap}.`;
    case 'out-of-memory':
      return `Out of memory: RSS reached ${formatMb(peakRssOf(s))} and ${memoryLimitText(s)}.`;
    case 'crashed':
      return `Crashed after ${formatSeconds(s.durationMs)}${reasonSuffix(s.reason)}.`;
    case 'stopped':
      return s.sampleCount === 0 ? 'Stopped before it started: nothing was measured.' : `Stopped after ${formatSeconds(s.durationMs)}; ${heap}.`;
    case 'timed-out':
      return `Timed out after ${s.params.timeoutS} s; ${heap}.`;
    case 'interrupted':
      return `Interrupted after ${formatSeconds(s.durationMs)}: ${s.reason ?? 'the server shut down'}, so the run has no result.`;
    case 'refused':
      return refusedText(s);
    default: {
      const never: never = s.outcome;
      return String(never);
    }
  }
}
