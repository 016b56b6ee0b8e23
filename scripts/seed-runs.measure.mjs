// Measures the history with a seeded store (see scripts/seed-runs.ts): GET /api/runs and the /runs
// page until every row is drawn, in a real Chromium against the production server.
//   node --import tsx scripts/seed-runs.ts --count 500 --samples 600 --data-dir /tmp/sl-500
//   node scripts/seed-runs.measure.mjs /tmp/sl-500 500
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium, startServer } from './lib.mjs';

const [dataDir, expected = '500'] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: node scripts/seed-runs.measure.mjs <data-dir> [expected-runs]');
const t0 = performance.now();
const server = await startServer(3290, { STREAM_LAB_DATA_DIR: dataDir });
console.log(`server ready (store opened) in ${(performance.now() - t0).toFixed(0)} ms`);
const browser = await chromium.launch({ executablePath: await findChromium(), args: CHROMIUM_ARGS });
try {
  const api = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const body = await (await fetch(`${server.url}/api/runs`)).text();
    api.push(performance.now() - t);
    if (i === 0) console.log(`GET /api/runs: ${JSON.parse(body).runs.length} runs, ${(body.length / 1024).toFixed(0)} KiB`);
  }
  console.log(`GET /api/runs ms (5 tries): ${api.map((x) => x.toFixed(1)).join(', ')}`);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const loads = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await page.goto(`${server.url}/runs`);
    await page
      .locator('[data-testid="history-row"]')
      .nth(Number(expected) - 1)
      .waitFor();
    loads.push(performance.now() - t);
  }
  console.log(`/runs until all ${expected} rows are drawn, ms (3 loads): ${loads.map((x) => x.toFixed(0)).join(', ')}`);
} finally {
  await browser.close();
  server.stop();
}
