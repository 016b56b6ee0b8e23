/**
 * Where runs are queued, when it is not this server: with the Redis back end the page says that
 * runs go to workers, and says loudly when Redis cannot be reached (nothing new can be queued;
 * runs on workers go on). Nothing for the in-process queue.
 */
import type { QueueBackend } from '@/lib/protocol';

export function QueueBackendNotice({ backend }: { backend: QueueBackend | null }) {
  if (!backend || backend.kind === 'in-process') return null;
  if (backend.connected) {
    return (
      <p className="muted queue-backend" data-testid="queue-backend" data-connected="true">
        Runs go to worker machines through Redis: each card says which worker ran it.
      </p>
    );
  }
  return (
    <p className="panel note queue-backend" data-testid="queue-backend" data-connected="false" role="alert">
      Job queue: {backend.message}
    </p>
  );
}
