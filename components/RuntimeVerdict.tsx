'use client';

/**
 * Under the results of runs made on more than one Node version: per strategy, what moved between
 * versions beyond the run-to-run noise and what did not, computed from these runs' figures
 * (lib/readouts/runtime-verdict.ts). Also the runtime tag the results tables put beside a strategy.
 */
import { isMeasured, type RunState, type StrategyInfo } from '@/lib/protocol';
import { runtimeVerdict } from '@/lib/readouts/runtime-verdict';
import { compareVersions } from '@/lib/runtimes';
import { strategyLabel } from '@/components/history/labels';

/** "Node 22.23.3" beside a strategy's name, when the table holds runs of several versions. */
export function RuntimeTag({ run, show }: { run: RunState; show: boolean }) {
  if (!show || !run.summary) return null;
  return (
    <span className="badge runtime" data-testid="runtime-tag">
      Node {run.summary.nodeVersion}
    </span>
  );
}

/** Runs grouped strategy × runtime: each strategy's runs together, oldest Node first, otherwise in their order. */
export function byStrategyAndRuntime(runs: readonly RunState[]): RunState[] {
  const strategies = [...new Set(runs.map((r) => r.strategy))];
  return [...runs].sort(
    (a, b) => strategies.indexOf(a.strategy) - strategies.indexOf(b.strategy) || compareVersions(a.summary?.nodeVersion ?? '0', b.summary?.nodeVersion ?? '0'),
  );
}

export function RuntimeVerdict({ runs, strategies }: { runs: readonly RunState[]; strategies: readonly StrategyInfo[] }) {
  // Only runs that took samples have peaks to compare.
  const verdict = runtimeVerdict(runs.flatMap((r) => (r.summary && isMeasured(r.summary) ? [r.summary] : [])));
  if (verdict.length === 0) return null;
  const label = (id: string) => strategyLabel(strategies, runs[0]?.lab ?? '', id);
  return (
    <div className="runtime-verdict" data-testid="runtime-verdict">
      <h4>Between Node versions</h4>
      <ul>
        {verdict.map((v) => (
          <li key={v.strategy} data-strategy={v.strategy}>
            <strong>{label(v.strategy)}</strong>:{' '}
            {v.moved.length > 0 ? `${v.moved.length} change${v.moved.length > 1 ? 's' : ''} beyond the noise` : 'no figure moved beyond the noise'}
            {v.steady.length > 0 && <span className="muted"> ({v.steady.join(', ')} within it)</span>}
            {v.moved.length > 0 && (
              <ul>
                {v.moved.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
      <p className="muted">Computed from these runs: each newer Node against the oldest, medians when a version ran more than once.</p>
    </div>
  );
}
