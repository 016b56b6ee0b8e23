/**
 * docs/ci.md's files (the strategy, its checks, the script the workflows call) run as the doc
 * shows them, against this checkout, with a smaller file and fewer repeats: the doc can't drift
 * from the flags, the check grammar or the reports.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOMParser } from '@xmldom/xmldom';
import { afterAll, describe, expect, it } from 'vitest';

const rootDir = fileURLToPath(new URL('../..', import.meta.url));

/** The doc's ```<lang> file=<path> blocks, by path. */
function docFiles(): Map<string, string> {
  const doc = readFileSync(join(rootDir, 'docs/ci.md'), 'utf8');
  return new Map([...doc.matchAll(/^```\w+ file=(\S+)\n([\s\S]*?)^```$/gm)].map((m) => [m[1], m[2]]));
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const { NODE_OPTIONS: _n, GITHUB_STEP_SUMMARY: _g, ...base } = process.env;
  const child = spawn('bash', [script], { cwd, env: { ...base, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

describe('docs/ci.md', () => {
  const repo = mkdtempSync(join(tmpdir(), 'stream-lab-ci-doc-'));
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('its script, strategy and checks run as shown: exit 0, every check held, JUnit and Markdown written; then against their own baseline', async () => {
    const files = docFiles();
    expect([...files.keys()].sort()).toEqual(['ci/bench.sh', 'ci/my-reader.ts', 'ci/stream-lab.checks.json']);
    for (const [path, text] of files) {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      // The doc's 256 MB file and 5 repeats, made small; each replacement must find its text.
      const small = path === 'ci/bench.sh' ? text.replace('--size-mb 256', '--size-mb 4').replace('--repeat 5', '--repeat 2') : text;
      if (path === 'ci/bench.sh') expect(small.match(/--size-mb 4 .*--repeat 2/)).not.toBeNull();
      writeFileSync(join(repo, path), small);
    }
    const env = { STREAM_LAB_DIR: rootDir, STREAM_LAB_DATA_DIR: join(repo, '.data') };
    const first = await bash('ci/bench.sh', repo, env);
    expect(first.code, first.stderr).toBe(0);

    const runs = JSON.parse(readFileSync(join(repo, 'bench.json'), 'utf8')) as Array<{
      strategy: string;
      outcome: string;
      round: number;
      checks?: Array<{ ok: boolean }>;
    }>;
    expect(runs.map((r) => [r.strategy, r.round, r.outcome])).toEqual([
      ['pipeline-generator', 1, 'completed'],
      ['my-reader', 1, 'completed'],
      ['pipeline-generator', 2, 'completed'],
      ['my-reader', 2, 'completed'],
    ]);
    expect(runs.filter((r) => r.strategy === 'my-reader').flatMap((r) => r.checks!.map((c) => c.ok))).toEqual([true, true, true, true, true, true]);
    const junit = new DOMParser().parseFromString(readFileSync(join(repo, 'bench.xml'), 'utf8'), 'text/xml');
    // pipeline-generator: its outcome; my-reader: its outcome and three checks.
    expect(junit.getElementsByTagName('testcase')).toHaveLength(5);
    expect(junit.getElementsByTagName('failure')).toHaveLength(0);
    expect(readFileSync(join(repo, 'bench.md'), 'utf8').split('\n')[0]).toBe('### Stream Lab bench, streams lab: ✅ passed (5 of 5)');

    // The next job finds bench-baseline.json and compares with it: every figure gets a verdict,
    // and the exit code says whether any regressed (two runs a side: the range rule).
    copyFileSync(join(repo, 'bench.json'), join(repo, 'bench-baseline.json'));
    const second = await bash('ci/bench.sh', repo, env);
    const again = JSON.parse(readFileSync(join(repo, 'bench.json'), 'utf8')) as Array<{ comparisons: Array<{ change: string; rule: string }> }>;
    expect(again[0].comparisons.length).toBeGreaterThan(10);
    expect(new Set(again.flatMap((r) => r.comparisons.map((c) => c.rule)))).toEqual(new Set(['range']));
    const regressed = again.some((r) => r.comparisons.some((c) => c.change === 'regression'));
    expect(second.code, second.stderr).toBe(regressed ? 1 : 0);
    expect(readFileSync(join(repo, 'bench.md'), 'utf8')).toContain('**Against the baseline**');
  }, 180_000);
});
