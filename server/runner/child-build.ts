/**
 * Compiles the child entry (server/child/bootstrap.ts), every lab's scenario, strategies and other
 * child-side entries (labs/<lab>/child/) to plain ESM under .build/, so a run's process starts with
 * bare `node` and no TypeScript loader: the loader alone would add ~45 MB of RSS to every child's
 * baseline (measured: 40 MB bare vs 85 MB with `--import tsx`). The output mirrors the sources:
 * child/bootstrap.mjs, labs/<lab>/child/….
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { LABS } from '../../labs/registry';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const rootDir = join(serverDir, '..');
/** The project's root folder. */
export const ROOT_DIR = rootDir;
/** Where compiled child code goes: the builds (child-<hash>/) and the bundles of strategies of yours (user/). */
export const BUILD_DIR = join(rootDir, '.build');
const labsDir = join(rootDir, 'labs');

/**
 * The folders child code may import from. The build's name is a hash of every source file in them,
 * and each build checks that esbuild bundled nothing from elsewhere, so an edit to a bundled file
 * always makes a new build (a stale child would run yesterday's code).
 */
function sourceDirs(): string[] {
  return [
    join(serverDir, 'child'),
    // A run's own database (the labs that start one), opened from their child.
    join(serverDir, 'db'),
    join(rootDir, 'lib', 'protocol'),
    labsDir,
    ...LABS.flatMap((l) => [join(labsDir, l.dir, 'child'), join(labsDir, l.dir, 'shared')]),
  ];
}

/** Single files child code imports from folders that are otherwise the parent's or the page's. */
const SOURCE_FILES = ['server/runner/proc-status.ts', 'lib/runtimes.ts'];

/** Every .ts file (tests aside) in those folders and below (directly in labs/ only: its lab folders are named), and the single files. */
function sourceFiles(): string[] {
  const walk = (d: string, deep: boolean): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) => {
      const p = join(d, e.name);
      if (e.isDirectory()) return deep ? walk(p, true) : [];
      return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
    });
  return [...sourceDirs().flatMap((d) => (existsSync(d) ? walk(d, d !== labsDir) : [])), ...SOURCE_FILES.map((f) => join(rootDir, f))].sort();
}

/** What esbuild compiles: the bootstrap, and per lab its scenario, strategies and other child entries. */
function entryPoints(): Array<{ in: string; out: string }> {
  const labs = LABS.flatMap((l) => {
    const entry = (name: string) => ({ in: join(labsDir, l.dir, 'child', `${name}.ts`), out: `labs/${l.dir}/child/${name}` });
    return [entry('scenario'), ...[...l.strategyFiles.values()].map((f) => entry(`strategies/${f}`)), ...(l.childEntries ?? []).map(entry)];
  });
  return [{ in: join(serverDir, 'child', 'bootstrap.ts'), out: 'child/bootstrap' }, ...labs];
}

/** Packages a run's child must never load: zod (~110 ms and 14 MB a child) and the page's. */
const FORBIDDEN_PACKAGES = /^(zod|react|react-dom|next)(\/|$)/;

/**
 * What is wrong with a child build, or null: a bundled file its hash does not cover (the build would
 * go stale), a forbidden package, or the page's code. The lint rules say the same per file; this
 * sees what arrives through other modules too.
 */
export function bundleProblem(metafile: Metafile, hashed: ReadonlySet<string>): string | null {
  const inputs = Object.keys(metafile.inputs);
  const unhashed = inputs.filter((f) => !hashed.has(f));
  if (unhashed.length) return `the child build bundles ${unhashed.join(', ')}, outside the folders its hash covers (child-build.ts sourceDirs)`;
  const page = inputs.filter((f) => /^(components|app)\/|^labs\/[^/]+\/view\//.test(f));
  if (page.length) return `the child build bundles the page's ${page.join(', ')}`;
  for (const [out, o] of Object.entries(metafile.outputs)) {
    const bad = o.imports.find((i) => i.external && FORBIDDEN_PACKAGES.test(i.path));
    if (bad)
      return `the child's ${out.replace(/^.*?(child\/|labs\/)/, '$1')} loads ${bad.path} (through ${o.entryPoint ?? 'a shared chunk'}); a run's child must not`;
  }
  return null;
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
  const sources = sourceFiles();
  const hash = createHash('sha256');
  for (const f of sources) hash.update(relative(rootDir, f)).update(readFileSync(f));
  const dir = join(BUILD_DIR, `child-${hash.digest('hex').slice(0, 16)}`);
  const entry = join(dir, 'child', 'bootstrap.mjs');
  if (existsSync(entry)) return entry;

  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  const result = await build({
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
    metafile: true,
    absWorkingDir: rootDir,
  });
  const problem = bundleProblem(result.metafile, new Set(sources.map((f) => relative(rootDir, f))));
  if (problem) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(problem);
  }
  try {
    renameSync(tmp, dir);
  } catch {
    // Another process finished the same build first; its output is identical.
    rmSync(tmp, { recursive: true, force: true });
  }
  return entry;
}
