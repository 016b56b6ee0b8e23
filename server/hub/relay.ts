/**
 * The queue's events, to every page: structural ones (a run queued, ended…) broadcast at once,
 * samples batched per page by its ClientConn. Each also makes the shared snapshot stale: new
 * samples may wait up to a second (the samples since are sent with it), anything else rebuilds it.
 */
import type { ServerMessage } from '../../lib/protocol';
import type { QueueListener } from '../queue/run-queue';
import type { ClientConn } from './client-conn';

export interface RelayTargets {
  invalidate(what: 'series' | 'structure'): void;
  broadcast(message: ServerMessage): void;
  /** Calls `send` with every connected page. */
  each(send: (conn: ClientConn) => void): void;
}

export function relayQueueEvents(to: RelayTargets): QueueListener {
  const structural = (message: ServerMessage) => {
    to.invalidate('structure');
    to.broadcast(message);
  };
  return {
    experimentCreated: (experiment) => structural({ type: 'experiment.created', experiment }),
    queueChanged: (queue) => structural({ type: 'queue.order', queue }),
    runQueued: (run) => structural({ type: 'run.queued', run }),
    runUpdated: (run) => structural({ type: 'run.updated', run }),
    runEnded: (run, summary) => structural({ type: 'run.ended', run, summary }),
    runSample: (runId, sample) => {
      to.invalidate('series');
      to.each((conn) => conn.queueSample(runId, sample));
    },
    runProc: (runId, proc) => {
      to.invalidate('series');
      to.each((conn) => conn.queueProc(runId, proc));
    },
    // Rare (a few a second per running run) and small: sent at once; the snapshot folds them.
    runLive: (runId, update) => structural({ type: 'run.live', runId, update }),
    dataProgress: (data) => {
      to.invalidate('series');
      to.broadcast({ type: 'data.progress', data });
    },
    backendChanged: (backend) => structural({ type: 'queue.backend', backend }),
  };
}
