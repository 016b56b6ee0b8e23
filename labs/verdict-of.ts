/**
 * A finished run's verdict, whatever its lab: its lab's own (labs/<lab>/view/verdict.ts, found by
 * folder), given the strategy's traits. Browser- and server-safe: the page passes the catalog's
 * traits it already has; the server's entry point (labs/verdicts.ts) looks them up itself.
 */
import type { LabVerdict, StrategyTraits } from '../components/lab-view';
import { isMeasured, type RunSummary, type Verdict } from '../lib/protocol';
import { commonVerdict, unmeasuredVerdict } from '../lib/readouts/outcome-text';
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
  // A run with no sample has no figures to judge, and a sibling with none is nothing to compare with.
  if (!isMeasured(s)) return unmeasuredVerdict(s, traits);
  const judge = labVerdict(s.lab);
  const v = judge ? judge(s, others.filter((o) => o.lab === s.lab && o.runId !== s.runId).filter(isMeasured), traits) : commonVerdict(s, traits);
  // A ratio against a zero (a heap that never grew) is Infinity, which JSON can't carry: the figure is left out.
  return { ...v, figures: Object.fromEntries(Object.entries(v.figures).filter(([, x]) => typeof x === 'string' || Number.isFinite(x))) };
}
