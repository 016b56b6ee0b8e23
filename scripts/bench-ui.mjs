// `npm run bench:ui`: starts the production server on a spare port, drives the page in Chromium
// (1280×800, the runs section scrolled into view as a person watching would) and measures
// (1) Start → first sample drawn and sample age when drawn (child clock → browser), p50/p95, over
// several single-run experiments; (2) main-thread long tasks, frame times and the JS heap while
// six strategies, then all twelve, run in parallel for about a minute at 20 samples/s.
// Needs `next build` first. BENCH_REPS (default 5), BENCH_CASES (default "6,12"). BENCH_PROFILE=1
// also profiles the page's main thread over each case and prints what ran inside its long stretches.
import { chromium } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CHROMIUM_ARGS, configureExperiment, findChromium, root, startServer } from './lib.mjs';

const port = Number(process.env.BENCH_PORT ?? 3250);
const reps = Number(process.env.BENCH_REPS ?? 5);
const cases = (process.env.BENCH_CASES ?? '6,12').split(',').filter(Boolean).map(Number);

function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Long tasks and frame gaps, recorded in the page from the start. */
function watchMainThread() {
  window.__longTasks = [];
  window.__longTaskAt = [];
  window.__frames = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__longTasks.push(e.duration);
      window.__longTaskAt.push([Math.round(e.startTime), Math.round(e.duration)]);
    }
  }).observe({ type: 'longtask', buffered: true });
  let last = performance.now();
  const frame = (now) => {
    window.__frames.push(now - last);
    if (window.__frames.length > 20_000) window.__frames.splice(0, 10_000);
    last = now;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/**
 * Where a CPU profile's long stretches went: runs of samples with no idle between them that last
 * over 50 ms (what the browser reports as long tasks), self time per function inside them.
 */
async function longStretchFunctions(profile, top = 15) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const resolve = await sourceMapResolver();
  const name = (n) => {
    const f = n.callFrame;
    const original = resolve(f.url, f.lineNumber, f.columnNumber);
    if (original) return `${original.name ?? f.functionName ?? '(anonymous)'} ${original.source}:${original.line}`;
    const file = f.url ? f.url.replace(/^.*\/_next\//, '').replace(/^https?:\/\/[^/]+\//, '') : '';
    return `${f.functionName || '(anonymous)'} ${file}${f.url ? `:${f.lineNumber + 1}` : ''}`;
  };
  const self = new Map();
  let stretch = [];
  let stretchMs = 0;
  let stretches = 0;
  const each = [];
  const close = () => {
    if (stretchMs > 50) {
      stretches += 1;
      const own = new Map();
      for (const [key, ms] of stretch) {
        self.set(key, (self.get(key) ?? 0) + ms);
        own.set(key, (own.get(key) ?? 0) + ms);
      }
      const tops = [...own]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([k, ms]) => `${k.trim()} ${ms.toFixed(0)}`);
      each.push(`    ${stretchMs.toFixed(0).padStart(4)} ms: ${tops.join(' · ')}`);
    }
    stretch = [];
    stretchMs = 0;
  };
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (node.callFrame.functionName === '(idle)' || node.callFrame.functionName === '(program)') return close();
    stretch.push([name(node), ms]);
    stretchMs += ms;
  });
  close();
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    `  profile: ${stretches} stretches over 50 ms, ${total.toFixed(0)} ms in them; self time:`,
    ...rows.map(([k, ms]) => `    ${ms.toFixed(0).padStart(6)} ms ${((ms / total) * 100).toFixed(1).padStart(5)} %  ${k}`),
    '  each stretch (in order), its three largest self times:',
    ...each,
  ].join('\n');
}

/**
 * Maps a minified position back to the source when the build has source maps (`STREAM_LAB_SOURCE_MAPS=1
 * next build`); otherwise every position stays as it is.
 */
