/**
 * The child build is named by a hash of what it bundles: an edit to a bundled file outside server/
 * (here lib/protocol/params.ts, which every lab's params import) must make a new build, or a run
 * would execute yesterday's code. Shown on a copy of the project, so the real tree is untouched.
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../test-support';
import { bundleProblem } from './child-build';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the child build', () => {
  let copy: string;

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'stream-lab-build-'));
    for (const dir of ['server', 'lib', 'labs']) cpSync(join(root, dir), join(copy, dir), { recursive: true });
    for (const file of ['package.json', 'tsconfig.json']) cpSync(join(root, file), join(copy, file));
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
    writeFileSync(join(copy, 'build.ts'), "import { ensureChildBuild } from './server/runner/child-build.ts'; console.log(await ensureChildBuild());");
  });

  afterAll(() => {
    rmSync(copy, { recursive: true, force: true });
  });

  it('is rebuilt when a bundled file outside server/ changes, and reused when nothing did', async () => {
    const build = async () => {
      const r = await runScript(copy, ['build.ts']);
      expect(r.code, r.stderr).toBe(0);
      return r.stdout.trim();
    };
    const first = await build();
    expect(await build()).toBe(first);
    appendFileSync(join(copy, 'lib/protocol/params.ts'), '\n// an edit\n');
    const second = await build();
    expect(second).not.toBe(first);
    expect(second).toMatch(/\.build\/child-[0-9a-f]{16}\/child\/bootstrap\.mjs$/);
  }, 60_000);

  it('is refused when it would bundle an unhashed file, zod or the page', () => {
    const meta = (inputs: string[], imports: Array<{ path: string; kind: 'import-statement'; external?: boolean }> = []) => ({
      inputs: Object.fromEntries(inputs.map((f) => [f, { bytes: 1, imports: [] }])),
      outputs: { '.build/x/labs/deadline/child/load.mjs': { bytes: 1, inputs: {}, imports, exports: [], entryPoint: 'labs/deadline/child/load.ts' } },
    });
    const hashed = new Set(['labs/deadline/child/load.ts', 'lib/protocol/params.ts']);
    expect(bundleProblem(meta(['labs/deadline/child/load.ts']), hashed)).toBeNull();
    expect(bundleProblem(meta(['labs/deadline/child/load.ts', 'server/runner/exit.ts']), hashed)).toContain(
      'server/runner/exit.ts, outside the folders its hash covers',
    );
    expect(bundleProblem(meta(['labs/deadline/child/load.ts'], [{ path: 'zod', kind: 'import-statement', external: true }]), hashed)).toBe(
      "the child's labs/deadline/child/load.mjs loads zod (through labs/deadline/child/load.ts); a run's child must not",
    );
    expect(bundleProblem(meta(['labs/deadline/child/load.ts', 'components/x.ts']), new Set([...hashed, 'components/x.ts']))).toBe(
      "the child build bundles the page's components/x.ts",
    );
  });
});
