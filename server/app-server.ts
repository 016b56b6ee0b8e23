/**
 * One HTTP server, one port: Next renders the pages, the hub owns the `/ws` WebSocket.
 * Tests create it without Next (next: false) on port 0.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, parse, type UrlWithParsedQuery } from 'node:url';
import { maxSizeMb } from './data/data-files';
import { accessPolicy, hostAllowed, type AccessPolicy } from './http/access';
import { Hub } from './hub/hub';
import type { ConnectionCaps, LimitedRequest, RateLimit } from './hub/limits';
import { RunQueue } from './queue/run-queue';
import type { ExperimentQueue } from './queue/backend';
import { frameHeaders, parseFrameAncestors } from './http/frame-policy';
import { healthRoutes } from './http/health-routes';
import { handleApi, missingPage, type PageGuard, type Route } from './http/router';
import { userStrategiesDir, watchUserStrategies } from './user-strategies';
import { editingRoutes } from './user-strategies/editing-routes';

export interface LabServerOptions {
  port: number;
  host: string;
  /** Serve the Next app (false in server tests: HTTP then answers 404 outside /ws). */
  next: boolean;
  dev?: boolean;
  /**
   * The experiment queue, built by the entry point (which also subscribes the history to it and
   * closes it first on shutdown). Without one the server makes its own and closes it itself.
   */
  queue?: ExperimentQueue;
  /** HTTP API routes under /api/ beyond the built-in ones. */
  routes?: Route[];
  /** Pages whose address names something that must exist (a recorded run): answered 404 when it doesn't. */
  pageGuards?: PageGuard[];
  /** Origins allowed to frame the pages (CSP frame-ancestors); default STREAM_LAB_FRAME_ANCESTORS or 'self'. */
  frameAncestors?: string[];
  /** Host names and origins allowed in; default from `host` and the environment (server/http/access.ts). */
  access?: AccessPolicy;
  /** Socket caps; default from the environment (server/hub/limits.ts). */
  caps?: ConnectionCaps;
  /** Per-connection rate limits; tests loosen them. */
  rateLimits?: Partial<Record<LimitedRequest, RateLimit>>;
  /** Default: STREAM_LAB_OPERATOR_TOKEN. */
  operatorToken?: string | null;
  /** How often installed runtimes are looked for (default 5 s; tests shorten it). */
  runtimesEveryMs?: number;
  /** The strategies of yours folder (default STREAM_LAB_STRATEGIES_DIR, or strategies/ where the server starts). */
  strategiesDir?: string;
}

export interface LabServer {
  server: Server;
  hub: Hub;
  url: string;
  close(): Promise<void>;
}

const rootDir = fileURLToPath(new URL('..', import.meta.url));

/** Starts listening; resolves once the port is bound. */
export async function createLabServer(opts: LabServerOptions): Promise<LabServer> {
  const access = opts.access ?? accessPolicy(opts.host);
  const ownQueue = opts.queue ? null : new RunQueue();
  const queue = opts.queue ?? ownQueue!;
  const hub = new Hub({
    queue,
    maxSizeMb: maxSizeMb(),
    access,
    caps: opts.caps,
    rateLimits: opts.rateLimits,
    operatorToken: opts.operatorToken,
    runtimesEveryMs: opts.runtimesEveryMs,
  });
  // Strategies of yours: read now and whenever their files change; pages get the new list.
  const strategiesDir = opts.strategiesDir ?? userStrategiesDir();
  const stopWatchingStrategies = watchUserStrategies(() => hub.strategiesChanged(), strategiesDir);
  const routes = [...healthRoutes, ...editingRoutes({ host: opts.host, dir: strategiesDir, changed: () => hub.strategiesChanged() }), ...(opts.routes ?? [])];
  const server = createServer();
  const pageHeaders = frameHeaders(opts.frameAncestors ?? parseFrameAncestors());
  const pageGuards = opts.pageGuards ?? [];
  let notFound: ((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>) | null = null;
  let handle: ((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, parsed?: UrlWithParsedQuery) => Promise<void>) | null = null;

  if (opts.next) {
    const { default: next } = await import('next');
    const app = next({ dev: opts.dev ?? false, dir: rootDir, hostname: opts.host, port: opts.port, httpServer: server });
    await app.prepare();
    handle = app.getRequestHandler();
    // Next's own not-found page (app/not-found.tsx), served for another path: Next answers it 404.
    notFound = (req, res) => handle!(req, res, { ...parse(req.url ?? '/', true), pathname: '/_not-found' });
  }

  server.on('request', (req, res) => {
    if (!hostAllowed(access, req)) {
      // DNS rebinding: a page on another name must not read anything from here.
      res
        .writeHead(421, { 'content-type': 'text/plain; charset=utf-8' })
        .end(`this server does not answer to host "${req.headers.host ?? ''}"; see README, Security\n`);
      return;
    }
    const serve = async () => {
      if (await handleApi(routes, req, res)) return;
      // Pages and their assets: framing is allowed only where configured (docs/embedding.md).
      for (const [name, value] of Object.entries(pageHeaders)) res.setHeader(name, value);
      if (!handle) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      // A page for something that isn't there (a deleted run, a mistyped id) is a 404, not an empty 200.
      if (notFound && missingPage(pageGuards, req)) return notFound(req, res);
      await handle(req, res);
    };
    serve().catch((err: unknown) => {
      console.error('request failed:', err);
      if (!res.headersSent) res.writeHead(500).end('internal error');
    });
  });
  server.on('upgrade', (req, socket, head) => {
    if (hub.handleUpgrade(req, socket, head)) return;
    // In dev, Next listens for its own upgrades (HMR), from allowed hosts only; in production
    // nothing else may upgrade.
    if (!opts.dev || !hostAllowed(access, req)) socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;
  return {
    server,
    hub,
    url,
    async close() {
      stopWatchingStrategies();
      await ownQueue?.close();
      await hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
