// Helpers shared by the npm scripts (plain JS: they run before anything is built).
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
  const sources = ['app', 'components', 'lib', 'next.config.js', 'package.json', 'package-lock.json'];
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
