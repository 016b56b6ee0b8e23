/**
 * The WebSocket to `/ws` with its reconnect policy, apart from React: validates each message,
 * reconnects with backoff, asks for a snapshot if none comes. Returns its disposer.
 */
import { readIdentity } from './browser-identity';
import { serverMessageSchema, type ClientRequest, type ServerMessage } from '@/lib/protocol';

export type ConnectionState = 'connecting' | 'connected' | 'disconnected';

const RECONNECT_FIRST_MS = 250;
const RECONNECT_MAX_MS = 3000;
/** The server sends a snapshot on connect; ask again if it has not come by then. */
const SNAPSHOT_WAIT_MS = 1500;

export interface LabConnectionHandlers {
  /** Every valid server message, in arrival order. */
  onMessage(message: ServerMessage): void;
  /** 'connecting' and 'disconnected' only: 'connected' is decided by whoever applies the snapshot. */
  onState(state: Exclude<ConnectionState, 'connected'>): void;
}

export interface LabConnection {
  /** Sends a message; false when there is no open socket. */
  send(message: ClientRequest): boolean;
  /** Says hello again (after the name or the operator token changed). */
  reintroduce(): void;
  close(): void;
}

function socketUrl(): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}/ws`;
}

/** Parses and validates one frame; invalid ones are reported and dropped, never trusted. */
export function parseServerMessage(raw: unknown): ServerMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(String(raw));
  } catch {
    console.warn('[stream-lab] ignored a message that is not JSON');
    return null;
  }
  const parsed = serverMessageSchema.safeParse(value);
  if (!parsed.success) {
    console.warn('[stream-lab] ignored an invalid server message', parsed.error.issues.slice(0, 3));
    return null;
  }
  return parsed.data;
}

/** Opens the lab socket and keeps it open (reconnecting after drops) until close() is called. */
export function openLabConnection(handlers: LabConnectionHandlers): LabConnection {
  let socket: WebSocket | null = null;
  let closed = false;
  let attempt = 0;
  let retryTimer: number | undefined;
  let snapshotTimer: number | undefined;

  const connect = () => {
    retryTimer = undefined;
    handlers.onState('connecting');
    const ws = new WebSocket(socketUrl());
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      // Say who this browser is first, so its experiments are its own in the room.
      send({ type: 'hello', ...readIdentity() });
      snapshotTimer = window.setTimeout(() => send({ type: 'resync' }), SNAPSHOT_WAIT_MS);
    };
    ws.onmessage = (event: MessageEvent) => {
      if (closed || socket !== ws) return;
      const message = parseServerMessage(event.data);
      if (!message) return;
      if (message.type === 'snapshot') window.clearTimeout(snapshotTimer);
      handlers.onMessage(message);
    };
    ws.onclose = () => {
      window.clearTimeout(snapshotTimer);
      if (socket === ws) socket = null;
      if (closed) return;
      handlers.onState('disconnected');
      const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** attempt);
      attempt += 1;
      retryTimer = window.setTimeout(connect, delay);
    };
    // An error is always followed by close, which owns the retry.
    ws.onerror = () => undefined;
  };

  // Coming back online should not wait for the backoff to run out.
  const onOnline = () => {
    if (socket || retryTimer === undefined) return;
    window.clearTimeout(retryTimer);
    connect();
  };

  function send(message: ClientRequest): boolean {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  connect();
  window.addEventListener('online', onOnline);
  return {
    send,
    reintroduce: () => void send({ type: 'hello', ...readIdentity() }),
    close() {
      closed = true;
      window.removeEventListener('online', onOnline);
      window.clearTimeout(retryTimer);
      window.clearTimeout(snapshotTimer);
      socket?.close();
      socket = null;
    },
  };
}
