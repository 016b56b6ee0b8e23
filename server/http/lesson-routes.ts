import { measureModesShared } from '../lessons/modes';
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
];
