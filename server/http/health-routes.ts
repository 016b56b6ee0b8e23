import type { Route } from './router';
import { sendJson } from './router';

/** GET /api/health: lets scripts and tests wait for the server. */
export const healthRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/api\/health$/,
    handle: ({ res }) => sendJson(res, 200, { ok: true, node: process.versions.node }),
  },
];
