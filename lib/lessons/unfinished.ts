/** What every lesson concludes from a run that did not end the way its step needs: nothing, and why. Pure. */
import { isMeasured, type Outcome, type RunSummary } from '../protocol';

/** What a lesson step concludes from its runs' figures. */
export interface Conclusion {
  text: string;
  /** False when the measured figures contradict the lesson (or a run did not finish). */
  asExpected: boolean;
}

/**
 * When a run did not end the way the step needs it to (stopped, crashed, …), there is nothing to
 * conclude from it; returns that conclusion, or null when every run ended as wanted. `progress`
 * says how far a run of the lab got ("12 of 32 MB (38%) was processed", "3 of 20 responses").
 */
export function unfinished<S extends RunSummary>(runs: ReadonlyArray<[S, readonly Outcome[]]>, progress: (s: S) => string): Conclusion | null {
  const bad = runs.find(([s, wanted]) => !wanted.includes(s.outcome));
  if (!bad) return null;
  const [s, wanted] = bad;
  const why = s.reason ? ` (${s.reason.trim().replace(/\.$/, '')})` : '';
  return {
    asExpected: false,
    text: `${s.strategy} ended as ${s.outcome}${why} after ${progress(s)}, not ${wanted.join(' or ')} as this step needs, so it shows nothing about the lesson. Run the step again.`,
  };
}

/**
 * When a run took no sample (stopped or failed before its strategy started), there is nothing to
 * conclude from any of the step's runs: that conclusion, or null when every run measured something.
 */
export function unmeasured(runs: readonly RunSummary[]): Conclusion | null {
  const bad = runs.find((s) => !isMeasured(s));
  if (!bad) return null;
  const why = bad.reason ? ` (${bad.reason.trim().replace(/\.$/, '')})` : '';
  return {
    asExpected: false,
    text: `${bad.strategy} ended as ${bad.outcome}${why} before it measured anything, so it shows nothing about the lesson. Run the step again.`,
  };
}
