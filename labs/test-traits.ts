/**
 * For tests of the verdicts: a run's strategy traits as the page gets them, from the catalog built
 * from the strategy files themselves (their declared role and comparedWith), so the tests hold the
 * verdicts to the declarations and not to a copy of them.
 */
import type { StrategyTraits } from '../components/lab-view';
import { strategyInfo } from '../components/history/labels';
import { strategyCatalog } from './catalog';

/** The traits of the summary's strategy in its lab; throws for a strategy the lab does not have. */
export function traitsOf(s: { lab: string; strategy: string }): StrategyTraits {
  const info = strategyInfo(strategyCatalog(), s.lab, s.strategy);
  if (!info) throw new Error(`no strategy ${s.strategy} in lab ${s.lab}`);
  return info;
}
