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
    expect(await restricted('labs/deadline/child/example.ts', "import { z } from 'zod';\nexport const x = z;\n")).toEqual([expect.stringContaining("A run's child must not load zod")]);
    expect(await restricted('server/child/example.ts', "import { useState } from 'react';\nexport const x = useState;\n")).toEqual([expect.stringContaining("A run's child must not import the page's code")]);
  });

  it('lets the tree’s own files through', async () => {
    for (const file of ['labs/deadline/child/lateness.ts', 'labs/http/view/Charts.tsx', 'lib/labs.ts', 'server/child/bootstrap.ts']) {
      expect(await restricted(file, readFileSync(`${root}/${file}`, 'utf8')), file).toEqual([]);
    }
  });
});
