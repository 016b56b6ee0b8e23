import type { Route } from './router';

/** Routes of the lessons (stream-modes explorer). */
export const lessonRoutes: Route[] = [];
