import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './scripts/lib.mjs';

/** Port of the production server the tests start (not 3000, so a running `npm start` is left alone). */
const port = Number(process.env.E2E_PORT ?? 3210);
/** The server's operator token (e2e/room.spec.ts); a test's own page holds it (e2e/fixtures.ts), so Stop all can clean up after any test. */
export const E2E_OPERATOR_TOKEN = 'e2e-operator-token-0123';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  // The tests share one server and its run queue, so they run one at a time.
  workers: 1,
  fullyParallel: false,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    launchOptions: {
      // Playwright cannot download its own browsers everywhere; npm test finds one (scripts/lib.mjs).
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    // Each session starts from an empty data directory, so runs recorded by an earlier session
    // never show up in the history tests (the CSVs are cheap to make again).
    command: `node -e "require('fs').rmSync('e2e/.artifacts/data', { recursive: true, force: true })" && node --import tsx server/index.ts`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      STREAM_LAB_DATA_DIR: 'e2e/.artifacts/data',
      // The tests use small files; don't make the 150 MiB default on start.
      STREAM_LAB_PREPARE_MB: '0',
      STREAM_LAB_OPERATOR_TOKEN: E2E_OPERATOR_TOKEN,
      // A training page on the next port may frame the embeds (e2e/history.spec.ts: embeds size themselves).
      STREAM_LAB_FRAME_ANCESTORS: `'self' http://127.0.0.1:${port + 1}`,
    },
  },
});
