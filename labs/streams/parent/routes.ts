import { measureModesOnRuntimes, measureModesShared } from './modes';
import type { Route } from '../../../server/http/router';
import { sendJson } from '../../../server/http/router';

/** The streams lab's own HTTP routes: its lesson's stream-modes explorer (the server mounts every lab's `routes`). */
export const routes: Route[] = [
  {
    // Measured afresh on every request: the values must come from this Node, never a cache.
    method: 'GET',
    pattern: /^\/api\/lessons\/modes$/,
    handle: async ({ res }) => sendJson(res, 200, await measureModesShared()),
  },
  {
    // The same cases on every installed Node runtime, to show where their answers differ.
    method: 'GET',
    pattern: /^\/api\/lessons\/modes\/runtimes$/,
    handle: async ({ res }) => sendJson(res, 200, { reports: await measureModesOnRuntimes() }),
  },
];
