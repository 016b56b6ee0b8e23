/**
 * Where runs are queued, when it is not this server: with the Redis back end the page says that
 * runs go to workers and how many are up, warns when none is (runs would wait), and says loudly when
 * Redis cannot be reached (nothing new can be queued; runs on workers go on). Nothing for the
 * in-process queue.
 */
import type { QueueBackend } from '@/lib/protocol';

export function QueueBackendNotice({ backend }: { backend: QueueBackend | null }) {
  if (!backend || backend.kind === 'in-process') return null;
  if (backend.connected) {
    const workers = backend.workers ?? null;
    if (workers?.count === 0) {
      return (
        <p className="panel note queue-backend" data-testid="queue-backend" data-connected="true" data-workers="0" role="status">
          Runs go to worker machines through Redis, and no worker is connected: runs wait until one starts (<code>npm run worker</code>, see docs/scale-out.md).
        </p>
      );
    }
    const listed = workers ? ` (${workers.count} worker${workers.count === 1 ? '' : 's'}, ${workers.slots} run${workers.slots === 1 ? '' : 's'} at once)` : '';
    return (
      <p className="muted queue-backend" data-testid="queue-backend" data-connected="true" data-workers={workers?.count ?? ''}>
        Runs go to worker machines through Redis{listed}: each card says which worker ran it.
      </p>
    );
  }
  return (
    <p className="panel note queue-backend" data-testid="queue-backend" data-connected="false" role="alert">
      Job queue: {backend.message}
    </p>
  );
}
