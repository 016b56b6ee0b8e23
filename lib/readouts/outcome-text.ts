/**
 * Wording every lab's verdict shares for how a run ended badly: which memory limit it crossed and
 * why it crashed. Pure; each lab's verdict adds how far its own work got.
 */
import { MIB } from '../protocol/params';
import type { RunSummary } from '../protocol';

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
