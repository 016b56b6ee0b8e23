/**
 * Finds a lab's strategies: every `.ts` file in its strategies/ folder (tests aside) exports one
 * `strategy`. Adding a strategy is adding a file; nothing else lists them.
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { STRATEGY_ID_PATTERN } from '../lib/protocol/common';
import type { StrategyBase } from './types';

/** A strategy and the file (name without extension) the child loads it from. */
export interface FoundStrategy<S extends StrategyBase> {
  strategy: S;
  file: string;
}

/** The strategy files of a folder, sorted by name (before loading decides the list order). */
export function strategyFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
    .sort();
}

/** Loads every strategy of a folder, in list order; a malformed or duplicate one stops startup, naming the file. */
export async function loadStrategies<S extends StrategyBase>(dir: string): Promise<FoundStrategy<S>[]> {
  const found: FoundStrategy<S>[] = [];
  for (const name of strategyFiles(dir)) {
    const mod = (await import(pathToFileURL(join(dir, name)).href)) as { strategy?: S };
    const s = mod.strategy;
    const where = `${basename(dir)}/${name}`;
    if (!s || typeof s.id !== 'string' || typeof (s as { run?: unknown }).run !== 'function') {
      throw new Error(`${where} must export a \`strategy\` with an id and a run function`);
    }
    if (!STRATEGY_ID_PATTERN.test(s.id)) throw new Error(`${where}: strategy id "${s.id}" must be letters, digits and dashes`);
    const twin = found.find((f) => f.strategy.id === s.id);
    if (twin) throw new Error(`${where}: strategy id "${s.id}" is already used by ${twin.file}.ts`);
    found.push({ strategy: s, file: name.slice(0, -3) });
  }
  return found.sort((a, b) => a.strategy.order - b.strategy.order || a.strategy.id.localeCompare(b.strategy.id));
}
