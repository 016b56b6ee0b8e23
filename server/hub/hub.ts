/**
 * The WebSocket hub: validates every browser message at the boundary, hands commands to the Lab and
 * fans the Lab's events out to every connected browser.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { describeZodError } from '../../lib/params';
import {
  clientMessageSchema,
  MAX_CLIENT_MESSAGE_BYTES,
  type ClientMessage,
  type ServerMessage,
} from '../../lib/protocol';
import { strategyCatalog } from '../strategies/catalog';
import { ClientConn } from './client-conn';
import { Lab, type LabListener } from './lab';

export const WS_PATH = '/ws';

export class Hub {
  readonly lab: Lab;
  private readonly wss: WebSocketServer;
  private readonly clients = new Map<WebSocket, ClientConn>();

  constructor(private readonly opts: { maxSizeMb: number; observers?: LabListener[] }) {
    // maxPayload makes ws refuse (close 1009) anything far beyond our limit before buffering it;
    // messages between 64 KiB and that get a typed error reply below.
    this.wss = new WebSocketServer({ noServer: true, maxPayload: 4 * MAX_CLIENT_MESSAGE_BYTES });
    this.lab = new Lab(this.listener(), opts.maxSizeMb);
    this.wss.on('connection', (ws) => this.accept(ws));
  }

  /** For the http server's 'upgrade' event: takes our path, returns false for anything else. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const path = (req.url ?? '').split('?')[0];
    if (path !== WS_PATH) return false;
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req));
    return true;
  }

  clientCount(): number {
    return this.clients.size;
  }

  /** Most samples held for any one client right now (bounded by design; tests check it). */
  maxPendingPerClient(): number {
    let n = 0;
    for (const c of this.clients.values()) n = Math.max(n, c.pendingCount());
    return n;
  }

  async close(): Promise<void> {
    await this.lab.close();
    for (const [ws, conn] of this.clients) {
      conn.close();
      ws.terminate();
    }
    this.clients.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private accept(ws: WebSocket): void {
    const conn = new ClientConn(ws);
    this.clients.set(ws, conn);
    ws.on('message', (data, isBinary) => this.receive(conn, data, isBinary));
    ws.on('close', () => {
      conn.close();
      this.clients.delete(ws);
    });
    ws.on('error', () => ws.terminate());
    conn.discardPending();
    conn.send(this.snapshot());
  }

  private snapshot(): ServerMessage {
    return {
      type: 'snapshot',
      strategies: strategyCatalog(),
      maxSizeMb: this.opts.maxSizeMb,
      nodeVersion: process.versions.node,
      ...this.lab.snapshot(),
    };
  }

  private receive(conn: ClientConn, data: RawData, isBinary: boolean): void {
    const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer).byteLength;
    const fail = (code: 'bad-request' | 'too-large' | 'not-found', message: string, requestType: string | null = null) =>
      conn.send({ type: 'error', code, message, requestType });
    if (isBinary) return fail('bad-request', 'messages must be JSON text');
    if (size > MAX_CLIENT_MESSAGE_BYTES) {
      return fail('too-large', `message is ${size} bytes; the limit is ${MAX_CLIENT_MESSAGE_BYTES} bytes`);
    }
    let json: unknown;
    try {
      json = JSON.parse(data.toString());
    } catch {
      return fail('bad-request', 'message is not valid JSON');
    }
    const requestType = typeof (json as { type?: unknown })?.type === 'string' ? (json as { type: string }).type : null;
    const parsed = clientMessageSchema.safeParse(json);
    if (!parsed.success) return fail('bad-request', describeZodError(parsed.error), requestType);
    try {
      this.dispatch(conn, parsed.data);
    } catch (err) {
      fail('bad-request', err instanceof Error ? err.message : String(err), requestType);
    }
  }

  private dispatch(conn: ClientConn, msg: ClientMessage): void {
    switch (msg.type) {
      case 'experiment.start':
        this.lab.startExperiment(msg.strategies, msg.params, msg.parallel);
        return;
      case 'run.stop':
        if (!this.lab.stopRun(msg.runId)) conn.send({ type: 'error', code: 'not-found', message: `no run with id ${msg.runId}`, requestType: msg.type });
        return;
      case 'experiment.stop':
        if (!this.lab.stopExperiment(msg.experimentId)) {
          conn.send({ type: 'error', code: 'not-found', message: `no experiment with id ${msg.experimentId}`, requestType: msg.type });
        }
        return;
      case 'stop.all':
        this.lab.stopAll();
        return;
      case 'resync':
        // The snapshot holds every sample so far; pending ones would arrive twice.
        conn.discardPending();
        conn.send(this.snapshot());
        return;
      default: {
        const never: never = msg;
        throw new Error(`unhandled message ${JSON.stringify(never)}`);
      }
    }
  }

  private broadcast(message: ServerMessage): void {
    for (const conn of this.clients.values()) conn.send(message);
  }

  private listener(): LabListener {
    const all = [this.broadcastListener(), ...(this.opts.observers ?? [])];
    // Every event goes to the browsers first, then to each observer, in order.
    const fanOut = <K extends keyof LabListener>(key: K) =>
      ((...args: Parameters<LabListener[K]>) => {
        for (const l of all) (l[key] as (...a: Parameters<LabListener[K]>) => void)(...args);
      }) as LabListener[K];
    return {
      experimentCreated: fanOut('experimentCreated'),
      runQueued: fanOut('runQueued'),
      runUpdated: fanOut('runUpdated'),
      runSample: fanOut('runSample'),
      runProc: fanOut('runProc'),
      runEnded: fanOut('runEnded'),
      dataProgress: fanOut('dataProgress'),
    };
  }

  private broadcastListener(): LabListener {
    return {
      experimentCreated: (experiment) => this.broadcast({ type: 'experiment.created', experiment }),
      runQueued: (run) => this.broadcast({ type: 'run.queued', run }),
      runUpdated: (run) => this.broadcast({ type: 'run.updated', run }),
      runSample: (runId, sample) => {
        for (const conn of this.clients.values()) conn.queueSample(runId, sample);
      },
      runProc: (runId, proc) => {
        for (const conn of this.clients.values()) conn.queueProc(runId, proc);
      },
      runEnded: (run, summary) => this.broadcast({ type: 'run.ended', run, summary }),
      dataProgress: (data) => this.broadcast({ type: 'data.progress', data }),
    };
  }
}
