/** The run a verdict compares with, for every lab's verdict (labs/<lab>/view/verdict.ts). Pure, no React. */
import type { RunSummary } from '../protocol';

/**
 * The run a verdict measures this one against: the first strategy of its `comparedWith` that has a
 * completed run among `others` passing `fits` (e.g. the same rows). Undefined without traits.
 */
export function counterpartOf<S extends RunSummary>(
  s: S,
  others: readonly S[],
  traits: { comparedWith?: readonly string[] } | undefined,
  fits: (o: S) => boolean = () => true,
): S | undefined {
  const done = others.filter((o) => o.runId !== s.runId && o.outcome === 'completed' && fits(o));
  for (const id of traits?.comparedWith ?? []) {
    const found = done.find((o) => o.strategy === id);
    if (found) return found;
  }
  return undefined;
}
