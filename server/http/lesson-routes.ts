import { measureModesOnRuntimes, measureModesShared } from '../../labs/streams/parent/modes';
import type { Route } from './router';
import { sendJson } from './router';

/** Routes of the lessons (stream-modes explorer). */
export const lessonRoutes: Route[] = [
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
