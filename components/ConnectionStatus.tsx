/** The socket state as a dot and a word; the element's text is exactly the state. */
import type { ConnectionState } from '@/components/hooks/useLabSocket';

export function ConnectionStatus({ connection }: { connection: ConnectionState }) {
  return (
    <p className={`connection connection-${connection}`} role="status" aria-live="polite">
      <span className="dot" aria-hidden="true" />
      <span className="visually-hidden">Server connection: </span>
      <span data-testid="connection-status">{connection}</span>
      {connection === 'disconnected' && <span className="muted reconnect-note">reconnecting by itself; figures may be stale</span>}
    </p>
  );
}
