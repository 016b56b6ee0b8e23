import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Unit and integration tests of the experiment engine. They fork real run children and write real
 * files (into a temp STREAM_LAB_DATA_DIR per test file), so timeouts are generous; the suite keeps
 * itself light with small files and short delays instead.
 */
export default defineConfig({
  // The same '@/…' imports as the app (tsconfig paths), for the chart modules' tests under components/.
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: {
    include: ['server/**/*.test.ts', 'lib/**/*.test.ts', 'components/**/*.test.ts', 'labs/**/*.test.ts'],
    // Load tests assert latency bounds: they run on their own afterwards (vitest.load.config.ts).
    exclude: ['**/node_modules/**', '**/*.load.test.ts'],
    environment: 'node',
    // Forks, not threads: the runner tracks its children per process and tests send signals.
    pool: 'forks',
    // Two files at a time even on two cores (vitest's default there is one): most of the suite
    // waits on run children, timers, sockets and databases rather than computing, so a second file
    // fills that time (unit + integration went from 486 s to 264 s here). Tests bound what they
    // measure against their own run's figures, so sharing the cores does not break them.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
