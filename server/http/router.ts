/**
 * The custom server's small JSON/HTTP API under /api/, answered before Next sees the request.
 * Each feature adds its routes in its own file; this file only matches and dispatches.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Named groups of the route's pattern. */
  params: Record<string, string>;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Matched against the path only; use named groups for parameters. */
  pattern: RegExp;
  handle(ctx: RouteContext): Promise<void> | void;
}

/**
 * Headers on every API answer: not to be sniffed as something else, and not to be loaded by
 * another site's page even blind (no-cors), so run data never sits in a foreign page's process.
 */
export const API_HEADERS = { 'x-content-type-options': 'nosniff', 'cross-origin-resource-policy': 'same-origin' } as const;

/** Sends a JSON body with the status. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...API_HEADERS });
  res.end(JSON.stringify(body));
}

/** A typed error body, the same shape the WebSocket uses. */
export function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { type: 'error', code, message });
}

/**
 * Handles the request if a route matches; returns false to let Next render it. Unknown /api/
 * paths get a JSON 404 rather than Next's HTML page.
 */
export async function handleApi(routes: readonly Route[], req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (!url.pathname.startsWith('/api/')) return false;
  // Browsers say where a request comes from (Fetch Metadata): only the lab's own pages, or a
  // person typing the address, may use the API; scripts and curl send no such header.
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    sendError(res, 403, 'forbidden', `the API answers only the lab's own pages (this request came from a ${site} page)`);
    return true;
  }
  let pathMatched = false;
  for (const route of routes) {
    const m = route.pattern.exec(url.pathname);
    if (!m) continue;
    pathMatched = true;
    // HEAD is GET without the body (Node's response drops the body of a HEAD request itself).
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (route.method !== method) continue;
    try {
      await route.handle({ req, res, url, params: { ...m.groups } });
    } catch (err) {
      console.error(`${req.method} ${url.pathname} failed:`, err);
      if (!res.headersSent) sendError(res, 500, 'internal', err instanceof Error ? err.message : String(err));
    }
    return true;
  }
  if (pathMatched) sendError(res, 405, 'bad-request', `${req.method} is not allowed on ${url.pathname}`);
  else sendError(res, 404, 'not-found', `no API at ${url.pathname}`);
  return true;
}

/** A page address naming something that must exist, such as /runs/<id>. */
export interface PageGuard {
  /** Matched against the path; named groups are passed to exists. */
  pattern: RegExp;
  exists(params: Record<string, string>): boolean;
}

/** True when a guard matches the request's page path and says what it names doesn't exist. */
export function missingPage(guards: readonly PageGuard[], req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const { pathname } = new URL(req.url ?? '/', 'http://localhost');
  for (const guard of guards) {
    const m = guard.pattern.exec(pathname);
    if (!m) continue;
    let params: Record<string, string>;
    try {
      params = Object.fromEntries(Object.entries(m.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]));
    } catch {
      return true; // not even a valid escape: nothing can be there
    }
    if (!guard.exists(params)) return true;
  }
  return false;
}
