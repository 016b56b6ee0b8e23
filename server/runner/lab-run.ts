/**
 * A run with its preparation, the one way every caller starts a run: the in-process queue, the
 * Redis worker and the bench CLI. The lab makes what the run needs (a data file, a table…), the
 * caller may check it (the worker compares the data file with the web server's), then the runner
 * starts the child. A stop while preparing ends the run at once as unstarted (the preparation
 * finishes in the background, for the next run); a failed preparation ends it as crashed.
 */
import type { DataStatus, RunState, RunSummary } from '../../lib/protocol';
import { requireLab } from '../../labs/registry';
import type { Prepared } from '../../labs/types';
import { unstartedSummary } from './unstarted';
import { startRun, USER_STOP, type RunHandle, type RunRequest, type StopReason } from './runner';

export interface PrepareAndStartRequest extends Omit<RunRequest, 'prepared'> {
  /** The lab's preparation progress (data file written, rows inserted). */
  onData?: (status: DataStatus) => void;
  /** After the lab prepared and before the child starts; throwing ends the run as crashed with its message. */
  check?: (prepared: Prepared) => Promise<void>;
  /** Once prepared and checked, just before the child starts (e.g. to show the run's size). */
  onPrepared?: (prepared: Prepared) => void;
}

export interface PreparedRunHandle extends RunHandle {
  /**
   * What the lab prepared, once its preparation has settled (never rejects); null when it failed or
   * the run was stopped first. A caller that runs one job at a time waits for it as well as for
   * `done`: a run stopped while preparing ends at once, but its preparation (a data file, a
   * database) still holds the machine until it finishes.
   */
  readonly prepared: Promise<Prepared | null>;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The lab's preparation, then the caller's check of it. */
async function prepareChecked(req: PrepareAndStartRequest): Promise<Prepared> {
  const p = await requireLab(req.lab).prepare(req.params, req.onData ?? (() => {}));
  await req.check?.(p);
  return p;
}

export function prepareAndStart(req: PrepareAndStartRequest): PreparedRunHandle {
  let inner: RunHandle | null = null;
  let ended = false;
  let resolveDone!: (s: RunSummary) => void;
  let rejectDone!: (err: unknown) => void;
  const done = new Promise<RunSummary>((resolve, reject) => ((resolveDone = resolve), (rejectDone = reject)));
  const end = (summary: RunSummary) => {
    if (ended) return;
    ended = true;
    resolveDone(summary);
  };
  /** Ends the run before its child started; if even that summary can't be made (no such lab or strategy), `done` rejects. */
  const endUnstarted = (reason: string, outcome: 'stopped' | 'crashed' | 'interrupted') => {
    if (ended) return;
    try {
      end(
        unstartedSummary(
          { lab: req.lab, id: req.runId, strategy: req.strategy, params: req.params as RunState['params'], preparedUnits: null },
          reason,
          outcome,
        ),
      );
    } catch (err) {
      ended = true;
      rejectDone(err);
    }
  };
  const prepared = prepareChecked(req);
  prepared.then(
    (p) => {
      if (ended) return; // stopped while it was being prepared: it has ended already
      try {
        req.onPrepared?.(p);
        inner = startRun({ ...req, prepared: p });
      } catch (err) {
        return endUnstarted(errorText(err), 'crashed');
      }
      void inner.done.then(end, (err: unknown) => ((ended = true), rejectDone(err)));
    },
    (err: unknown) => endUnstarted(errorText(err), 'crashed'),
  );

  return {
    runId: req.runId,
    prepared: prepared.then(
      (p) => (ended && !inner ? null : p),
      () => null,
    ),
    done,
    snapshot() {
      if (inner) return inner.snapshot();
      return Promise.resolve({ n: 0, trigger: 'now', atMs: 0, pauseMs: 0, before: null, bytes: 0, analysis: null, error: 'the run has not started yet' });
    },
    stop(why: StopReason = USER_STOP) {
      if (inner) return inner.stop(why);
      endUnstarted(why.outcome === 'stopped' ? `${why.reason} before it started` : why.reason, why.outcome);
    },
  };
}
