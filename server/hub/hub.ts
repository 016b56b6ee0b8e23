/**
 * The WebSocket hub: admits sockets (gate.ts), validates every browser message at the boundary,
 * hands commands to the queue and fans the queue's events out to every connected browser.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { describeZodError } from '../../lib/protocol/params';
import { clientMessageSchema, MAX_CLIENT_MESSAGE_BYTES, type ClientMessage, type Owner, type ServerMessage } from '../../lib/protocol';
import { accessPolicy, type AccessPolicy } from '../http/access';
import { strategyCatalog } from '../../labs/catalog';
import { USER_STOP } from '../runner/runner';
import type { Requester, StopAnswer } from '../queue/run-queue';
import type { ExperimentQueue } from '../queue/backend';
import { relayQueueEvents } from './relay';
import { anonymous, greet, readOperatorToken, stopRefusal } from './identity';
import { ClientConn } from './client-conn';
import { admit } from './gate';
import {
  ConnectionCounter,
  rateLimitMessage,
  readConnectionCaps,
  RATE_LIMITS,
  TokenBucket,
  type ConnectionCaps,
  type LimitedRequest,
  type RateLimit,
} from './limits';
import { SharedSnapshot, thinForSnapshot, type Covered } from './snapshot';
import { runtimeInfos } from '../runtimes/store';
import type { RuntimeInfo } from '../../lib/runtimes';

export const WS_PATH = '/ws';
/** Close code for viewers when the server shuts down: the page reconnects when it is back. */
export const GOING_AWAY = 1001;

export interface HubOptions {
  queue: ExperimentQueue;
  maxSizeMb: number;
  /** Who may connect; default: loopback names and the environment's settings. */
  access?: AccessPolicy;
  caps?: ConnectionCaps;
  /** Tests loosen these to drive a client hard. */
  rateLimits?: Partial<Record<LimitedRequest, RateLimit>>;
  /** STREAM_LAB_OPERATOR_TOKEN: whoever sends it in hello may stop anyone's runs; null: nobody can. */
  operatorToken?: string | null;
  /** How often the runtimes folder is looked at (tests shorten it). */
  runtimesEveryMs?: number;
}

/** A runtime added or removed while the server runs reaches open pages within this. */
const RUNTIMES_EVERY_MS = 5000;

export class Hub {
  private readonly queue: ExperimentQueue;
  private readonly wss: WebSocketServer;
  private readonly clients = new Map<WebSocket, ClientConn>();
  private readonly buckets = new WeakMap<ClientConn, Map<LimitedRequest, TokenBucket>>();
  /** Who each page is: anonymous (its own connection) until it says hello. */
  private readonly requesters = new WeakMap<ClientConn, Requester>();
  private readonly access: AccessPolicy;
  private readonly connections: ConnectionCounter;
  private readonly limits: Record<LimitedRequest, RateLimit>;
  private readonly shared = new SharedSnapshot(() => this.snapshot());
  private readonly operatorToken: string | null;
  /** The runtimes as pages last heard them, and the timer that looks for installs and removals. */
  private runtimesSent: string;
  private readonly runtimesTimer: NodeJS.Timeout;

  constructor(private readonly opts: HubOptions) {
    // maxPayload makes ws refuse (close 1009) anything far beyond our limit before buffering it;
    // messages between 64 KiB and that get a typed error reply below.
    this.wss = new WebSocketServer({ noServer: true, maxPayload: 4 * MAX_CLIENT_MESSAGE_BYTES });
    this.queue = opts.queue;
    this.access = opts.access ?? accessPolicy('127.0.0.1');
    this.connections = new ConnectionCounter(opts.caps ?? readConnectionCaps());
    this.limits = { ...RATE_LIMITS, ...opts.rateLimits };
    this.operatorToken = opts.operatorToken === undefined ? readOperatorToken() : opts.operatorToken;
    this.queue.subscribe(
      relayQueueEvents({
        invalidate: (what) => this.shared.invalidate(what),
        broadcast: (message) => this.broadcast(message),
        each: (send) => {
          for (const conn of this.clients.values()) send(conn);
        },
      }),
    );
    // `npm run runtimes -- add/remove` is another process: a look at the folder every few seconds
    // (one readdir) brings a runtime installed while the server runs to open pages' forms.
    this.runtimesSent = JSON.stringify(runtimeInfos());
    this.runtimesTimer = setInterval(() => this.checkRuntimes(), opts.runtimesEveryMs ?? RUNTIMES_EVERY_MS).unref();
  }

