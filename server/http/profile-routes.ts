/**
 * A profiled run's CPU profile as a `.cpuprofile` download (opens in Chrome DevTools' Performance
 * panel and in speedscope); the pages read the same file for their flame graph. A heap-profiled
 * run's `.heapprofile` (DevTools' Memory panel, speedscope) and its heap snapshots (`.heapsnapshot`,
 * stored gzipped and sent as such with Content-Encoding: gzip, so the download is the plain file).
 */
import { runIdSchema } from '../../lib/history';
import type { RunStore } from '../store/run-store';
import { API_HEADERS, sendError, type Route, type RouteContext } from './router';

/** The recorded run a route's `id` names, or null once the answer (400, 404) is sent. */
function recordOf(store: RunStore, ctx: RouteContext) {
  const parsed = runIdSchema.safeParse(ctx.params.id);
  if (!parsed.success) {
    sendError(ctx.res, 400, 'bad-request', parsed.error.issues[0].message);
    return null;
  }
  const id = parsed.data;
  const record = store.record(id);
  if (!record) sendError(ctx.res, 404, 'not-found', `no recorded run with id ${id}`);
  return record ? { id, record } : null;
}

export function profileRoutes(store: RunStore): Route[] {
  return [
    {
      method: 'GET',
      pattern: /^\/api\/runs\/(?<id>[^/]+)\/profile\.cpuprofile$/,
      async handle(ctx) {
        const found = recordOf(store, ctx);
        if (!found) return;
        const { id, record } = found;
        const body = await store.profile(id);
        if (body === null) return sendError(ctx.res, 404, 'not-found', `run ${id} has no CPU profile (it was not profiled, or the profile was lost)`);
        ctx.res.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-disposition': `attachment; filename="${id}-${record.run.strategy}.cpuprofile"`,
          'cache-control': 'no-store',
          ...API_HEADERS,
        });
        ctx.res.end(body);
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/runs\/(?<id>[^/]+)\/(?<file>heap\.heapprofile|snapshot-[1-9][0-9]?\.heapsnapshot)$/,
      async handle(ctx) {
        const found = recordOf(store, ctx);
        if (!found) return;
        const { id, record } = found;
        const name = ctx.params.file;
        const snapshot = name.endsWith('.heapsnapshot');
        const body = await store.file(id, snapshot ? `${name}.gz` : name);
        if (body === null) {
          const what = snapshot ? `heap snapshot ${name}` : 'heap profile (it was not heap-profiled, or the profile was lost)';
          return sendError(ctx.res, 404, 'not-found', `run ${id} has no ${what}`);
        }
        ctx.res.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          ...(snapshot && { 'content-encoding': 'gzip' }),
          'content-disposition': `attachment; filename="${id}-${record.run.strategy}-${name}"`,
          'cache-control': 'no-store',
          ...API_HEADERS,
        });
        ctx.res.end(body);
      },
    },
  ];
}
