import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicId } from '../hub/identity';
import { BROWSER_HEADER } from './history-routes';
import { LABS } from '../../labs/registry';
import { runDetailSchema, runListResponseSchema, runRecordSchema, type RunRecord } from '../../lib/history';
import { makeHttpSummary } from '../../lib/test-fixtures';
import { verdictFor } from '../../labs/verdicts';
import { parseMarkdownTable, parseSamplesCsv } from '../../lib/history/export';
import { createLabServer, type LabServer } from '../app-server';
import { openHistory, type History } from '../store/history';
import { makeRecord, makeRun, makeSummary, sampleAt, testRunId } from '../store/store-fixtures';
import { frameHeaders, parseFrameAncestors } from './frame-policy';

let lab: LabServer;
let history: History;
let dir: string;
const completed = testRunId(1);
const lost = testRunId(2);
const other = testRunId(3);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stream-lab-routes-'));
  history = await openHistory({ dir, keepRuns: 100, keepMb: 100 });
  const seed = async (id: string, strategy: string, outcome: 'completed' | 'data-lost', samples: number, queuedAt: number) => {
    const run = makeRun(id, { strategy, queuedAt });
    history.store.begin(makeRecord(run));
    for (let i = 0; i < samples; i++) history.store.appendSample(id, sampleAt(i));
    await history.store.end({ ...run, status: outcome, summary: makeSummary(run, { outcome, sampleCount: samples }) }, queuedAt + 2000);
  };
  await seed(completed, 'rxjs-from', 'completed', 300, 1_700_000_001_000);
  await seed(lost, 'rxjs-from-event', 'data-lost', 20, 1_700_000_002_000);
  await seed(other, 'pipeline-generator', 'completed', 5, 1_700_000_003_000);
  lab = await createLabServer({ port: 0, host: '127.0.0.1', next: false, routes: history.routes, frameAncestors: ["'self'"] });
});

afterAll(async () => {
  await lab.close();
  await history.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, init?: RequestInit) => fetch(`${lab.url}${path}`, init);

/** A served record as the store holds it: the API adds the verdict to a finished run's summary. */
function withoutVerdict(r: RunRecord): RunRecord {
  if (!r.run.summary) return r;
  expect(r.run.summary.verdict, `${r.run.id} is served with a verdict`).toBeDefined();
  const { verdict: _verdict, ...summary } = r.run.summary;
  return { ...r, run: { ...r.run, summary: summary as typeof r.run.summary } };
}

describe('GET /api/runs', () => {
  it('lists runs newest first and filters by strategy and outcome', async () => {
    const all = runListResponseSchema.parse(await (await get('/api/runs')).json());
    expect(all.runs.map((r) => r.id)).toEqual([other, lost, completed]);
    expect(all.total).toBe(3);
    expect(all.warnings).toEqual([]);
    const byStrategy = runListResponseSchema.parse(await (await get('/api/runs?strategy=rxjs-from')).json());
    expect(byStrategy.runs.map((r) => r.id)).toEqual([completed]);
    const byOutcome = runListResponseSchema.parse(await (await get('/api/runs?outcome=completed')).json());
    expect(byOutcome.runs.map((r) => r.id)).toEqual([other, completed]);
  });

  it('accepts the filter for every strategy id of every lab (rxjs-fromEvent and the other camel-case ids too)', async () => {
    const ids = LABS.flatMap((l) => l.strategies.map((s) => s.id));
    expect(ids).toContain('rxjs-fromEvent');
    for (const id of ids) {
      const res = await get(`/api/runs?strategy=${encodeURIComponent(id)}`);
      expect([id, res.status]).toEqual([id, 200]);
      const body = runListResponseSchema.parse(await res.json());
      for (const r of body.runs) expect(r.strategy).toBe(id);
    }
  });

  it('answers a bad filter with a typed error naming the field and its allowed values', async () => {
    const res = await get('/api/runs?outcome=exploded');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      type: 'error',
      code: 'bad-request',
      message: 'outcome must be one of queued, preparing, running, completed, data-lost, out-of-memory, crashed, stopped, timed-out, interrupted, refused',
    });
    const strategy = await get('/api/runs?strategy=../../etc');
    expect((await strategy.json()).message).toBe('strategy must be a strategy id (letters, digits and dashes, at most 64)');
  });
});

