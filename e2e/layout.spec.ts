/**
 * Every page type at a phone's width (390×844): nothing wider than the viewport, and no serious or
 * critical axe violation. Run pages, compare and embeds show two recorded runs of each lab: those
 * earlier specs left, or a small experiment started over the socket (as a page would start it). With STREAM_LAB_SCREENSHOTS=<dir> it also saves each page at 390 and 1440
 * px wide (npm run screenshots writes docs/screenshots/).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './fixtures';
import { TestClient } from '../server/test-client';
import { DEFAULT_STREAMS_PARAMS } from '../labs/streams/shared/params';
import { DEFAULT_HTTP_PARAMS } from '../labs/http/shared/params';
import { DEFAULT_CPU_PARAMS } from '../labs/cpu/shared/params';
import { DEFAULT_DEADLINE_PARAMS } from '../labs/deadline/shared/params';
import { DEFAULT_HOTCODE_PARAMS } from '../labs/hotcode/shared/params';

const SHOTS = process.env.STREAM_LAB_SCREENSHOTS ?? '';
const WIDTHS = SHOTS ? [390, 1440] : [390];

/** Two strategies and small knobs per lab: a few seconds a run. */
const SMALL: Record<string, { strategies: string[]; params: Record<string, unknown> }> = {
  streams: { strategies: ['rxjs-from', 'pipeline-generator'], params: { ...DEFAULT_STREAMS_PARAMS, sizeMb: 2, delayMs: 5 } },
  http: { strategies: ['buffered-json', 'ndjson-cursor'], params: { ...DEFAULT_HTTP_PARAMS, rows: 1000, requests: 4, concurrency: 2 } },
  cpu: { strategies: ['single-thread', 'worker-pool'], params: { ...DEFAULT_CPU_PARAMS, n: 30, requests: 4 } },
  deadline: {
    strategies: ['unbounded', 'worker-pool'],
    params: { ...DEFAULT_DEADLINE_PARAMS, durationS: 4, spikeStartS: 1, spikeS: 2, baselineRps: 2, spikeRps: 6, objects: 10, cpuMs: 1 },
  },
  hotcode: { strategies: ['report-slow', 'report-fixed'], params: { ...DEFAULT_HOTCODE_PARAMS, rows: 2000, requests: 2 } },
};

/** lab → its two run ids, once ended. */
const runs: Record<string, string[]> = {};

test.beforeAll(async ({ baseURL, request }) => {
  test.setTimeout(180_000);
  // Runs earlier specs recorded serve as they are (the suite shares one server); a lab with fewer than
  // two gets a small experiment.
  for (const lab of Object.keys(SMALL)) {
    const { runs: listed } = (await (await request.get(`/api/runs?lab=${lab}`)).json()) as { runs: Array<{ id: string; startedAt: number | null }> };
    const started = listed.filter((r) => r.startedAt !== null).map((r) => r.id);
    if (started.length >= 2) runs[lab] = started.slice(0, 2);
  }
  const missing = Object.keys(SMALL).filter((lab) => !runs[lab]);
  if (missing.length === 0) return;
  const client = new TestClient(baseURL!);
  await client.opened;
  await client.next('snapshot');
  try {
    for (const lab of missing) {
      const { strategies, params } = SMALL[lab];
      const mark = client.messages.length;
      client.send({ type: 'experiment.start', lab, strategies, params });
      const created = await Promise.race([
        client.next('experiment.created', (m) => m.experiment.lab === lab, mark),
        client.next('error', () => true, mark).then((e) => Promise.reject(new Error(`${lab}: ${e.message}`))),
      ]);
      const ids = created.experiment.runIds;
      await Promise.all(ids.map((id) => client.next('run.ended', (m) => m.run.id === id, mark)));
      runs[lab] = ids;
    }
  } finally {
    client.close();
  }
});

