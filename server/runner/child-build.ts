/**
 * Compiles the child entry and every strategy to plain ESM under .build/, so a run's process starts
 * with bare `node` and no TypeScript loader: the loader alone would add ~45 MB of RSS to every
 * child's baseline (measured: 40 MB bare vs 85 MB with `--import tsx`).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { STRATEGY_MODULES } from '../strategies/index';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const rootDir = join(serverDir, '..');

function sourceFiles(): string[] {
  const dirs = [join(serverDir, 'runner'), join(serverDir, 'strategies')];
  return dirs
    .flatMap((d) => readdirSync(d).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => join(d, f)))
    .sort();
}

let pending: Promise<string> | null = null;

/**
 * Path of the compiled child entry, building it first if the sources changed. The output folder is
 * named by a hash of the sources, so concurrent builds (parallel test workers) never see half a tree.
 */
export function ensureChildBuild(): Promise<string> {
  pending ??= buildOnce().finally(() => {
    pending = null;
  });
  return pending;
}

async function buildOnce(): Promise<string> {
  const hash = createHash('sha256');
  for (const f of sourceFiles()) hash.update(f).update(readFileSync(f));
  const dir = join(rootDir, '.build', `child-${hash.digest('hex').slice(0, 16)}`);
  const entry = join(dir, 'child.mjs');
  if (existsSync(entry)) return entry;

  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  await build({
    entryPoints: [
      { in: join(serverDir, 'runner', 'child.ts'), out: 'child' },
      ...STRATEGY_MODULES.map((m) => ({ in: join(serverDir, 'strategies', `${m}.ts`), out: `strategies/${m}` })),
    ],
    outdir: tmp,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Libraries stay in node_modules and are loaded only by the strategy that imports them.
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
  });
  try {
    renameSync(tmp, dir);
  } catch {
    // Another process finished the same build first; its output is identical.
    rmSync(tmp, { recursive: true, force: true });
  }
  return entry;
}
