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
import { accessPolicy, hostAllowed, originAllowed, type AccessPolicy } from '../http/access';
import { strategyCatalog } from '../strategies/catalog';
import { ClientConn } from './client-conn';
import { Lab, type LabListener } from './lab';
import { ConnectionCounter, rateLimitMessage, readConnectionCaps, RATE_LIMITS, TokenBucket, type ConnectionCaps, type LimitedRequest, type RateLimit } from './limits';
import { SharedSnapshot, type Covered } from './snapshot';

export const WS_PATH = '/ws';
/** Close code for viewers when the server shuts down: the page reconnects when it is back. */
export const GOING_AWAY = 1001;

export interface HubOptions {
  maxSizeMb: number;
  observers?: LabListener[];
  /** Who may connect; default: loopback names and the environment's settings. */
  access?: AccessPolicy;
  caps?: ConnectionCaps;
  /** Tests loosen these to drive a client hard. */
  rateLimits?: Partial<Record<LimitedRequest, RateLimit>>;
}

/** Writes a plain HTTP refusal on a socket that asked to upgrade, then closes it. */
function refuseUpgrade(socket: Duplex, status: number, reason: string, message: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(message)}\r\n\r\n${message}`);
}

export class Hub {
  readonly lab: Lab;
  private readonly wss: WebSocketServer;
  private readonly clients = new Map<WebSocket, ClientConn>();
  private readonly access: AccessPolicy;
  private readonly connections: ConnectionCounter;
  private readonly limits: Record<LimitedRequest, RateLimit>;
  private readonly shared: SharedSnapshot;
  private readonly clientLimits = new WeakMap<ClientConn, Map<LimitedRequest, TokenBucket>>();

  constructor(private readonly opts: HubOptions) {
    // maxPayload makes ws refuse (close 1009) anything far beyond our limit before buffering it;
    // messages between 64 KiB and that get a typed error reply below.
    this.wss = new WebSocketServer({ noServer: true, maxPayload: 4 * MAX_CLIENT_MESSAGE_BYTES });
    this.access = opts.access ?? accessPolicy('127.0.0.1');
    this.connections = new ConnectionCounter(opts.caps ?? readConnectionCaps());
    this.limits = { ...RATE_LIMITS, ...opts.rateLimits };
    this.lab = new Lab(this.listener(), opts.maxSizeMb);
    this.shared = new SharedSnapshot(() => this.snapshot());
  }

  /**
   * For the http server's 'upgrade' event: takes our path, returns false for anything else.
   * A foreign Host gets 421, a foreign Origin 403, a socket past the caps 503, before ws sees it.
   */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const path = (req.url ?? '').split('?')[0];
    if (path !== WS_PATH) return false;
    if (!hostAllowed(this.access, req)) {
      refuseUpgrade(socket, 421, 'Misdirected Request', `this server does not answer to host "${req.headers.host ?? ''}"; see README, Security`);
      return true;
    }
    if (!originAllowed(this.access, req)) {
      const origin = req.headers.origin ?? '(none)';
      refuseUpgrade(socket, 403, 'Forbidden', `origin ${origin} may not open the lab socket; set STREAM_LAB_ALLOWED_ORIGINS to allow it`);
      return true;
    }
    const address = req.socket.remoteAddress ?? 'unknown';
    const refusal = this.connections.refusal(address);
    if (refusal) {
      refuseUpgrade(socket, 503, 'Service Unavailable', `too many connections: ${refusal}; try again later`);
      return true;
    }
    const release = this.connections.open(address);
    socket.once('close', release);
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, release));
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

  /**
   * Server shutdown: runs end as 'interrupted' (and viewers are told), then every viewer gets
   * close 1001 "going away" so its page knows to reconnect later, not that something broke.
   */
  async close(): Promise<void> {
    await this.lab.close();
    const closed = [...this.clients.entries()].map(
      ([ws, conn]) =>
        new Promise<void>((resolve) => {
          conn.flush();
          conn.close();
          ws.once('close', () => resolve());
          ws.close(GOING_AWAY, 'server shutting down');
          // A viewer that never answers the close frame is not worth waiting for.
          setTimeout(() => (ws.terminate(), resolve()), 1000).unref();
        }),
    );
    await Promise.all(closed);
    this.clients.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private accept(ws: WebSocket, release: () => void): void {
    const conn = new ClientConn(ws);
    const buckets = new Map<LimitedRequest, TokenBucket>();
    for (const [kind, limit] of Object.entries(this.limits)) buckets.set(kind as LimitedRequest, new TokenBucket(limit));
    this.clientLimits.set(conn, buckets);
    this.clients.set(ws, conn);
    ws.on('message', (data, isBinary) => this.receive(conn, data, isBinary));
    ws.on('close', () => {
      release();
      conn.close();
      this.clients.delete(ws);
      if (this.clients.size === 0) this.shared.release();
    });
    ws.on('error', () => ws.terminate());
    this.sendSnapshot(conn);
  }

  /**
   * Sends the shared snapshot, then the samples taken since it was built; samples pending for
   * this page are all in one or the other, so they are dropped.
   */
  private sendSnapshot(conn: ClientConn): void {
    const { bytes, covered } = this.shared.get();
    conn.discardPending();
    conn.sendEncoded(bytes);
    for (const [runId, since] of covered) {
      const tail = this.lab.seriesAfter(runId, since.sampleAt, since.procAt);
      conn.sendSamples(runId, tail.samples, tail.proc);
    }
  }

  /** The whole state for a (re)joining page, series thinned to a bounded size. */
  private snapshot(): { message: ServerMessage; covered: Covered } {
    const { covered, ...lab } = this.lab.snapshot();
    const message: ServerMessage = {
      type: 'snapshot',
      strategies: strategyCatalog(),
      maxSizeMb: this.opts.maxSizeMb,
      nodeVersion: process.versions.node,
      ...lab,
    };
    return { message, covered };
  }

  /** 0 when the request may go ahead; otherwise it was answered with a rate-limit error. */
  private limited(conn: ClientConn, kind: LimitedRequest): boolean {
    const wait = this.clientLimits.get(conn)?.get(kind)?.take() ?? 0;
    if (wait === 0) return false;
    conn.send({ type: 'error', code: 'rate-limited', message: rateLimitMessage(kind, wait, this.limits[kind]), requestType: kind });
    return true;
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
        if (this.limited(conn, msg.type)) return;
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
        if (this.limited(conn, msg.type)) return;
        this.sendSnapshot(conn);
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
    // Any event makes the shared snapshot stale; it is rebuilt when someone next asks for it.
    const stale: LabListener = {
      experimentCreated: () => this.shared.invalidate('structure'),
      runQueued: () => this.shared.invalidate('structure'),
      runUpdated: () => this.shared.invalidate('structure'),
      runSample: () => this.shared.invalidate('series'),
      runProc: () => this.shared.invalidate('series'),
      runEnded: () => this.shared.invalidate('structure'),
      dataProgress: () => this.shared.invalidate('series'),
    };
    const all = [stale, this.broadcastListener(), ...(this.opts.observers ?? [])];
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
