/** The summary of a run that ended before its process started (stopped in the queue, failed to prepare). */
import type { RunState, RunSummary } from '../../lib/protocol';
import { declaredVersion } from '../../labs/catalog';
import { findStrategy, requireLab } from '../../labs/registry';
import { RunRecorder } from './summary';

export function unstartedSummary(
  state: Pick<RunState, 'lab' | 'id' | 'strategy' | 'params' | 'preparedUnits'>,
  reason: string,
  outcome: 'stopped' | 'crashed' | 'interrupted',
): RunSummary {
  const lab = requireLab(state.lab);
  // A strategy of yours may have gone from its folder while the run waited.
  const library = findStrategy(state.lab, state.strategy)?.library ?? 'node';
  const recorder = new RunRecorder(lab.newRecorder({ scenario: {}, total: state.preparedUnits ?? lab.expectedTotal(state.params) }, state.params));
  return recorder.summarize({
    lab: state.lab,
    runId: state.id,
    strategy: state.strategy,
    outcome,
    reason,
    durationMs: 0,
    params: state.params,
    library: { name: library, version: declaredVersion(library) },
    startedAt: Date.now(),
  });
}
