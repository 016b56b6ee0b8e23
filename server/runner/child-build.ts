/**
 * Compiles the child entry (server/child/bootstrap.ts), every lab's scenario and every strategy to
 * plain ESM under .build/, so a run's process starts with bare `node` and no TypeScript loader:
 * the loader alone would add ~45 MB of RSS to every child's baseline (measured: 40 MB bare vs
 * 85 MB with `--import tsx`). The layout mirrors server/: child/bootstrap.mjs, labs/<lab>/….
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { LABS } from '../labs/registry';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const rootDir = join(serverDir, '..');

/** Every source the child build depends on (the hash names the build). */
function sourceFiles(): string[] {
  const dirs = [join(serverDir, 'child'), ...LABS.flatMap((l) => [join(serverDir, 'labs', l.dir), join(serverDir, 'labs', l.dir, 'strategies')])];
  return dirs
    .flatMap((d) => readdirSync(d).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => join(d, f)))
    .sort();
}

/** What esbuild compiles: the bootstrap, and per lab its scenario and strategies. */
function entryPoints(): Array<{ in: string; out: string }> {
  const labs = LABS.flatMap((l) => [
    { in: join(serverDir, 'labs', l.dir, 'scenario.ts'), out: `labs/${l.dir}/scenario` },
    ...[...l.strategyFiles.values()].map((f) => ({ in: join(serverDir, 'labs', l.dir, 'strategies', `${f}.ts`), out: `labs/${l.dir}/strategies/${f}` })),
    ...(l.childEntries ?? []).map((f) => ({ in: join(serverDir, 'labs', l.dir, `${f}.ts`), out: `labs/${l.dir}/${f}` })),
  ]);
  return [{ in: join(serverDir, 'child', 'bootstrap.ts'), out: 'child/bootstrap' }, ...labs];
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
  const entry = join(dir, 'child', 'bootstrap.mjs');
  if (existsSync(entry)) return entry;

  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  await build({
    entryPoints: entryPoints(),
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