describe('GET /api/runs/:id', () => {
  it('returns the record with its samples, thinned to ?points', async () => {
    const full = runDetailSchema.parse(await (await get(`/api/runs/${completed}`)).json());
    expect(full.samples).toEqual(Array.from({ length: 300 }, (_, i) => sampleAt(i)));
    const thin = runDetailSchema.parse(await (await get(`/api/runs/${completed}?points=100`)).json());
    expect(thin.samples.length).toBeLessThanOrEqual(100);
    expect(thin.storedSamples).toBe(300);
    expect(thin.samples.at(-1)).toEqual(sampleAt(299));
  });

  it('rejects a malformed id, an unknown id and a bad points value', async () => {
    const bad = await get('/api/runs/..%2f..%2fetc');
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('id must be a run id like r-0123456789 ("r-" and 10 hex digits)');
    const unknown = await get(`/api/runs/${testRunId(999)}`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toBe(`no recorded run with id ${testRunId(999)}`);
    const points = await get(`/api/runs/${completed}?points=5`);
    expect(points.status).toBe(400);
    expect((await points.json()).message).toBe('points must be a whole number between 10 and 20000');
  });
});

describe('exports', () => {
  it('samples.csv parses back to exactly the stored samples', async () => {
    const res = await get(`/api/runs/${completed}/samples.csv`);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${completed}-rxjs-from-samples.csv"`);
    const parsed = parseSamplesCsv(await res.text());
    const stored = (await history.store.readAll(completed))!.samples;
    expect(stored).toHaveLength(300);
    expect(parsed).toEqual(stored);
  });

  it('run.json parses back to the stored record (its summary with its verdict) and samples', async () => {
    const body = (await (await get(`/api/runs/${lost}/run.json`)).json()) as { record: unknown; samples: unknown[] };
    expect(withoutVerdict(runRecordSchema.parse(body.record))).toEqual(history.store.record(lost));
    expect(body.samples).toEqual(Array.from({ length: 20 }, (_, i) => sampleAt(i)));
  });

  it('summaries as CSV, JSON and Markdown carry the summary figures', async () => {
    const csv = await (await get(`/api/summaries.csv?ids=${completed},${lost}`)).text();
    const [header, ...rows] = csv
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    const col = (row: string[], name: string) => row[header.indexOf(name)];
    expect(rows.map((r) => [col(r, 'id'), col(r, 'status'), Number(col(r, 'peakArrayBuffers')), Number(col(r, 'procPeakRss'))])).toEqual([
      [completed, 'completed', 4e6, 51e6],
      [lost, 'data-lost', 4e6, 51e6],
    ]);
    const json = (await (await get(`/api/summaries.json?ids=${lost}`)).json()) as unknown[];
    expect(json.map((r) => withoutVerdict(runRecordSchema.parse(r)))).toEqual([history.store.record(lost)]);
    const md = parseMarkdownTable(await (await get(`/api/summaries.md?ids=${completed},${other}`)).text());
    expect(md[0].slice(0, 2)).toEqual(['Strategy', 'Outcome']);
    // By heading: the streams table's columns grew with the consumers (#30: consumer and concurrency after the delay).
    const [run, arrayBuffers] = [md[0].indexOf('Run'), md[0].indexOf('arrayBuffers (MB)')];
    expect(md.slice(1).map((r) => [r[0], r[1], r[arrayBuffers], r[run], r.at(-1)])).toEqual([
      ['RxJS from + concatMap', 'completed', '3.8', `\`${completed}\``, 'yes'],
      // The same figures from a strategy declared pull contradict its claim.
      ['stream.pipeline + async generators', 'completed', '3.8', `\`${other}\``, 'no'],
    ]);
    expect(col(rows[0], 'verdictExpected')).toBe('true');
  });

  it('refuses more than 8 ids, duplicates and unknown ids', async () => {
    const nine = Array.from({ length: 9 }, (_, i) => testRunId(i + 1)).join(',');
    const tooMany = await get(`/api/summaries.csv?ids=${nine}`);
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).message).toBe('ids must list between 1 and 8 run ids, comma-separated (got 9)');
    expect((await (await get(`/api/summaries.md?ids=${lost},${lost}`)).json()).message).toBe('ids: each run may appear once');
    const missing = await get(`/api/summaries.md?ids=${lost},${testRunId(77)}`);
    expect(missing.status).toBe(404);
  });
});

