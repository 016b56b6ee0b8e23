/**
 * Compiles one strategy file of yours (.ts, .mts, .js, .mjs) with everything it imports into one
 * self-contained ES module, .build/user/<sha256>.mjs, named by its content: the fenced child then
 * needs to read that one file, and a worker can check what it was sent against the name.
 *
 * esbuild runs in the server, unfenced, so what a file may pull into its bundle is limited here:
 * code and JSON from the file's own folder (and below) or from a node_modules folder, nothing else
 * (an `import text from '/etc/passwd' with { type: 'text' }` would otherwise put any readable file
 * into a bundle, and from there into a label on every page).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { build, type BuildOptions, type Message, type Plugin } from 'esbuild';
import type { CodeProblem } from '../../lib/protocol';
import { BUILD_DIR, ROOT_DIR } from '../runner/child-build';

/** Where the bundles of yours are kept (beside the child builds, which load them as ../../user/<hash>.mjs). */
export const USER_BUNDLE_DIR = join(BUILD_DIR, 'user');

export type Compiled =
  | {
      ok: true;
      hash: string;
      /** The bundle the run's child loads. */
      path: string;
      /** The same code with its source map inline, for the probe only (its errors then name the file's own lines). */
      probePath: string;
      /** The files of yours compiled into it (packages left out), from the project's root: a change to any compiles it again. */
      inputs: string[];
    }
  | { ok: false; problem: CodeProblem };

/** esbuild's first error as a problem: its file (as shown), line and column (from 1). */
function problemOf(message: Message, shown: string, absPath: string): CodeProblem {
  const loc = message.location;
  // An error in a file it imports names that file; one in the file itself names it as shown.
  const file = loc && resolve(ROOT_DIR, loc.file) !== absPath ? loc.file : shown;
  return { file, line: loc?.line ?? null, column: loc ? loc.column + 1 : null, message: message.text };
}

