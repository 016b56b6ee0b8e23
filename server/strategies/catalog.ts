import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { StrategyInfo } from '../../lib/protocol';
import { STRATEGIES, strategyModule } from './index';

const require = createRequire(import.meta.url);

/** Installed version of an npm package, or of Node for built-ins. */
export function libraryVersion(library: string): string {
  if (library === 'node') return process.versions.node;
  return (require(`${library}/package.json`) as { version: string }).version;
}

/**
 * The code a user is shown: the strategy file's imports and its `run` function, read from the very
 * source file the child process runs (compiled unchanged), so there is no second copy to drift.
 */
export function shownCode(moduleName: string): string {
  const file = fileURLToPath(new URL(`./${moduleName}.ts`, import.meta.url));
  const source = readFileSync(file, 'utf8');
  const start = source.indexOf('// #region run');
  const end = source.indexOf('// #endregion run');
  if (start < 0 || end < start) throw new Error(`${moduleName}.ts has no "// #region run" block`);
  const imports = source
    .split('\n')
    .filter((line) => line.startsWith('import ') && !line.startsWith('import type'))
    .join('\n');
  const body = source.slice(source.indexOf('\n', start) + 1, end).trimEnd();
  return imports ? `${imports}\n\n${body}` : body;
}

let cached: StrategyInfo[] | null = null;

/** Everything the browser needs to know about each strategy. */
export function strategyCatalog(): StrategyInfo[] {
  cached ??= STRATEGIES.map((s) => ({
    id: s.id,
    label: s.label,
    library: s.library,
    libraryVersion: libraryVersion(s.library),
    mode: s.mode,
    keepsResults: s.keepsResults,
    explanation: s.explanation,
    code: shownCode(strategyModule(s.id)),
    article: s.article,
  }));
  return cached;
}
