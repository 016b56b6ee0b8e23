import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { verdictFor } from './verdicts';
import { RECORDED_HTTP } from './http/view/verdict.fixtures';
import { httpVerdict } from './http/view/verdict';
import { traitsOf } from './test-traits';
import { makeHttpSummary, makeSummary } from '../lib/test-fixtures';
import type { RunSummary } from '../lib/protocol';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'verdicts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('verdictFor (the server’s and the bench’s entry point)', () => {
  it('looks the strategy’s traits up in the catalog and compares with the experiment’s other runs', () => {
    const [, , ndjson] = RECORDED_HTTP;
    const v = verdictFor(ndjson, RECORDED_HTTP);
    expect(v).toEqual(httpVerdict(ndjson, RECORDED_HTTP, traitsOf(ndjson)));
    expect(v.expected).toBe(true);
    // Without the run it is measured against, the comparison can't be told.
    expect(verdictFor(ndjson, []).expected).toBeNull();
  });

  it('cannot tell for a strategy the catalog does not know', () => {
    const v = verdictFor(makeSummary({ strategy: 'not-in-the-catalog' }));
    expect(v.expected).toBeNull();
    expect(v.text).toBe('arrayBuffers stayed under 2.0 MB (6% of the file): backpressure held.');
  });

  it('says a run with no sample measured nothing, whatever its lab, and quotes only what was read from outside', () => {
    const MB = 1024 * 1024;
    const unmeasured = (s: RunSummary): RunSummary => ({ ...s, peak: null, procPeakRss: null, sampleCount: 0, durationMs: 0 });
    const streams = (patch: Parameters<typeof makeSummary>[0]) => unmeasured(makeSummary({ strategy: 'for-await', ...patch }));
    expect(verdictFor(streams({ outcome: 'stopped' })).text).toBe('Stopped before it started: nothing was measured.');
    expect(verdictFor(unmeasured(makeHttpSummary({ outcome: 'stopped' }))).text).toBe('Stopped before it started: nothing was measured.');
    expect(verdictFor(streams({ outcome: 'crashed', reason: 'could not start the run: spawn ENOENT' }))).toEqual({
      text: 'Crashed before it started, so nothing was measured: could not start the run: spawn ENOENT.',
      figures: {},
      expected: false,
    });
    // Killed for its budget while booting: /proc saw the RSS, the child never sampled.
    const oom = { ...streams({ outcome: 'out-of-memory', params: { budgetMb: 40 } }), procPeakRss: 60 * MB };
    expect(verdictFor(oom)).toMatchObject({
      text: 'Out of memory before it started: RSS reached 60 MB (read from outside) and passed the 40 MB memory budget.',
      figures: { peakRss: 60 * MB, 'params.budgetMb': 40 },
    });
  });

  it('loads under node --import tsx with no React on its import chain', () => {
    // A resolve hook that refuses React: registered after tsx's, so it sees every specifier first.
    writeFileSync(
      join(dir, 'no-react.mjs'),
      `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent("export async function resolve(s, c, next) { if (/^react(-dom)?(\\\\/|$)/.test(s)) throw new Error('React imported from ' + c.parentURL); return next(s, c); }"));
`,
    );
    writeFileSync(
      join(dir, 'judge.mts'),
      `import { verdictFor } from ${JSON.stringify(join(root, 'labs', 'verdicts.ts'))};
import { makeSummary } from ${JSON.stringify(join(root, 'lib', 'test-fixtures.ts'))};
console.log(JSON.stringify(verdictFor(makeSummary({ strategy: 'pipeline-generator' }))));
`,
    );
    const out = spawnSync(process.execPath, ['--import', 'tsx', '--import', join(dir, 'no-react.mjs'), join(dir, 'judge.mts')], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(out.status, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({
      text: 'arrayBuffers stayed under 2.0 MB (6% of the file): backpressure held.',
      figures: { 'peak.arrayBuffers': 2 * 1024 * 1024, fileBytes: 32 * 1024 * 1024 },
      expected: true,
    });
  });
});
