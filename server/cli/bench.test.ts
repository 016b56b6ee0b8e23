import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { DOMParser } from '@xmldom/xmldom';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../test-support';
import { MEMORY_FIELDS, summarySchema } from '../../lib/protocol';
import { MIB } from '../../lib/protocol/params';

const rootDir = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the bench CLI the way `npm run bench --` does, with its own data dir. */
const runBench = (args: string[], dataDir: string) => runScript(rootDir, ['server/cli/bench.ts', ...args], { STREAM_LAB_DATA_DIR: dataDir });

describe('bench CLI', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'stream-lab-bench-'));
  });

  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits with code 2 and names the flag when a parameter is out of range', async () => {
    const result = await runBench(['--delay-ms', '-1'], dataDir);
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'bench: --delay-ms: delayMs must be between 0 and 1000\n' });
  });

  it('--heap-profile and --heap-snapshot print what allocated most and what held the memory; --files writes the .heapprofile and .heapsnapshot', async () => {
    const files = join(dataDir, 'files');
    const result = await runBench(
      ['--strategies', 'rxjs-from', '--size-mb', '8', '--delay-ms', '5', '--heap-profile', '--heap-snapshot', 'when=arrayBuffers>4MB', '--files', files],
      dataDir,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^rxjs-from: allocated most \(sampled every 512 KB\): \S+ [\d.]+ MB \(\d+%\)/m);
    expect(result.stdout).toMatch(
      /^rxjs-from: snapshot 1 \(when arrayBuffers > 4 MB, [\d.]+ s in, \d+ ms pause, [\d.]+ MB\): Array [\d.]+ MB ← context of .*mergeInternals\.js/m,
    );
    const written = readdirSync(files).sort();
    expect(written.map((f) => f.replace(/^[0-9a-f]{8}-/, ''))).toEqual(['rxjs-from-heap.heapprofile', 'rxjs-from-snapshot-1.heapsnapshot']);
    expect(JSON.parse(readFileSync(join(files, written[0]), 'utf8')).head.callFrame).toBeDefined();
    expect(JSON.parse(readFileSync(join(files, written[1]), 'utf8')).snapshot.meta.node_fields).toContain('self_size');
  });

  it('prints one JSON array of summaries on stdout with --json', async () => {
    const result = await runBench(['--strategies', 'for-await,rxjs-from', '--size-mb', '2', '--delay-ms', '0', '--json'], dataDir);
    expect(result.code, result.stderr).toBe(0);
    // The file went to STREAM_LAB_DATA_DIR, not the repository's data/.
    expect(existsSync(join(dataDir, `stream-lab-${2 * MIB}-s1.csv`))).toBe(true);

    const summaries: unknown = JSON.parse(result.stdout);
    expect(Array.isArray(summaries)).toBe(true);
    const list = summaries as Array<Record<string, unknown>>;
    expect(list.map((s) => s.strategy)).toEqual(['for-await', 'rxjs-from']);
    for (const s of list) {
      expect(s.outcome).toBe('completed');
      expect(s.fileBytes).toBe(2 * MIB);
      expect(s.bytesProcessed).toBe(2 * MIB);
      expect(typeof s.durationMs).toBe('number');
      const peak = s.peak as Record<string, unknown>;
      expect(Object.keys(peak).sort()).toEqual([...MEMORY_FIELDS].sort());
      for (const field of MEMORY_FIELDS) {
        expect(typeof peak[field], field).toBe('number');
        expect(peak[field] as number, field).toBeGreaterThan(0);
      }
      // The whole record is what the server and the page exchange, so it must match the protocol.
      expect(summarySchema.safeParse(s).error).toBeUndefined();
      // Its verdict, as the page shows it: text, the figures it quotes, and whether the run showed what its strategy declares.
      const verdict = s.verdict as { text: string; figures: Record<string, number>; expected: boolean | null };
      expect(verdict.text.length).toBeGreaterThan(20);
      expect(Object.keys(verdict.figures).length).toBeGreaterThan(0);
      expect(verdict.expected).not.toBe(false);
    }
  });

  it('--repeat runs each strategy round by round; --baseline reports CPU time and duration as regressions, in JUnit, Markdown and the job summary', async () => {
    const base = join(dataDir, 'base.json');
    const args = ['--strategies', 'pipeline-generator', '--size-mb', '2', '--delay-ms', '0', '--repeat', '2'];
    const before = await runBench([...args, '--json'], dataDir);
    expect(before.code, before.stderr).toBe(0);
    const runs = JSON.parse(before.stdout) as Array<{ strategy: string; round: number }>;
    expect(runs.map((r) => [r.strategy, r.round])).toEqual([
      ['pipeline-generator', 1],
      ['pipeline-generator', 2],
    ]);
    writeFileSync(base, before.stdout);

    // 30 ms of CPU for each of the 32 chunks: about a second more of both, far outside the baseline's runs.
    const [junit, markdown, summary] = ['out.xml', 'out.md', 'step-summary.md'].map((f) => join(dataDir, f));
    writeFileSync(summary, 'an earlier step\n');
    const after = await runScript(
      rootDir,
      ['server/cli/bench.ts', ...args, '--cpu-us', '30000', '--baseline', base, '--junit', junit, '--markdown', markdown],
      { STREAM_LAB_DATA_DIR: dataDir, GITHUB_STEP_SUMMARY: summary },
    );
    expect(after.code, after.stderr).toBe(1);
    expect(after.stderr).toMatch(/^bench: pipeline-generator: durationMs REGRESSION: median .* \(\+\d+\.\d%; 2 runs against 2: against the baseline's .*\)$/m);
    expect(after.stderr).toMatch(/^bench: pipeline-generator: cpu\.totalMs REGRESSION: /m);
    // The text output sums the repeats up too.
    expect(after.stdout).toContain('**Repeated runs**');

    const doc = new DOMParser().parseFromString(readFileSync(junit, 'utf8'), 'text/xml');
    const failed = Array.from(doc.getElementsByTagName('testcase'))
      .filter((c) => c.getElementsByTagName('failure').length > 0)
      .map((c) => c.getAttribute('name'));
    expect(failed).toEqual(expect.arrayContaining(['baseline: durationMs', 'baseline: cpu.totalMs']));
    expect(failed).not.toContain('outcome == completed');
    const md = readFileSync(markdown, 'utf8');
    expect(md).toMatch(/^### Stream Lab bench, streams lab: ❌ FAILED: \d+ of \d+$/m);
    expect(md).toMatch(/^\| pipeline-generator \| durationMs \| .* \| ❌ regression \|$/m);
    // Appended to the job summary after what was there.
    expect(readFileSync(summary, 'utf8')).toBe(`an earlier step\n${md}\n`);
  }, 120_000);

  it('refuses a baseline that is not an earlier --json output, before anything runs', async () => {
    const bad = join(dataDir, 'not-runs.json');
    writeFileSync(bad, '{"runs": []}');
    const result = await runBench(['--strategies', 'pipeline-generator', '--baseline', bad], dataDir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`bench: --baseline: ${bad}: must be the JSON array \`npm run bench -- --json\` prints, with at least one run\n`);
  });
});