/** The pages to check: each lab's dashboard and a run page of each, history, compare, lessons, embeds. */
async function pages(page: Page): Promise<Array<[name: string, path: string]>> {
  await page.goto('/lessons');
  const lessons = await page.locator('a[href^="/lessons/"]').evaluateAll((as) => [...new Set(as.map((a) => a.getAttribute('href')!))]);
  expect(lessons.length).toBeGreaterThanOrEqual(5);
  return [
    ...Object.keys(SMALL).map((lab): [string, string] => [`dashboard-${lab}`, `/?lab=${lab}`]),
    ...Object.entries(runs).map(([lab, ids]): [string, string] => [`run-${lab}`, `/runs/${ids[0]}`]),
    ['history', '/runs'],
    ...Object.entries(runs).map(([lab, ids]): [string, string] => [`compare-${lab}`, `/runs/compare?ids=${ids.join(',')}`]),
    ['lessons', '/lessons'],
    ...lessons.map((href): [string, string] => [`lesson-${href.split('/').pop()}`, href]),
    ['embed-run', `/embed/runs/${runs.streams[0]}`],
    ['embed-compare', `/embed/compare?ids=${runs.cpu.join(',')}`],
    ['embed-experiment', `/embed/experiment?lab=deadline&strategies=unbounded,worker-pool`],
  ];
}

/** Serious and critical axe violations on the page as it is now, one line each; `rules` limits the check to those. */
async function axeViolations(page: Page, name: string, rules?: string[]): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  const { violations } = await (rules ? builder.withRules(rules) : builder).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${name}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join('; ')}`,
    );
}

test('no page is wider than a 390 px phone screen, and axe finds no serious or critical violation on any page type, light or dark', async ({ page }) => {
  test.setTimeout(400_000);
  const list = await pages(page);
  const wide: string[] = [];
  const violations: string[] = [];
  // axe, light (every rule) and dark (colour contrast): one page of each type (a dashboard, a run page, history, compare, the lessons, a
  // lesson, each embed), a different lab's where there is a choice; the width check: every page. Dark
  // pages are visited only for axe (or screenshots).
  const types = new Set([
    'dashboard-streams',
    'run-http',
    'history',
    'compare-deadline',
    'lessons',
    'lesson-cpu',
    'embed-run',
    'embed-compare',
    'embed-experiment',
  ]);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const [name, path] of list) {
        if (scheme === 'dark' && !SHOTS && !types.has(name)) continue;
        await page.goto(path);
        // Pages fill in after hydration: the dashboard once connected, recorded pages once read.
        await page.waitForLoadState('networkidle');
        if (path.startsWith('/?')) await expect(page.getByTestId('connection-status')).toHaveText('connected');
        if (width === 390) {
          const { scroll, client } = await page.evaluate(() => ({
            scroll: document.documentElement.scrollWidth,
            client: document.documentElement.clientWidth,
          }));
          if (scheme === 'light' && scroll > client) wide.push(`${name} (${path}): ${scroll} px`);
          // Dark mode changes colours only: the light pass checked every other rule on the same markup.
          if (types.has(name)) violations.push(...(await axeViolations(page, `${name} (${scheme})`, scheme === 'dark' ? ['color-contrast'] : undefined)));
        }
        if (SHOTS) {
          mkdirSync(SHOTS, { recursive: true });
          // JPEG at 50: a full page is ~5× smaller than PNG, small enough to keep in docs/screenshots/.
          await page.screenshot({ path: join(SHOTS, `${name}-${width}-${scheme}.jpg`), fullPage: true, type: 'jpeg', quality: 50 });
        }
      }
    }
  }
  console.log(`checked at 390 px (width): ${list.map(([name]) => name).join(', ')}; axe, light and dark: ${[...types].join(', ')}`);
  expect(wide, 'pages wider than the viewport').toEqual([]);
  expect(violations, 'serious or critical accessibility violations').toEqual([]);
});

test('dark mode follows the system, and the toggle overrides it on every page', async ({ page }) => {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/runs');
  const light = await background();
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await background();
  expect(dark).not.toBe(light);
  // Chosen in one page's header, kept for the next page, whatever the system says.
  await page.getByTestId('theme-toggle').selectOption('light');
  expect(await background()).toBe(light);
  await page.goto('/lessons');
  expect(await background()).toBe(light);
  await expect(page.getByTestId('theme-toggle')).toHaveValue('light');
  await page.getByTestId('theme-toggle').selectOption('system');
  expect(await background()).toBe(dark);
});
