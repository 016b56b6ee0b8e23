import { defineConfig } from 'vitest/config';
import base from './vitest.config';

/**
 * Tests that put a server under load and assert latency bounds (server/hub/*.load.test.ts): one
 * file at a time, after the rest of the suite, so the other tests' run children do not share the
 * two cores with them. `npm test` runs this as its own step.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['server/**/*.load.test.ts'],
    exclude: ['**/node_modules/**'],
    fileParallelism: false,
  },
});
