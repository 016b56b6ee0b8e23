import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './scripts/lib.mjs';

/** Port of the first production server the tests start (not 3000, so a running `npm start` is left alone). */
const port = Number(process.env.E2E_PORT ?? 3210);
/**
 * Spec files run on this many Playwright workers at once (E2E_WORKERS, default 2). Each worker has a
 * server of its own (its own run queue, Room and history, on every second port: a test's training
 * page takes the port after its server's), so no test sees another's runs; e2e/fixtures.ts points a
 * worker's pages at its server. Most specs wait on their runs' children far more than they compute, so
 * two at once cut the stage's time on two cores by about two fifths (docs/results.md §14).
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2) || 1);
/** The strategies folder of the worker with this parallel index's server (relative to the project). */
export const e2eStrategiesDir = (index: number) => `e2e/.artifacts/strategies-${index}`;
/** The server of the worker with this parallel index. */
export const e2eServerUrl = (index: number) => `http://127.0.0.1:${port + 2 * index}`;
/** The server's operator token (e2e/room.spec.ts); a test's own page holds it (e2e/fixtures.ts), so Stop all can clean up after any test. */
export const E2E_OPERATOR_TOKEN = 'e2e-operator-token-0123';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  // One spec file at a time per worker, its tests in order (some build on the one before).
  workers: E2E_WORKERS,
  fullyParallel: false,
  reporter: [['list']],
  use: {
    baseURL: e2eServerUrl(0),
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    launchOptions: {
      // Playwright cannot download its own browsers everywhere; npm test finds one (scripts/lib.mjs).
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
  webServer: Array.from({ length: E2E_WORKERS }, (_, index) => {
    const data = `e2e/.artifacts/data-${index}`;
    const serverPort = port + 2 * index;
    return {
      // Each session starts from an empty data directory, so runs recorded by an earlier session
      // never show up in the history tests (the CSVs are cheap to make again).
      command: `node -e "for (const d of ['${data}', '${e2eStrategiesDir(index)}']) require('fs').rmSync(d, { recursive: true, force: true })" && node --import tsx server/index.ts`,
      url: `${e2eServerUrl(index)}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'pipe' as const,
      env: {
        PORT: String(serverPort),
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        STREAM_LAB_DATA_DIR: data,
        // Strategies of yours: a spec writes its files here while it runs (e2e/yours.spec.ts), and removes them after.
        STREAM_LAB_STRATEGIES_DIR: e2eStrategiesDir(index),
        // Editing a copy in the page (e2e/yours.spec.ts); its 403 when off is a server test (server/user-strategies/editing.test.ts).
        STREAM_LAB_ALLOW_CODE: '1',
        // The tests use small files; don't make the 150 MiB default on start.
        STREAM_LAB_PREPARE_MB: '0',
        STREAM_LAB_OPERATOR_TOKEN: E2E_OPERATOR_TOKEN,
        // A training page on the next port may frame the embeds (e2e/history.spec.ts: embeds size themselves).
        STREAM_LAB_FRAME_ANCESTORS: `'self' http://127.0.0.1:${serverPort + 1}`,
      },
    };
  }),
});