async function sourceMapResolver() {
  const mod = await import('source-map-js').catch(() => null);
  const SourceMapConsumer = mod?.SourceMapConsumer ?? mod?.default?.SourceMapConsumer;
  const consumers = new Map();
  return (url, line, column) => {
    const m = /\/_next\/(static\/.+\.js)$/.exec(url ?? '');
    if (!m || !SourceMapConsumer) return null;
    if (!consumers.has(m[1])) {
      // The chunk names its map on its last line (Turbopack's map names differ from the chunk's).
      const chunk = join(root, '.next', m[1]);
      const mapName = existsSync(chunk) ? /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(chunk, 'utf8'))?.[1] : undefined;
      const file = mapName ? join(dirname(chunk), decodeURIComponent(mapName)) : null;
      consumers.set(m[1], file && existsSync(file) ? new SourceMapConsumer(JSON.parse(readFileSync(file, 'utf8'))) : null);
    }
    const pos = consumers.get(m[1])?.originalPositionFor({ line: line + 1, column });
    return pos?.source ? { source: pos.source.replace(/^.*?(components|lib|app|node_modules)\//, '$1/'), line: pos.line, name: pos.name } : null;
  };
}

async function startAndWatch(page) {
  await page.getByTestId('start-button').click();
  // A person watches the runs, not the form: bring the cards on screen (charts off screen don't draw).
  // BENCH_SCROLL=0 leaves the page at the form (charts off screen): a control for what drawing costs.
  if (process.env.BENCH_SCROLL !== '0') await page.evaluate(() => document.getElementById('live-heading')?.scrollIntoView());
}

const server = await startServer(port);
const browser = await chromium.launch({ executablePath: (await findChromium()) ?? undefined, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(watchMainThread);
  await page.goto(server.url);
  await page
    .getByTestId('connection-status')
    .filter({ hasText: /^connected$/ })
    .waitFor();
  const cdp = await page.context().newCDPSession(page);

  // (1) latency: a fresh experiment each time, data file already made by the first.
  const firstDrawn = [];
  // Where the time goes: Start → experiment.created, → first sample received, → drawn.
  const parts = { created: [], received: [], drawn: [] };
  const ages = [];
  for (let i = 0; reps > 0 && i < reps + 1; i++) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await configureExperiment(page, ['pipeline-generator'], { sizeMb: 16, delayMs: 5, sampleMs: 50, retained: false, parallel: false });
    await page.evaluate(() => window.__streamLab && (window.__streamLab.sampleAgesMs = []));
    // BENCH_IDLE_MS: wait this long before Start (a person reading the last results); 0, the default,
    // starts as soon as the form is set, while the server may still be booting its spare child.
    await page.waitForTimeout(Number(process.env.BENCH_IDLE_MS ?? 0));
    await startAndWatch(page);
    await page.waitForFunction(() => window.__streamLab?.firstSampleDrawnAt != null, null, { timeout: 60_000 });
    await page.locator('[data-testid="run-card"][data-status="completed"]').first().waitFor({ timeout: 60_000 });
    const m = await page.evaluate(() => window.__streamLab);
    if (i === 0) continue; // warm-up: includes making the data file
    firstDrawn.push(m.firstSampleDrawnAt - m.startClickedAt);
    parts.created.push(m.createdAt - m.startClickedAt);
    parts.received.push(m.firstSampleReceivedAt - m.createdAt);
    parts.drawn.push(m.firstSampleDrawnAt - m.firstSampleReceivedAt);
    ages.push(...m.sampleAgesMs);
  }
  if (reps > 0)
    console.log(`Start → first sample drawn (ms), ${reps} runs: p50 ${pct(firstDrawn, 50)}, p95 ${pct(firstDrawn, 95)}, values ${firstDrawn.join(', ')}`);
  if (reps > 0)
    console.log(
      `  of which (p50): Start → experiment.created ${pct(parts.created, 50)}, → first sample received ${pct(parts.received, 50)}, → drawn ${pct(parts.drawn, 50)}`,
    );
  if (reps > 0) console.log(`sample age when drawn (ms), ${ages.length} samples: p50 ${pct(ages, 50)}, p95 ${pct(ages, 95)}, max ${Math.max(...ages)}`);

  // (2) many runs in parallel, 150 MiB at 25 ms per chunk ≈ 60 s for the pull readers, 50 ms samples.
  const six = ['rxjs-from', 'ixjs-from', 'pipeline-generator', 'iterator-helper', 'for-await', 'readable-map'];
  const all = await page
    .locator('[data-testid^="strategy-checkbox-"]')
    .evaluateAll((els) => els.map((e) => e.dataset.testid.replace('strategy-checkbox-', '')));
  for (const n of cases) {
    const strategies = n === 6 ? six : all.slice(0, n);
    await page.evaluate(() => window.scrollTo(0, 0));
    await configureExperiment(page, strategies, { sizeMb: 150, delayMs: 25, sampleMs: 50, retained: false, parallel: true });
    await page.evaluate(() => {
      window.__longTasks = [];
      window.__longTaskAt = [];
      window.__frames = [];
      window.__streamLab.sampleAgesMs = [];
      window.__clickAt = performance.now();
      if (window.__chartDraws) Object.assign(window.__chartDraws, { draws: 0, totalMs: 0, maxMs: 0, frames: 0, maxFrameMs: 0 });
    });
    const profiling = Boolean(process.env.BENCH_PROFILE);
    if (profiling) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
      await cdp.send('Profiler.start');
    }
    const started = Date.now();
    await startAndWatch(page);
    await page.waitForFunction(
      (k) =>
        document.querySelectorAll(
          '[data-testid="run-card"]:is([data-status="completed"],[data-status="data-lost"],[data-status="out-of-memory"],[data-status="crashed"])',
        ).length >= k,
      strategies.length,
      { timeout: 600_000, polling: 1000 },
    );
    const seconds = (Date.now() - started) / 1000;
    const profile = profiling ? (await cdp.send('Profiler.stop')).profile : null;
    const { tasks, frames, sampleAges, visibleCharts } = await page.evaluate(() => ({
      tasks: window.__longTasks,
      frames: window.__frames,
      sampleAges: window.__streamLab.sampleAgesMs,
      visibleCharts: [...document.querySelectorAll('[data-testid="run-chart"]')].filter((el) => {
        const r = el.getBoundingClientRect();
        return r.bottom > 0 && r.top < innerHeight;
      }).length,
    }));
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = await cdp.send('Runtime.getHeapUsage');
    const totalPoints = await page.getByTestId('comparison-chart').getAttribute('data-points');
    const outcomes = await page.getByTestId('run-card').evaluateAll((els) => els.slice(-els.length).map((e) => e.dataset.status));
    console.log(
      `${strategies.length} parallel runs, ${seconds.toFixed(0)} s, ${totalPoints} samples drawn, ${visibleCharts} card charts on screen: ` +
        `${tasks.length} long tasks (>50 ms), ${tasks.filter((t) => t > 100).length} over 100 ms, longest ${Math.max(0, ...tasks).toFixed(0)} ms, ` +
        `p95 long task ${tasks.length ? pct(tasks, 95).toFixed(0) : 0} ms; frame time p50 ${pct(frames, 50).toFixed(1)} ms, p95 ${pct(frames, 95).toFixed(1)} ms, ` +
        `max ${Math.max(...frames).toFixed(0)} ms; sample age p50 ${pct(sampleAges, 50)} ms, p95 ${pct(sampleAges, 95)} ms; ` +
        `JS heap after GC ${(heap.usedSize / 2 ** 20).toFixed(1)} MiB; outcomes ${[...new Set(outcomes)].join('/')}`,
    );
    const draws = await page.evaluate(() => window.__chartDraws);
    console.log(
      `  chart draws: ${draws.draws} in ${draws.frames} frames, ${(draws.totalMs / Math.max(1, draws.draws)).toFixed(2)} ms each on average, ` +
        `longest draw ${draws.maxMs.toFixed(1)} ms, longest frame of draws ${draws.maxFrameMs.toFixed(1)} ms, ${(draws.totalMs / seconds / 10).toFixed(1)} % of the main thread`,
    );
    if (profile) console.log(await longStretchFunctions(profile));
    if (process.env.BENCH_DEBUG) {
      console.log(
        await page.evaluate(() => JSON.stringify(window.__longTaskAt.filter(([, d]) => d > 50).map(([at, d]) => [at - Math.round(window.__clickAt), d]))),
      );
    }
    await page.screenshot({ path: `/tmp/bench-ui-${strategies.length}.png` });
  }
} finally {
  await browser.close();
  server.stop();
}
