// `npm start`: builds the pages when needed, then serves http://localhost:3000 (PORT/HOST override)
// from this same process, so stopping it stops everything.
import { spawnSync } from 'node:child_process';
import { register } from 'tsx/esm/api';
import { buildIsStale, root } from './lib.mjs';

process.env.NEXT_TELEMETRY_DISABLED = '1';
process.env.NODE_ENV ??= 'production';

if (buildIsStale()) {
  console.log('Building the dashboard (first start or sources changed)…');
  const built = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) {
    console.error('next build failed; see above.');
    process.exit(built.status ?? 1);
  }
}

register();
await import('../server/index.ts');
