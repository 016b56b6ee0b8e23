// Helpers shared by the npm scripts (plain JS: they run before anything is built).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** True when there is no production build or a page source is newer than it. */
export function buildIsStale() {
  const buildId = join(root, '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  const sources = ['app', 'components', 'lib', 'labs', 'next.config.js', 'package.json', 'package-lock.json'];
  return sources.some((s) => newestMtime(join(root, s)) > built);
}

/** A Chromium for Playwright: CHROMIUM_PATH, Debian's /usr/bin/chromium, or Playwright's own. */
export async function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  try {
    const { chromium } = await import('@playwright/test');
    candidates.push(chromium.executablePath());
  } catch {
    // Playwright not installed yet: only the system paths count.
  }
  return candidates.find((p) => p && existsSync(p)) ?? null;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Starts the production server (needs `next build`) on a port; resolves once it listens. */
export async function startServer(port, extraEnv = {}) {
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', STREAM_LAB_PREPARE_MB: '0', ...extraEnv },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    server.stdout.on('data', (d) => String(d).includes('ready on') && resolve());
    server.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => server.kill('SIGTERM') };
}

/** Ticks the given strategies (and only those) and fills the given inputs (input-<name>). */
export async function configureExperiment(page, strategies, values) {
  for (const box of await page.locator('[data-testid^="strategy-checkbox-"]').all()) {
    const id = (await box.getAttribute('data-testid')).replace('strategy-checkbox-', '');
    await box.setChecked(strategies.includes(id));
  }
  for (const [k, v] of Object.entries(values)) {
    if (typeof v === 'boolean') await page.getByTestId(`input-${k}`).setChecked(v);
    else await page.getByTestId(`input-${k}`).fill(String(v));
  }
}
