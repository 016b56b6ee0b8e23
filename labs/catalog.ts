import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { StrategyInfo } from '../lib/protocol';
import { LABS, userStrategyEntries, type UserStrategyEntry } from './registry';

const require = createRequire(import.meta.url);

/** Installed version of an npm package, or of Node for built-ins. */
export function libraryVersion(library: string): string {
  if (library === 'node') return process.versions.node;
  // Not require(`${library}/package.json`): packages with an `exports` map (pg-query-stream) refuse it.
  // Walk up from the package's entry to its own package.json instead.
  for (let dir = dirname(require.resolve(library)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
    if (pkg.name === library) return pkg.version;
  }
  throw new Error(`no package.json found for ${library}`);
}

/**
 * The code a user is shown: the strategy file's imports and its `run` function, read from the very
 * source file the child process runs (compiled unchanged), so there is no second copy to drift.
 */
export function shownCode(labDir: string, file: string): string {
  const path = fileURLToPath(new URL(`./${labDir}/child/strategies/${file}.ts`, import.meta.url));
  const source = readFileSync(path, 'utf8');
  const start = source.indexOf('// #region run');
  const end = source.indexOf('// #endregion run');
  if (start < 0 || end < start) throw new Error(`labs/${labDir}/child/strategies/${file}.ts has no "// #region run" block`);
  const imports = source
    .split('\n')
    .filter((line) => line.startsWith('import ') && !line.startsWith('import type'))
    .join('\n');
  const body = source.slice(source.indexOf('\n', start) + 1, end).trimEnd();
  return imports ? `${imports}\n\n${body}` : body;
}

/** The version of a package a strategy names, or what stands for it when it is not installed here (a strategy of yours may name any). */
export function declaredVersion(library: string): string {
  try {
    return libraryVersion(library);
  } catch {
    return 'not installed here';
  }
}

/** A strategy of yours as the page lists it: under "Yours", with its whole source, and its problem if it has one. */
function userInfo(e: UserStrategyEntry): StrategyInfo {
  const s = e.strategy;
  return {
    lab: e.lab,
    id: e.id,
    label: s?.label ?? e.id,
    library: s?.library ?? 'node',
    libraryVersion: declaredVersion(s?.library ?? 'node'),
    mode: s?.mode ?? null,
    keepsResults: s?.keepsResults ?? false,
    role: s?.role ?? null,
    comparedWith: [...(s?.comparedWith ?? [])],
    // The loader gives a file of yours a default expectation (completed) to run it; it declared none.
    expectedOutcome: null,
    explanation: s?.explanation ?? '',
    code: e.source,
    article: null,
    origin: 'yours',
    // A copy of a file of yours is the whole file: nothing to add.
    declares: {},
    file: e.file,
    problem: e.problem,
  };
}

let cached: StrategyInfo[] | null = null;

/**
 * Everything the browser needs to know about each strategy of every lab, in list order per lab:
 * the built-ins, then the strategies of yours as last scanned.
 */
export function strategyCatalog(): StrategyInfo[] {
  return [...builtInCatalog(), ...userStrategyEntries().map(userInfo)];
}

/** The lab's declared fields (Lab.declaredFields) as this strategy sets them: plain values only. */
function declaredOf(s: object, fields: readonly string[] = []): Record<string, string | number | boolean> {
  const values = s as Record<string, unknown>;
  return Object.fromEntries(
    fields.flatMap((f) => (['string', 'number', 'boolean'].includes(typeof values[f]) ? [[f, values[f] as string | number | boolean]] : [])),
  );
}

function builtInCatalog(): StrategyInfo[] {
  cached ??= LABS.flatMap((lab) =>
    lab.strategies.map((s) => ({
      lab: lab.schema.id,
      id: s.id,
      label: s.label,
      library: s.library,
      libraryVersion: libraryVersion(s.library),
      mode: s.mode,
      keepsResults: s.keepsResults,
      role: s.role ?? null,
      comparedWith: [...(s.comparedWith ?? [])],
      expectedOutcome: s.expects.outcome,
      explanation: s.explanation,
      code: shownCode(lab.dir, lab.strategyFiles.get(s.id)!),
      article: s.article,
      origin: 'built-in' as const,
      declares: declaredOf(s, lab.declaredFields),
      file: null,
      problem: null,
    })),
  );
  return cached;
}
