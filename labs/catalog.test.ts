import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { strategyInfoSchema } from '../lib/protocol';
import { libraryVersion, strategyCatalog } from './catalog';
import { LABS } from './registry';

// Every lab's strategies, lab by lab in registry order.
const STRATEGIES = LABS.flatMap((l) => l.strategies);
const STRATEGY_IDS = STRATEGIES.map((s) => s.id);

const labsDir = fileURLToPath(new URL('.', import.meta.url));
const rootDir = join(labsDir, '..');

function source(id: string): string {
  const lab = LABS.find((l) => l.strategyFiles.has(id))!;
  return readFileSync(join(labsDir, lab.dir, 'child', 'strategies', `${lab.strategyFiles.get(id)}.ts`), 'utf8');
}

/** The text between the "// #region run" and "// #endregion run" marker lines. */
function runRegion(text: string): string {
  const match = /^\/\/ #region run\n([\s\S]*?)^\/\/ #endregion run$/m.exec(text);
  if (!match) throw new Error('no run region');
  return match[1].trimEnd();
}

describe('strategy catalog', () => {
  const catalog = strategyCatalog();

  it('lists every registered strategy once, in registry order, in the protocol shape', () => {
    expect(catalog.map((s) => s.id)).toEqual([...STRATEGY_IDS]);
    for (const info of catalog) expect(strategyInfoSchema.safeParse(info).error, info.id).toBeUndefined();
  });

  it('copies id, label, mode, explanation and article from each strategy', () => {
    for (const [i, s] of STRATEGIES.entries()) {
      expect(catalog[i]).toMatchObject({
        id: s.id,
        label: s.label,
        library: s.library,
        mode: s.mode,
        keepsResults: s.keepsResults,
        explanation: s.explanation,
        article: s.article,
      });
    }
  });

  it.each([...STRATEGY_IDS])('shows the run function of %s exactly as its source file has it', (id) => {
    const text = source(id);
    const region = runRegion(text);
    const code = catalog.find((s) => s.id === id)!.code;
    expect(region).toMatch(/^async function run\(/m);
    expect(code).toContain('async function run(');
    expect(code.endsWith(region)).toBe(true);

    // What comes before the region is the file's value imports, verbatim and whole statements.
    const imports = code.slice(0, code.length - region.length).trimEnd();
    const importLines = imports === '' ? [] : imports.split('\n');
    for (const line of importLines) {
      expect(line).toMatch(/^import .+ from '[^']+';$/);
      expect(text.split('\n')).toContain(line);
    }
    const valueImports = text.split('\n').filter((l) => l.startsWith('import ') && !l.startsWith('import type'));
    expect(importLines).toEqual(valueImports);
    expect(code).not.toContain('import type');
    expect(code).not.toContain('export const strategy');
  });

  it('reports the installed version of each library', () => {
    for (const info of catalog) {
      const expected =
        info.library === 'node'
          ? process.versions.node
          : (JSON.parse(readFileSync(join(rootDir, 'node_modules', ...info.library.split('/'), 'package.json'), 'utf8')) as { version: string }).version;
      expect(info.libraryVersion, info.id).toBe(expected);
      expect(libraryVersion(info.library)).toBe(expected);
    }
  });
});
