/** For server tests: a page's WebSocket to /ws that records every message and can wait for one. */
import WebSocket from 'ws';
import type { ServerMessage } from '../lib/protocol';

/** A real `ws` client that records every message and can wait for one matching a predicate. */
export class TestClient {
  readonly messages: ServerMessage[] = [];
  private waiters: Array<{ match: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }> = [];
  readonly ws: WebSocket;
  readonly opened: Promise<void>;

  constructor(url: string) {
    // A page's socket: it carries the page's own origin, as a browser's does.
    this.ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, { origin: url });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as ServerMessage;
      this.messages.push(m);
      this.waiters = this.waiters.filter((w) => (w.match(m) ? (w.resolve(m), false) : true));
    });
  }

  send(value: unknown): void {
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  /** The first message (already received or future) that matches. */
  next<T extends ServerMessage['type']>(type: T, match: (m: Extract<ServerMessage, { type: T }>) => boolean = () => true, after = 0) {
    const pred = (m: ServerMessage) => m.type === type && match(m as Extract<ServerMessage, { type: T }>);
    const seen = this.messages.slice(after).find(pred);
    if (seen) return Promise.resolve(seen as Extract<ServerMessage, { type: T }>);
    return new Promise<Extract<ServerMessage, { type: T }>>((resolve) => this.waiters.push({ match: pred, resolve: resolve as (m: ServerMessage) => void }));
  }

  close(): void {
    this.ws.close();
  }
}
