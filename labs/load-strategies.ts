/**
 * Finds a lab's strategies: every `.ts` file in its strategies/ folder (tests aside) exports one
 * `strategy`. Adding a strategy is adding a file; nothing else lists them.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STRATEGY_ID_PATTERN } from '../lib/protocol/common';
import type { StrategyBase } from './types';

const labsRoot = fileURLToPath(new URL('.', import.meta.url));

/** A strategy file as messages name it: labs/<lab>/child/strategies/<file>.ts, or its full path elsewhere. */
function shown(path: string): string {
  const rel = relative(labsRoot, path);
  return rel.startsWith('..') ? path : `labs/${rel}`;
}

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

/** What a lab asks of its strategies beyond the common shape. */
export interface StrategyRules {
  /** The lab's roles (labs/<lab>/shared/roles.ts), or null when its strategies declare none. */
  roles: Readonly<Record<string, string>> | null;
}

/** Why a strategy's role or comparisons can't be used, or null; `where` names its file. */
export function roleProblem(s: StrategyBase, where: string, roles: StrategyRules['roles']): string | null {
  if (roles === null) return s.role === undefined ? null : `${where}: role "${s.role}" declared, but this lab has no roles`;
  const known = Object.keys(roles).join(', ');
  if (s.role === undefined) return `${where}: no role; a strategy of this lab declares what it is there to show, one of: ${known}`;
  if (!Object.hasOwn(roles, s.role)) return `${where}: unknown role "${s.role}"; this lab's roles are: ${known}`;
  return null;
}

/** Loads every strategy of a folder, in list order; a malformed or duplicate one stops startup, naming the file. */
export async function loadStrategies<S extends StrategyBase>(dir: string, rules: StrategyRules = { roles: null }): Promise<FoundStrategy<S>[]> {
  const found: FoundStrategy<S>[] = [];
  for (const name of strategyFiles(dir)) {
    const mod = (await import(pathToFileURL(join(dir, name)).href)) as { strategy?: S };
    const s = mod.strategy;
    const where = shown(join(dir, name));
    if (!s || typeof s.id !== 'string' || typeof (s as { run?: unknown }).run !== 'function') {
      throw new Error(`${where} must export a \`strategy\` with an id and a run function`);
    }
    if (!STRATEGY_ID_PATTERN.test(s.id)) throw new Error(`${where}: strategy id "${s.id}" must be letters, digits and dashes`);
    const twin = found.find((f) => f.strategy.id === s.id);
    if (twin) throw new Error(`${where}: strategy id "${s.id}" is already used by ${twin.file}.ts`);
    const problem = roleProblem(s, where, rules.roles);
    if (problem) throw new Error(problem);
    found.push({ strategy: s, file: name.slice(0, -3) });
  }
  for (const { strategy: s, file } of found) {
    const unknown = (s.comparedWith ?? []).filter((id) => !found.some((f) => f.strategy.id === id));
    if (unknown.length) throw new Error(`${shown(join(dir, file))}.ts: comparedWith names no strategy of this lab: ${unknown.join(', ')}`);
  }
  return found.sort((a, b) => a.strategy.order - b.strategy.order || a.strategy.id.localeCompare(b.strategy.id));
}
