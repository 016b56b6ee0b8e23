/**
 * The door of /ws: Host and Origin checks (server/http/access.ts) and the connection caps, before
 * ws sees the upgrade. A refused socket gets a plain HTTP status and a sentence saying why.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { hostAllowed, originAllowed, type AccessPolicy } from '../http/access';
import type { ConnectionCounter } from './limits';

/** Writes a plain HTTP refusal on a socket that asked to upgrade, then closes it. */
function refuse(socket: Duplex, status: number, reason: string, message: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(message)}\r\n\r\n${message}`,
  );
}

/**
 * Lets an upgrade in (returning the function that counts it out when the socket closes), or
 * answers it: 421 for a foreign Host, 403 for a foreign Origin, 503 past the caps.
 */
export function admit(req: IncomingMessage, socket: Duplex, access: AccessPolicy, connections: ConnectionCounter): (() => void) | null {
  if (!hostAllowed(access, req)) {
    refuse(socket, 421, 'Misdirected Request', `this server does not answer to host "${req.headers.host ?? ''}"; see README, Security`);
    return null;
  }
  if (!originAllowed(access, req)) {
    const origin = req.headers.origin ?? '(none)';
    refuse(socket, 403, 'Forbidden', `origin ${origin} may not open the lab socket; set STREAM_LAB_ALLOWED_ORIGINS to allow it`);
    return null;
  }
  const address = req.socket.remoteAddress ?? 'unknown';
  const refusal = connections.refusal(address);
  if (refusal) {
    refuse(socket, 503, 'Service Unavailable', `too many connections: ${refusal}; try again later`);
    return null;
  }
  const release = connections.open(address);
  socket.once('close', release);
  return release;
}
