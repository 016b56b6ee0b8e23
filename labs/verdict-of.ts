/**
 * A finished run's verdict, whatever its lab: its lab's own (labs/<lab>/view/verdict.ts, found by
 * folder), given the strategy's traits. Browser- and server-safe: the page passes the catalog's
 * traits it already has; the server's entry point (labs/verdicts.ts) looks them up itself.
 */
import type { LabVerdict, StrategyTraits } from '../components/lab-view';
import type { RunSummary, Verdict } from '../lib/protocol';
import { commonVerdict } from '../lib/readouts/outcome-text';
import { FOUND_VERDICTS } from './generated/verdicts';

function labVerdict(lab: string): LabVerdict | undefined {
  return FOUND_VERDICTS.find((f) => f.folder === lab)?.verdict;
}

/**
 * The verdict of a finished run of any lab, given the experiment's other finished runs (`others`
 * may hold any lab's and the run itself; only the same lab's others are compared with); for a lab
 * without a verdict of its own, how it ended.
 */
export function verdictOf(s: RunSummary, traits?: StrategyTraits, others: readonly RunSummary[] = []): Verdict {
  const judge = labVerdict(s.lab);
  const v = judge
    ? judge(
        s,
        others.filter((o) => o.lab === s.lab && o.runId !== s.runId),
        traits,
      )
    : commonVerdict(s, traits);
  // A ratio against a zero (a heap that never grew) is Infinity, which JSON can't carry: the figure is left out.
  return { ...v, figures: Object.fromEntries(Object.entries(v.figures).filter(([, x]) => typeof x === 'string' || Number.isFinite(x))) };
}
