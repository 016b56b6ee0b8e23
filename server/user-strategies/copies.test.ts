/**
 * "Edit a copy" of every built-in of the labs that take strategies of yours: the text the editor
 * starts from (components/StrategyEditor.tsx) compiles, loads in the fenced probe and declares what
 * its lab asks (a mode, a role, a format), with no edit at all: a user starts from working code.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { copySource, fromLabs } from '../../components/StrategyEditor';
import { strategyCatalog } from '../../labs/catalog';
import { LABS, userStrategyEntries } from '../../labs/registry';
import { scanUserStrategies } from '.';

describe('Edit a copy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stream-lab-copies-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("rewrites a built-in's relative imports to the labs' paths", () => {
    expect(fromLabs("import { totalsByRate, type Report } from '../rows';\nimport { groupByPush } from './groupby-push';", 'hotcode')).toBe(
      "import { totalsByRate, type Report } from '@stream-lab/labs/hotcode/child/rows';\nimport { groupByPush } from '@stream-lab/labs/hotcode/child/strategies/groupby-push';",
    );
  });

  it('of every built-in of every lab compiles, loads fenced and declares what its lab asks', async () => {
    const open = LABS.filter((l) => !l.refusesUserStrategies).map((l) => l.schema.id);
    expect(open).toEqual(['streams', 'http', 'cpu', 'deadline', 'hotcode']);
    const builtIns = strategyCatalog().filter((s) => open.includes(s.lab) && s.origin === 'built-in');
    for (const s of builtIns) {
      mkdirSync(join(dir, s.lab), { recursive: true });
      writeFileSync(join(dir, s.lab, `${s.id}-copy.ts`), copySource(s, `${s.id}-copy`));
    }
    await scanUserStrategies(dir);
    const entries = open.flatMap((lab) => userStrategyEntries(lab));
    const byId = (a: [string, unknown], b: [string, unknown]) => a[0].localeCompare(b[0]);
    expect(entries.map((e): [string, unknown] => [`${e.lab}/${e.id}`, e.problem ? `${e.problem.file}: ${e.problem.message}` : null]).sort(byId)).toEqual(
      builtIns.map((s): [string, unknown] => [`${s.lab}/${s.id}-copy`, null]).sort(byId),
    );
    // The copy claims what the original claims.
    for (const s of builtIns) {
      // By lab and id: ids repeat across labs (cpu and deadline both have worker-pool).
      const copy = entries.find((e) => e.lab === s.lab && e.id === `${s.id}-copy`)!.strategy!;
      expect([copy.mode, copy.role ?? null], s.id).toEqual([s.mode, s.role]);
    }
  }, 120_000);

  it("docs/strategies.md's example files compile, load fenced and declare what their lab asks", async () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/strategies.md', import.meta.url)), 'utf8');
    const examples = [...doc.matchAll(/^```ts\n\/\/ strategies\/(\w+)\/([\w-]+)\.ts\n([\s\S]*?)^```$/gm)].map((m) => ({ lab: m[1], name: m[2], text: m[3] }));
    expect(examples.map((e) => e.lab).sort()).toEqual(['cpu', 'deadline', 'hotcode', 'http', 'streams']);
    const docs = join(dir, 'docs');
    for (const e of examples) {
      mkdirSync(join(docs, e.lab), { recursive: true });
      writeFileSync(join(docs, e.lab, `${e.name}.ts`), e.text);
    }
    await scanUserStrategies(docs);
    for (const e of examples) {
      expect(userStrategyEntries(e.lab).map((x) => [x.id, x.problem ? `${x.problem.file}: ${x.problem.message}` : null])).toEqual([[e.name, null]]);
    }
  }, 120_000);
});