describe('DELETE /api/runs/:id', () => {
  it('deletes a record once, then answers 404', async () => {
    expect((await get(`/api/runs/${other}`, { method: 'DELETE' })).status).toBe(204);
    expect((await get(`/api/runs/${other}`)).status).toBe(404);
    expect((await get(`/api/runs/${other}`, { method: 'DELETE' })).status).toBe(404);
  });

  it("keeps a browser's runs from others: only that browser (by its id) or the operator may delete them", async () => {
    const id = testRunId(0x77);
    const run = makeRun(id, { queuedAt: 1_700_000_004_000 });
    history.store.begin({
      ...makeRecord(run),
      experiment: { id: run.experimentId, strategies: [run.strategy], parallel: false, owner: { id: publicId('browser-of-alice-0123456789'), name: 'Alice' } },
    });
    await history.store.end({ ...run, status: 'completed', summary: makeSummary(run) }, 1_700_000_005_000);
    // The list names whose run it is (public id and name), so an empty dashboard can point to its own last one.
    const listed = runListResponseSchema.parse(await (await get('/api/runs')).json()).runs.find((r) => r.id === id);
    expect(listed?.owner).toEqual({ id: publicId('browser-of-alice-0123456789'), name: 'Alice' });
    // ?owner= lists that browser's runs only (what an empty dashboard asks for), and checks its form.
    const alices = runListResponseSchema.parse(await (await get(`/api/runs?owner=${publicId('browser-of-alice-0123456789')}`)).json()).runs;
    expect(alices.map((r) => r.id)).toEqual([id]);
    expect(runListResponseSchema.parse(await (await get(`/api/runs?owner=${publicId('browser-of-bob-0123456789')}`)).json()).runs).toEqual([]);
    const badOwner = await get('/api/runs?owner=alice');
    expect(badOwner.status).toBe(400);
    expect((await badOwner.json()).message).toBe('owner must be a browser’s owner id like b-0123456789abcdef');
    // The list tells the browser that asks whether it may delete each run, by the same rule as the DELETE below.
    const mayDeleteAs = async (browser: string | null) => {
      const headers: Record<string, string> = browser ? { [BROWSER_HEADER]: browser } : {};
      const runs = runListResponseSchema.parse(await (await get('/api/runs', { headers })).json()).runs;
      return { alices: runs.find((r) => r.id === id)?.mayDelete, nobodys: runs.find((r) => r.id === completed)?.mayDelete };
    };
    expect(await mayDeleteAs('browser-of-alice-0123456789')).toEqual({ alices: true, nobodys: true });
    expect(await mayDeleteAs('browser-of-bob-0123456789')).toEqual({ alices: false, nobodys: true });
    expect(await mayDeleteAs(null)).toEqual({ alices: null, nobodys: null });
    const other = await get(`/api/runs/${id}`, { method: 'DELETE', headers: { [BROWSER_HEADER]: 'browser-of-bob-0123456789' } });
    expect(other.status).toBe(403);
    expect((await other.json()).message).toBe(`only Alice's browser can delete run ${id}, or the operator (STREAM_LAB_OPERATOR_TOKEN)`);
    expect((await get(`/api/runs/${id}`, { method: 'DELETE' })).status).toBe(403);
    expect((await get(`/api/runs/${id}`, { method: 'DELETE', headers: { [BROWSER_HEADER]: 'browser-of-alice-0123456789' } })).status).toBe(204);
  });
});

describe('the verdict in the run API', () => {
  it('gives a finished run’s summary its verdict, from the figures and the strategy’s declaration', async () => {
    const push = runDetailSchema.parse(await (await get(`/api/runs/${completed}`)).json()).record.run.summary!;
    expect(push.verdict).toEqual(verdictFor(push));
    expect(push.verdict).toMatchObject({ expected: true, figures: { 'peak.arrayBuffers': 4e6, peakBufferedBytes: 3.9e6, fileBytes: 4 * 1024 * 1024 } });
    expect(push.verdict!.text).toContain('the reader ignored backpressure.');
  });

  it('compares with the experiment’s other finished runs as they are recorded', async () => {
    const experimentId = 'e-00000000ab';
    const seed = async (n: number, strategy: string, heapUsed: number) => {
      const summary = makeHttpSummary({ runId: testRunId(n), strategy, peak: { heapUsed }, latencyP50Ms: 300 });
      const run = makeRun(testRunId(n), { lab: 'http', experimentId, strategy, params: summary.params, queuedAt: 1_700_000_006_000 + n });
      history.store.begin(makeRecord(run));
      await history.store.end({ ...run, status: 'completed', summary }, 1_700_000_007_000 + n);
    };
    const served = async (n: number) => runDetailSchema.parse(await (await get(`/api/runs/${testRunId(n)}`)).json()).record.run.summary!.verdict!;
    await seed(0x81, 'ndjson-cursor', 60 * 1024 * 1024);
    // Alone, the cursor has nothing to be measured against: it can't be told.
    expect((await served(0x81)).expected).toBeNull();
    await seed(0x82, 'buffered-json', 420 * 1024 * 1024);
    const cursor = await served(0x81);
    expect(cursor.expected).toBe(true);
    expect(cursor.figures).toMatchObject({ 'peak.heapUsed': 60 * 1024 * 1024, 'buffered-json.peak.heapUsed': 420 * 1024 * 1024, heapRatio: 7 });
    expect(cursor.text).toMatch(/^Compared with buffered-json, streaming the response lowered peak heap 7× \(60 MB vs 420 MB\)/);
  });
});

describe('framing headers', () => {
  it('lets only the same origin frame pages by default', async () => {
    const res = await get('/embed/runs/x');
    expect(res.headers.get('content-security-policy')).toBe("frame-ancestors 'self'");
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    // API answers are data, not pages: no framing policy needed there.
    expect((await get('/api/health')).headers.get('content-security-policy')).toBeNull();
  });

  it('allows configured origins and refuses anything that is not an origin', () => {
    expect(parseFrameAncestors(undefined)).toEqual(["'self'"]);
    expect(frameHeaders(parseFrameAncestors("'self' https://training.example.com https://*.example.org:8443"))).toEqual({
      'content-security-policy': "frame-ancestors 'self' https://training.example.com https://*.example.org:8443",
    });
    expect(() => parseFrameAncestors("'self'; script-src *")).toThrow(
      `STREAM_LAB_FRAME_ANCESTORS: "'self';" is not an origin like https://training.example.com, 'self' or 'none'`,
    );
    expect(frameHeaders(parseFrameAncestors("'none'"))).toEqual({ 'content-security-policy': "frame-ancestors 'none'", 'x-frame-options': 'DENY' });
  });
});
