/**
 * A run that ended before its strategy started measured nothing: null peaks, never zeros, from the
 * summary (unstarted.ts, the runner's recorder) through the record on disk, the run list and the
 * exports to the run page, which shows a dash. Real queue, run children, store files and HTTP
 * routes; the run that did start beside it still has its numbers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS } from '../../labs/streams/shared/params';
import { runDetailSchema, runListResponseSchema } from '../../lib/history';
import { parseMarkdownTable } from '../../lib/history/export';
import { summaryOfLab, type RunState, type RunSummary } from '../../lib/protocol';
import { RunSummaryList } from '../../components/history/RunSummaryList';
import { createLabServer, type LabServer } from '../app-server';
import { RunQueue, type QueueListener } from '../queue/run-queue';
import { openHistory, type History } from '../store/history';
import { makeRecord, makeRun, testRunId } from '../store/store-fixtures';
import { withDataFiles } from '../test-support';
import { unstartedSummary } from './unstarted';

/** Resolves each run's summary when it ends; every other queue event is ignored. */
function endings(): { listener: QueueListener; ended(runId: string): Promise<RunSummary> } {
  const waiting = new Map<string, (s: RunSummary) => void>();
  const seen = new Map<string, RunSummary>();
  const none = () => {};
  return {
    listener: {
      experimentCreated: none,
      queueChanged: none,
      runQueued: none,
      runUpdated: none,
      runSample: none,
      runProc: none,
      dataProgress: none,
      runEnded(run, summary) {
        seen.set(run.id, summary);
        waiting.get(run.id)?.(summary);
      },
    },
    ended: (runId) => new Promise((resolve) => (seen.has(runId) ? resolve(seen.get(runId)!) : waiting.set(runId, resolve))),
  };
}

const PARAMS = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 4, delayMs: 0, budgetMb: null, timeoutS: 60 };

describe('a run that never started', () => {
  const data = withDataFiles('unstarted', [4]);
  let history: History;
  let queue: RunQueue;
  let lab: LabServer;
  const ends = endings();

  beforeAll(async () => {
    history = await openHistory({ dir: join(data.dir.path, 'runs'), keepRuns: 100, keepMb: 100 });
    queue = new RunQueue();
    queue.subscribe(history.observer);
    queue.subscribe(ends.listener);
    lab = await createLabServer({ port: 0, host: '127.0.0.1', next: false, queue, routes: history.routes });
  });

  afterAll(async () => {
    await lab.close();
    await queue.close();
    await history.close();
  });

  let ranId: string;
  let ran: RunSummary;

  it('ends with null peaks when stopped in the queue, while the run before it measured its own', async () => {
    ranId = queue.startExperiment('streams', ['for-await'], PARAMS, false).runIds[0];
    const [waitingId] = queue.startExperiment('streams', ['for-await'], PARAMS, false).runIds;
    expect(queue.stopRun(waitingId)).toBe('stopped');
    const stopped = await ends.ended(waitingId);
    ran = await ends.ended(ranId);

    // What the page's socket carries (the hub sends this summary as JSON).
    expect(JSON.parse(JSON.stringify(stopped))).toMatchObject({
      outcome: 'stopped',
      sampleCount: 0,
      peak: null,
      procPeakRss: null,
      aboveIdle: null,
      mbPerSec: null,
      recordsPerSec: null,
    });
    expect(ran.outcome).toBe('completed');
    expect(summaryOfLab(ran, 'streams').recordsPerSec).toBeGreaterThan(0);
    expect(ran.sampleCount).toBeGreaterThan(0);
    expect(ran.peak!.rss).toBeGreaterThan(10 * 1024 * 1024);
    expect(ran.procPeakRss).toBeGreaterThan(10 * 1024 * 1024);
  });

  it('is recorded with null peaks, and the list, exports and run page show no number for them', async () => {
    // A run whose preparation failed: the queue ends it with this summary, and the history keeps it.
    const failedId = testRunId(0xfa11);
    const queued = makeRun(failedId, { strategy: 'for-await', params: PARAMS, status: 'preparing' });
    history.store.begin(makeRecord(queued));
    const summary = unstartedSummary(queued, 'could not make the data file', 'crashed');
    await history.store.end({ ...queued, status: 'crashed', summary }, queued.queuedAt + 10);

    const meta = JSON.parse(readFileSync(join(data.dir.path, 'runs', failedId, 'meta.json'), 'utf8')) as { run: RunState };
    expect(meta.run.summary).toMatchObject({ peak: null, procPeakRss: null });

    const list = runListResponseSchema.parse(await (await fetch(`${lab.url}/api/runs`)).json());
    const item = (id: string) => list.runs.find((r) => r.id === id)!;
    expect(item(failedId)).toMatchObject({ peak: null, procPeakRss: null });
    expect(item(ranId).procPeakRss).toBe(ran.procPeakRss);

    const csv = (await (await fetch(`${lab.url}/api/summaries.csv?ids=${ranId},${failedId}`)).text()).trim().split('\n');
    const header = csv[0].split(',');
    const cells = (line: string, names: string[]) => names.map((n) => line.split(',')[header.indexOf(n)]);
    const peaks = ['peakRss', 'peakHeapUsed', 'peakArrayBuffers', 'procPeakRss'];
    expect(cells(csv[1], ['id', ...peaks])).toEqual([ranId, ...[ran.peak!.rss, ran.peak!.heapUsed, ran.peak!.arrayBuffers, ran.procPeakRss].map(String)]);
    expect(cells(csv[2], ['id', ...peaks, 'mbPerSec', 'recordsPerSec'])).toEqual([failedId, '', '', '', '', '', '']);

    const md = parseMarkdownTable(await (await fetch(`${lab.url}/api/summaries.md?ids=${ranId},${failedId}`)).text());
    const [rss, heap] = [md[0].indexOf('Peak RSS (MB)'), md[0].indexOf('heapUsed (MB)')];
    expect(md[1][rss]).toMatch(/^\d+(\.\d+)?$/);
    expect([md[2][rss], md[2][heap]]).toEqual(['–', '–']);
    expect(md[2].at(-2)).toBe('Crashed before it started, so nothing was measured: could not make the data file.');

    const detail = runDetailSchema.parse(await (await fetch(`${lab.url}/api/runs/${failedId}`)).json());
    const page = renderToStaticMarkup(createElement(RunSummaryList, { record: detail.record, storedSamples: 0 }));
    const term = (name: string) => new RegExp(`<dt>${name}</dt><dd>([^<]*)</dd>`).exec(page)?.[1];
    expect(['Peak RSS', 'Peak heapUsed', 'RSS from outside', 'Throughput', 'Records'].map(term)).toEqual(['–', '–', '–', '–', '–']);
  });
});