/** Writes a file once under its name (a rename, so a reader never sees half a file). */
function writeOnce(path: string, text: string): void {
  if (existsSync(path)) return;
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${Date.now()}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** Writes a bundle under its hash, once. */
export function keepBundle(code: string): { hash: string; path: string } {
  const hash = createHash('sha256').update(code).digest('hex');
  const path = join(USER_BUNDLE_DIR, `${hash}.mjs`);
  writeOnce(path, code);
  return { hash, path };
}

/** File kinds a strategy may import: code, and JSON data. */
const LOADABLE = /\.(m?[jt]s|cjs|tsx?|jsx|json)$/;

/** The project's labs, which a strategy of yours may import as `@stream-lab/labs/<lab>/…` (a built-in's helpers, in a copy of it). */
const LABS_DIR = join(ROOT_DIR, 'labs');
export const LABS_ALIAS = '@stream-lab/labs/';
/** The project's code a lab's helpers import in turn (the labs, lib/, the child's harness): bundled in, like a package. */
const HARNESS_DIRS = [LABS_DIR, join(ROOT_DIR, 'lib'), join(ROOT_DIR, 'server', 'child')];

/** `@stream-lab/labs/hotcode/child/rows` → the file it names under labs/ (a .ts, .mts, .js or .mjs), or null. */
function labsFile(spec: string): string | null {
  const base = resolve(LABS_DIR, spec.slice(LABS_ALIAS.length));
  if (!base.startsWith(LABS_DIR + sep)) return null;
  return ['', '.ts', '.mts', '.js', '.mjs', '/index.ts'].map((ext) => base + ext).find((f) => existsSync(f) && statSync(f).isFile()) ?? null;
}

/**
 * Refuses to load anything outside the file's folder, node_modules and the labs' own code, or of
 * another kind (text, binary).
 */
function fencedImports(home: string): Plugin {
  const inHome = (p: string) => p === home || p.startsWith(home + sep);
  return {
    name: 'stream-lab-fenced-imports',
    setup(b) {
      b.onResolve({ filter: /^@stream-lab\/labs\// }, (args) => {
        const path = labsFile(args.path);
        return path ? { path } : { errors: [{ text: `${args.path}: no such file under the project's labs/` }] };
      });
      b.onLoad({ filter: /.*/ }, (args) => {
        const where = args.path;
        const allowedPlace = inHome(where) || HARNESS_DIRS.some((d) => where.startsWith(d + sep)) || where.split(sep).includes('node_modules');
        const kind = args.with?.type;
        if (allowedPlace && LOADABLE.test(where) && (kind === undefined || kind === 'json')) return undefined;
        return {
          errors: [
            {
              text: `a strategy of yours may import code or JSON from its own folder, node_modules or the labs' code (${LABS_ALIAS}…) only, not ${relative(home, where) || where}${kind ? ` (as ${kind})` : ''}`,
            },
          ],
        };
      });
    },
  };
}

/** What every bundle of yours is built with. */
function buildOptions(home: string, externalPackages = false): BuildOptions & { write: false; metafile: true } {
  return {
    bundle: true,
    // A lab whose fence reads node_modules (Lab.userFence.packages) gets its packages imported, not
    // bundled: the harness's own copies (one pg, one piscina), and packages that find files beside
    // themselves (piscina's worker script) work as installed.
    ...(externalPackages && { packages: 'external' as const }),
    write: false,
    metafile: true,
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
    // Inline, for the probe's copy; the run's bundle has it cut off (it would weigh on the run's memory).
    sourcemap: 'inline',
    sourceRoot: relative(USER_BUNDLE_DIR, ROOT_DIR),
    plugins: [fencedImports(home)],
  };
}

/**
 * Checks source typed in the page as if it were saved as `shown` in `dir` (its imports resolved
 * from there): every esbuild error, with line and column. Nothing is written.
 */
export async function checkSource(source: string, dir: string, shown: string): Promise<CodeProblem[]> {
  try {
    await build({ ...buildOptions(resolve(dir)), stdin: { contents: source, loader: 'ts', resolveDir: dir, sourcefile: shown } });
    return [];
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors;
    if (!errors?.length) return [{ file: shown, line: null, column: null, message: err instanceof Error ? err.message : String(err) }];
    return errors
      .slice(0, 20)
      .map((m) => ({ file: shown, line: m.location?.line ?? null, column: m.location ? m.location.column + 1 : null, message: m.text }));
  }
}

/** Sizes and mtimes of the files compiled into a bundle, as one string to compare. */
export function inputsSignature(files: readonly string[]): string {
  return files
    .map((f) => {
      try {
        const s = statSync(resolve(ROOT_DIR, f));
        return `${f}:${s.size}:${s.mtimeMs}`;
      } catch {
        return `${f}:gone`;
      }
    })
    .join('|');
}

/** The inline source map comment esbuild appends last. */
const INLINE_MAP = /\n\/\/# sourceMappingURL=data:[^\n]*\n?$/;

/** Compiles a strategy file; a syntax or import error comes back as a problem, never thrown. */
export async function compileStrategy(absPath: string, shown: string, opts: { externalPackages?: boolean } = {}): Promise<Compiled> {
  try {
    const result = await build({ ...buildOptions(dirname(absPath), opts.externalPackages), entryPoints: [absPath] });
    const withMap = result.outputFiles[0]?.text;
    if (withMap === undefined) return { ok: false, problem: { file: shown, line: null, column: null, message: 'esbuild produced no output' } };
    const { hash, path } = keepBundle(withMap.replace(INLINE_MAP, '\n'));
    const probePath = join(USER_BUNDLE_DIR, `${hash}.probe.mjs`);
    writeOnce(probePath, withMap);
    const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.split('/').includes('node_modules'));
    return { ok: true, hash, path, probePath, inputs };
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors;
    if (errors?.length) return { ok: false, problem: problemOf(errors[0], shown, absPath) };
    return { ok: false, problem: { file: shown, line: null, column: null, message: err instanceof Error ? err.message : String(err) } };
  }
}