  /** The strategies of yours changed (a file saved, added or removed): every page gets the new catalog. */
  strategiesChanged(): void {
    this.broadcast({ type: 'strategies', strategies: strategyCatalog() });
  }

  private checkRuntimes(): void {
    let runtimes: RuntimeInfo[];
    try {
      runtimes = runtimeInfos();
    } catch {
      return; // the folder is being written or is unreadable: look again next time
    }
    const text = JSON.stringify(runtimes);
    if (text === this.runtimesSent) return;
    this.runtimesSent = text;
    this.shared.invalidate('structure');
    this.broadcast({ type: 'runtimes', runtimes });
  }

  /** For the http server's 'upgrade' event: takes our path (admitted or refused), returns false for anything else. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const path = (req.url ?? '').split('?')[0];
    if (path !== WS_PATH) return false;
    const release = admit(req, socket, this.access, this.connections);
    if (release) this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, release));
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
   * Server shutdown, after the queue has closed (so runs ended as 'interrupted' and viewers were
   * told): every viewer gets close 1001 "going away", so its page knows to reconnect later.
   */
  async close(): Promise<void> {
    clearInterval(this.runtimesTimer);
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
    this.buckets.set(conn, new Map(Object.entries(this.limits).map(([kind, limit]) => [kind as LimitedRequest, new TokenBucket(limit)])));
    this.clients.set(ws, conn);
    this.requesters.set(conn, anonymous());
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
      const tail = this.queue.seriesAfter(runId, since.sampleAt, since.procAt);
      conn.sendSamples(runId, tail.samples, tail.proc);
    }
  }

  /** The whole state for a (re)joining page, series thinned to a bounded size. */
  private snapshot(): { message: ServerMessage; covered: Covered } {
    const { covered, samples, proc, ...rest } = this.queue.snapshot();
    const message: ServerMessage = {
      type: 'snapshot',
      strategies: strategyCatalog(),
      maxSizeMb: this.opts.maxSizeMb,
      nodeVersion: process.versions.node,
      runtimes: runtimeInfos(),
      ...rest,
      backend: this.queue.backend(),
      samples: thinForSnapshot(samples),
      proc: thinForSnapshot(proc),
    };
    return { message, covered };
  }

  /** True when the request was refused (and answered) for going past its rate limit. */
  private limited(conn: ClientConn, kind: LimitedRequest): boolean {
    const wait = this.buckets.get(conn)?.get(kind)?.take() ?? 0;
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
    const by = this.requesters.get(conn) ?? anonymous();
    /** Answers a stop that found nothing or was not this page's to make. */
    const answer = (result: StopAnswer, what: 'run' | 'experiment', id: string, owner: Owner | null) => {
      const error = stopRefusal(result, what, id, owner);
      if (error) conn.send({ type: 'error', ...error, requestType: msg.type });
    };
    switch (msg.type) {
      case 'experiment.start':
        if (this.limited(conn, msg.type)) return;
        this.queue.startExperiment(msg.lab, msg.strategies, msg.params, msg.parallel, by);
        return;
      case 'run.stop':
        answer(this.queue.stopRun(msg.runId, USER_STOP, by), 'run', msg.runId, this.queue.runOwner(msg.runId));
        return;
      case 'run.snapshot':
        void this.queue
          .snapshotRun(msg.runId, by)
          .catch((err: unknown) => (err instanceof Error ? err.message : String(err)))
          .then((why) => {
            if (why) conn.send({ type: 'error', code: 'bad-request', message: `Snapshot: ${why}`, requestType: msg.type });
          });
        return;
      case 'experiment.stop':
        answer(this.queue.stopExperiment(msg.experimentId, by), 'experiment', msg.experimentId, this.queue.experimentOwner(msg.experimentId));
        return;
      case 'stop.all':
        this.queue.stopAll(USER_STOP, by);
        return;
      case 'hello': {
        const { requester, refusal } = greet(msg, this.operatorToken);
        this.requesters.set(conn, requester);
        if (refusal) conn.send({ type: 'error', code: 'forbidden', message: refusal, requestType: msg.type });
        conn.send({ type: 'hello.ok', owner: requester.owner, operator: requester.operator });
        return;
      }
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
}
