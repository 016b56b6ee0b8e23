/**
 * The import rules of eslint.config.mjs that keep the halves apart, each shown failing on a file
 * that breaks it and passing on the tree's own files.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('import boundaries (lint)', () => {
  let eslint: ESLint;
  const restricted = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  };

  beforeAll(() => {
    eslint = new ESLint({ cwd: root });
  });

  it('refuses server code in a browser-safe file', async () => {
    expect(await restricted('lib/readouts/example.ts', "import { startRun } from '../../server/runner/runner';\nexport const x = startRun;\n")).toEqual([
      expect.stringContaining('Browser-safe code (lib/, components/, app/, labs/<lab>/shared/ and view/) must not import server code'),
    ]);
    expect(await restricted('labs/http/view/Example.tsx', "import { httpLab } from '../parent/index';\nexport const x = httpLab;\n")).toHaveLength(1);
    expect(await restricted('components/Example.tsx', "import { LABS } from '@/server/labs/registry';\nexport const x = LABS;\n")).toHaveLength(1);
  });

  it('refuses zod and the page in a run child', async () => {
    expect(await restricted('labs/deadline/child/example.ts', "import { z } from 'zod';\nexport const x = z;\n")).toEqual([
      expect.stringContaining("A run's child must not load zod"),
    ]);
    expect(await restricted('server/child/example.ts', "import { useState } from 'react';\nexport const x = useState;\n")).toEqual([
      expect.stringContaining("A run's child must not import the page's code"),
    ]);
  });

  it("refuses another lab's files in a lab folder", async () => {
    const message = expect.stringContaining("A lab folder imports its own files (relative paths) and the shared code, never another lab's");
    expect(await restricted('labs/cpu/view/Example.tsx', "import { reading } from '../../http/view/series';\nexport const x = reading;\n")).toEqual([message]);
    expect(await restricted('labs/cpu/view/Example.tsx', "import type { CpuSummary } from '@/labs/cpu/shared/schema';\nexport type X = CpuSummary;\n")).toEqual(
      [message],
    );
    expect(await restricted('labs/cpu/child/strategies/example.ts', "import { x } from '../../../deadline/child/store';\nexport const y = x;\n")).toEqual([
      message,
    ]);
    expect(await restricted('labs/cpu/parent/example.ts', "import { x } from '../../http/parent/db';\nexport const y = x;\n")).toEqual([message]);
    // Its own files and the shared code stay allowed, at any depth.
    expect(
      await restricted(
        'labs/cpu/child/strategies/example.ts',
        "import { a } from '../../shared/params';\nimport { b } from '../../../../server/child/numbers';\nexport const y = [a, b];\n",
      ),
    ).toEqual([]);
  });

  it('refuses a function over 60 lines in the runner and the queue, and nowhere else', async () => {
    const long = (n: number) =>
      `export function f(): number {\n${Array.from({ length: n - 3 }, (_, i) => `  const a${i} = ${i};`).join('\n')}\n  return 0;\n}\n`;
    const tooLong = async (filePath: string, code: string) => {
      const [result] = await eslint.lintText(code, { filePath });
      return result.messages.filter((m) => m.ruleId === 'max-lines-per-function').length;
    };
    expect(await tooLong('server/runner/example.ts', long(61))).toBe(1);
    expect(await tooLong('server/queue/example.ts', long(61))).toBe(1);
    expect(await tooLong('server/runner/example.ts', long(60))).toBe(0);
    expect(await tooLong('server/hub/example.ts', long(61))).toBe(0);
  });

  it('lets the tree’s own files through', async () => {
    for (const file of [
      'labs/deadline/child/lateness.ts',
      'labs/http/view/Charts.tsx',
      'labs/cpu/view/series.ts',
      'labs/hotcode/parent/index.ts',
      'lib/labs.ts',
      'server/child/bootstrap.ts',
    ]) {
      expect(await restricted(file, readFileSync(`${root}/${file}`, 'utf8')), file).toEqual([]);
    }
  });
});
