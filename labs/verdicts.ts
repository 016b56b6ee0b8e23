/**
 * The verdict of a run for the server and the bench CLI: no React on its import chain (it runs
 * under `node --import tsx`), and the strategy's traits looked up in the catalog here, so callers
 * need only summaries. The page has the catalog already and calls labs/verdict-of.ts directly.
 */
import type { StrategyTraits } from '../components/lab-view';
import type { RunSummary, Verdict } from '../lib/protocol';
import { strategyCatalog } from './catalog';
import { verdictOf } from './verdict-of';

/** The catalog's traits of a lab's strategy (built-in or one of yours), or undefined for one it doesn't know. */
export function traitsFor(lab: string, strategy: string): StrategyTraits | undefined {
  return strategyCatalog().find((s) => s.lab === lab && s.id === strategy);
}

/**
 * The verdict of a finished run: `{ text, figures, expected }` (lib/protocol's Verdict). `others`:
 * the other finished runs of its experiment (any lab; the run itself is skipped if present), which
 * verdicts that compare (the HTTP, CPU and hot-code labs') measure it against.
 */
export function verdictFor(summary: RunSummary, others: readonly RunSummary[] = []): Verdict {
  return verdictOf(summary, traitsFor(summary.lab, summary.strategy), others);
}
