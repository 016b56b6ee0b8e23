/**
 * A run with its preparation: the lab makes what the run needs (a data file…), then the runner
 * starts it. What the CLI uses (the queue does the same in two steps, reporting 'preparing').
 */
import type { DataStatus, RunSummary } from '../../lib/protocol';
import { requireLab } from '../../labs/registry';
import type { Prepared } from '../../labs/types';
import { startRun, USER_STOP, type RunHandle, type RunRequest, type StopReason } from './runner';

export function prepareAndStart(req: Omit<RunRequest, 'prepared'>, report: (status: DataStatus) => void = () => {}): RunHandle & { prepared: Promise<Prepared> } {
  let inner: RunHandle | null = null;
  let stopped: StopReason | null = null;
  const prepared = requireLab(req.lab).prepare(req.params, report);
  const done: Promise<RunSummary> = prepared.then((p) => {
    inner = startRun({ ...req, prepared: p });
    if (stopped) inner.stop(stopped);
    return inner.done;
  });
  return {
    runId: req.runId,
    prepared,
    done,
    stop(why = USER_STOP) {
      stopped = why;
      inner?.stop(why);
    },
  };
}
