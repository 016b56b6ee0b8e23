// `npm run bench:ui`: starts the production server on a spare port, drives the page in Chromium
// and measures (1) Start → first sample drawn and sample age when drawn (child clock → browser),
// p50/p95, over several single-run experiments; (2) the page's longest main-thread task while six
// strategies run in parallel for about a minute at 20 samples/s. Needs `next build` first.
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, configureExperiment, findChromium, startServer } from './lib.mjs';

const port = Number(process.env.BENCH_PORT ?? 3250);
const reps = Number(process.env.BENCH_REPS ?? 5);

function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const server = await startServer(port);
const base = server.url;

const browser = await chromium.launch({
  executablePath: (await findChromium()) ?? undefined,
  args: CHROMIUM_ARGS,
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(base);
  await page.getByTestId('connection-status').filter({ hasText: /^connected$/ }).waitFor();

  const configure = (strategies, values) => configureExperiment(page, strategies, values);

  // (1) latency: a fresh experiment each time, data file already made by the first.
  const firstDrawn = [];
  const ages = [];
  for (let i = 0; i < reps + 1; i++) {
    await configure(['pipeline-generator'], { sizeMb: 16, delayMs: 5, sampleMs: 50, retained: false, parallel: false });
    await page.evaluate(() => window.__streamLab && (window.__streamLab.sampleAgesMs = []));
    await page.getByTestId('start-button').click();
    await page.waitForFunction(() => window.__streamLab?.firstSampleDrawnAt != null, null, { timeout: 60_000 });
    await page.locator('[data-testid="run-card"][data-status="completed"]').first().waitFor({ timeout: 60_000 });
    const m = await page.evaluate(() => window.__streamLab);
    if (i === 0) continue; // warm-up: includes making the data file
    firstDrawn.push(m.firstSampleDrawnAt - m.startClickedAt);
    ages.push(...m.sampleAgesMs);
  }
  console.log(`Start → first sample drawn (ms), ${reps} runs: p50 ${pct(firstDrawn, 50)}, p95 ${pct(firstDrawn, 95)}, values ${firstDrawn.join(', ')}`);
  console.log(`sample age when drawn (ms), ${ages.length} samples: p50 ${pct(ages, 50)}, p95 ${pct(ages, 95)}, max ${Math.max(...ages)}`);

  // (2) six runs in parallel, 150 MiB at 25 ms per chunk ≈ 60 s for the pull readers, 50 ms samples.
  const six = ['rxjs-from', 'ixjs-from', 'pipeline-generator', 'iterator-helper', 'for-await', 'readable-map'];
  await configure(six, { sizeMb: 150, delayMs: 25, sampleMs: 50, retained: false, parallel: true });
  await page.evaluate(() => (window.__longTasks = []));
  const started = Date.now();
  await page.getByTestId('start-button').click();
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="run-card"][data-status="completed"]').length >= n,
    six.length,
    { timeout: 300_000, polling: 1000 },
  );
  const tasks = await page.evaluate(() => window.__longTasks);
  const totalPoints = await page.getByTestId('comparison-chart').getAttribute('data-points');
  console.log(
    `6 parallel runs, ${((Date.now() - started) / 1000).toFixed(0)} s, ${totalPoints} samples drawn: ` +
      `${tasks.length} long tasks (>50 ms), longest ${Math.max(0, ...tasks).toFixed(0)} ms, p95 ${tasks.length ? pct(tasks, 95).toFixed(0) : 0} ms`,
  );
  await page.screenshot({ path: '/tmp/bench-ui-six.png', fullPage: true });
} finally {
  await browser.close();
  server.stop();
}
