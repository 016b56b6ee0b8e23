/**
 * A strategy declares what it is there to show (its lab's role) and what it is measured against;
 * the loader refuses a missing or unknown role, or a comparison with no such strategy, naming the file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadStrategies } from './load-strategies';
import { strategyCatalog } from './catalog';
import { LABS } from './registry';

const ROLES = { fast: 'does it quickly', slow: 'does it slowly' };

/** A folder with one strategy file per entry: file name → the fields beside id, order and run. */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'stream-lab-roles-'));
  for (const [name, fields] of Object.entries(files)) {
    writeFileSync(join(dir, `${name}.ts`), `export const strategy = { id: '${name}', order: 1, run() {}, ${fields} };\n`);
  }
  dirs.push(dir);
  return dir;
}
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('strategy roles', () => {
  it('loads strategies that declare one of the lab’s roles and compare with strategies it has', async () => {
    const dir = folder({ a: "role: 'fast'", b: "role: 'slow', comparedWith: ['a']" });
    const found = await loadStrategies(dir, { roles: ROLES });
    expect(found.map((f) => [f.strategy.id, f.strategy.role, f.strategy.comparedWith ?? []])).toEqual([
      ['a', 'fast', []],
      ['b', 'slow', ['a']],
    ]);
  });

  it('refuses a missing role, naming the file and the roles', async () => {
    const dir = folder({ a: "role: 'fast'", b: '' });
    await expect(loadStrategies(dir, { roles: ROLES })).rejects.toThrow(
      `${join(dir, 'b.ts')}: no role; a strategy of this lab declares what it is there to show, one of: fast, slow`,
    );
  });

  it('refuses an unknown role rather than judging it as another', async () => {
    const dir = folder({ a: "role: 'buffered'" });
    await expect(loadStrategies(dir, { roles: ROLES })).rejects.toThrow(`${join(dir, 'a.ts')}: unknown role "buffered"; this lab's roles are: fast, slow`);
  });

  it('refuses a role in a lab without roles, and a comparison with no such strategy', async () => {
    await expect(loadStrategies(folder({ a: "role: 'fast'" }))).rejects.toThrow('role "fast" declared, but this lab has no roles');
    const dir = folder({ a: "role: 'fast', comparedWith: ['nope']" });
    await expect(loadStrategies(dir, { roles: ROLES })).rejects.toThrow(`${join(dir, 'a.ts')}: comparedWith names no strategy of this lab: nope`);
  });

  it('every strategy of a lab with roles declares one, and the catalog the page gets carries it', () => {
    const catalog = strategyCatalog();
    for (const lab of LABS) {
      for (const s of lab.strategies) {
        const info = catalog.find((c) => c.lab === lab.schema.id && c.id === s.id)!;
        if (lab.schema.roles) expect(Object.keys(lab.schema.roles), `${lab.schema.id}/${s.id}`).toContain(info.role);
        else expect(info.role, `${lab.schema.id}/${s.id}`).toBeNull();
        for (const other of info.comparedWith) expect(lab.strategies.map((x) => x.id)).toContain(other);
      }
    }
    // The comparisons the lessons rely on, as the files declare them.
    expect(catalog.find((c) => c.lab === 'http' && c.id === 'write-ignoring-drain')).toMatchObject({
      role: 'ignores-drain',
      comparedWith: ['ndjson-cursor', 'json-array-cursor'],
    });
    expect(catalog.find((c) => c.lab === 'deadline' && c.id === 'worker-pool')?.role).toBe('offloads');
    expect(catalog.find((c) => c.lab === 'cpu' && c.id === 'worker-pool')?.role).toBe('pool');
  });
});
