// Traces the page in Chromium while N strategies start (default: every streams strategy) and prints
// the main thread's long tasks broken down by what ran inside them (script, style, layout, paint, GC).
// `node scripts/trace-start.mjs [seconds]` after `next build`; TRACE_PORT, TRACE_OUT (the trace JSON).
import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { CHROMIUM_ARGS, configureExperiment, findChromium, startServer } from './lib.mjs';

const seconds = Number(process.argv[2] ?? 6);
const out = process.env.TRACE_OUT ?? '/tmp/stream-lab-trace.json';
const server = await startServer(Number(process.env.TRACE_PORT ?? 3260));
const browser = await chromium.launch({ executablePath: (await findChromium()) ?? undefined, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(server.url);
  await page
    .getByTestId('connection-status')
    .filter({ hasText: /^connected$/ })
    .waitFor();
  const all = await page
    .locator('[data-testid^="strategy-checkbox-"]')
    .evaluateAll((els) => els.map((e) => e.dataset.testid.replace('strategy-checkbox-', '')));
  await configureExperiment(page, all, { sizeMb: 150, delayMs: 25, sampleMs: 50, retained: false, parallel: true });
  await browser.startTracing(page, { path: out, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink.user_timing'] });
  await page.getByTestId('start-button').click();
  await page.evaluate(() => document.getElementById('live-heading')?.scrollIntoView());
  await page.waitForTimeout(seconds * 1000);
  await browser.stopTracing();
  await page
    .getByRole('button', { name: 'Stop experiment' })
    .click()
    .catch(() => undefined);
  await page.waitForTimeout(1000);
} finally {
  await browser.close();
  server.stop();
}

const events = JSON.parse(readFileSync(out, 'utf8')).traceEvents;
const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
const tasks = mine.filter((e) => e.name === 'RunTask' && e.dur > 50_000);
const kinds = [
  'FunctionCall',
  'EvaluateScript',
  'TimerFire',
  'FireAnimationFrame',
  'EventDispatch',
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'Layerize',
  'Commit',
  'MinorGC',
  'MajorGC',
  'V8.GC_SCAVENGER',
  'ParseHTML',
];
const t0 = tasks[0]?.ts ?? 0;
for (const t of tasks) {
  const inside = mine.filter((e) => e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur);
  const by = new Map();
  for (const e of inside) if (kinds.includes(e.name)) by.set(e.name, (by.get(e.name) ?? 0) + e.dur / 1000);
  // thread CPU time vs wall time: a task much longer than its CPU time waited for a core.
  const cpu = t.tdur ? ` cpu ${(t.tdur / 1000).toFixed(0)} ms` : '';
  console.log(
    `+${((t.ts - t0) / 1000).toFixed(0)} ms: ${(t.dur / 1000).toFixed(0)} ms${cpu} — ${[...by]
      .sort((a, b) => b[1] - a[1])
      .map(([k, ms]) => `${k} ${ms.toFixed(0)}`)
      .join(', ')}`,
  );
}
console.log(`${tasks.length} tasks over 50 ms in ${seconds} s; trace in ${out}`);
