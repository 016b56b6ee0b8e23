/**
 * Compiles one strategy file of yours (.ts, .mts, .js, .mjs) with everything it imports into one
 * self-contained ES module, .build/user/<sha256>.mjs, named by its content: the fenced child then
 * needs to read that one file, and a worker can check what it was sent against the name.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build, type BuildOptions, type Message } from 'esbuild';
import type { CodeProblem } from '../../lib/protocol';
import { BUILD_DIR, ROOT_DIR } from '../runner/child-build';

/** Where the bundles of yours are kept (beside the child builds, which load them as ../../user/<hash>.mjs). */
export const USER_BUNDLE_DIR = join(BUILD_DIR, 'user');

export type Compiled = { ok: true; hash: string; path: string } | { ok: false; problem: CodeProblem };

/** esbuild's first error as a problem: its file (as shown), line and column (from 1). */
function problemOf(message: Message, shown: string, absPath: string): CodeProblem {
  const loc = message.location;
  // An error in a file it imports names that file; one in the file itself names it as shown.
  const file = loc && resolve(ROOT_DIR, loc.file) !== absPath ? loc.file : shown;
  return { file, line: loc?.line ?? null, column: loc ? loc.column + 1 : null, message: message.text };
}

/** Writes a bundle under its hash, once (a rename, so a reader never sees half a file). */
export function keepBundle(code: string): { hash: string; path: string } {
  const hash = createHash('sha256').update(code).digest('hex');
  const path = join(USER_BUNDLE_DIR, `${hash}.mjs`);
  if (!existsSync(path)) {
    mkdirSync(USER_BUNDLE_DIR, { recursive: true });
    const tmp = `${path}.tmp-${process.pid}-${Date.now()}`;
    writeFileSync(tmp, code);
    renameSync(tmp, path);
  }
  return { hash, path };
}

/** What every bundle of yours is built with. */
const BUILD_OPTIONS: BuildOptions & { write: false } = {
  bundle: true,
  write: false,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'silent',
  // Packages are bundled in (the fence lets the child read this file alone), found from the
  // file's own folder first, then from the project's node_modules (a file from elsewhere).
  nodePaths: [join(ROOT_DIR, 'node_modules')],
  absWorkingDir: ROOT_DIR,
  // CommonJS packages bundled into ESM still call require() for Node's built-ins.
  banner: { js: "import { createRequire as __slCreateRequire } from 'node:module'; const require = __slCreateRequire(import.meta.url);" },
  sourcemap: 'inline',
  sourceRoot: relative(USER_BUNDLE_DIR, ROOT_DIR),
};

/**
 * Checks source typed in the page as if it were saved as `shown` in `dir` (its imports resolved
 * from there): every esbuild error, with line and column. Nothing is written.
 */
export async function checkSource(source: string, dir: string, shown: string): Promise<CodeProblem[]> {
  try {
    await build({
      ...BUILD_OPTIONS,
      stdin: { contents: source, loader: 'ts', resolveDir: dir, sourcefile: shown },
    });
    return [];
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors;
    if (!errors?.length) return [{ file: shown, line: null, column: null, message: err instanceof Error ? err.message : String(err) }];
    return errors
      .slice(0, 20)
      .map((m) => ({ file: shown, line: m.location?.line ?? null, column: m.location ? m.location.column + 1 : null, message: m.text }));
  }
}

/** Compiles a strategy file; a syntax or import error comes back as a problem, never thrown. */
export async function compileStrategy(absPath: string, shown: string): Promise<Compiled> {
  try {
    const result = await build({
      ...BUILD_OPTIONS,
      entryPoints: [absPath],
    });
    const code = result.outputFiles[0]?.text;
    if (code === undefined) return { ok: false, problem: { file: shown, line: null, column: null, message: 'esbuild produced no output' } };
    return { ok: true, ...keepBundle(code) };
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors;
    if (errors?.length) return { ok: false, problem: problemOf(errors[0], shown, absPath) };
    return { ok: false, problem: { file: shown, line: null, column: null, message: err instanceof Error ? err.message : String(err) } };
  }
}
