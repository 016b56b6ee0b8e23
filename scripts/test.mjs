// `npm test`: typecheck, lint, unit + integration tests, load tests, build, Playwright end-to-end, in that order;
// stops at the first failure.
import { spawnSync } from 'node:child_process';
import { findChromium, root } from './lib.mjs';

const chromium = await findChromium();
if (!chromium) {
  console.error(
    'npm test needs a Chromium for the end-to-end tests and found none.\n' +
      'Set CHROMIUM_PATH to a Chromium binary, or install one:\n' +
      '  Debian/Ubuntu: sudo apt-get install -y chromium   (gives /usr/bin/chromium)\n' +
      '  elsewhere:     npx playwright install chromium',
  );
  process.exit(1);
}

const env = { ...process.env, CHROMIUM_PATH: chromium, NEXT_TELEMETRY_DISABLED: '1' };
const node = process.execPath;
const steps = [
  ['typecheck', [node, 'node_modules/typescript/bin/tsc', '--noEmit']],
  ['lint', [node, 'node_modules/eslint/bin/eslint.js', '.']],
  ['unit + integration', [node, 'node_modules/vitest/vitest.mjs', 'run']],
  ['load (one file at a time)', [node, 'node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.load.config.ts']],
  ['build', [node, 'node_modules/next/dist/bin/next', 'build']],
  ['e2e (Playwright, Chromium at ' + chromium + ')', [node, 'node_modules/@playwright/test/cli.js', 'test']],
];

for (const [name, [cmd, ...args]] of steps) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`\n=== ${name} FAILED (exit ${result.status ?? result.signal}) ===`);
    process.exit(result.status || 1);
  }
  console.log(`=== ${name} ok in ${((Date.now() - started) / 1000).toFixed(0)} s ===`);
}
console.log('\nAll checks passed.');
