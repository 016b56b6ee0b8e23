/**
 * A run that ended before its strategy started measured nothing: null peaks and rates, never zeros,
 * from the summary (unstarted.ts, the runner's recorder) through the record on disk, the run list
 * and the exports to the run page, which shows a dash, in every lab. Real queue, run children,
 * store files and HTTP routes; the run that did start beside it still has its numbers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS } from '../../labs/streams/shared/params';
import { LABS } from '../../labs/registry';
import { LAB_IDS } from '../../labs/schemas';
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

  /**
   * Each lab's rates (per second of the run, or of its work: a speed-up, CPU asked per second), the
   * run page's items that show them, and its Markdown table's columns of them.
   */
  const RATES: Record<string, { figures: string[]; page: string[]; markdown: string[] }> = {
    streams: { figures: ['mbPerSec', 'recordsPerSec', 'insertsPerSec'], page: ['Throughput', 'Records'], markdown: ['MB/s', 'Records/s'] },
    http: { figures: ['reqPerSec'], page: ['Throughput'], markdown: ['req/s'] },
    cpu: { figures: ['speedup', 'speedupMeasured'], page: ['Speed-up'], markdown: ['Speed-up'] },
    deadline: { figures: ['baselineDemandCores', 'spikeDemandCores'], page: ['Work asked: baseline / spike'], markdown: [] },
    // Its figures are times, counts and a sweep's exponent: no rate.
    hotcode: { figures: [], page: [], markdown: [] },
  };

  /**
   * The number figures of each lab that may read 0 in a run that never started: counts its samples
   * carry (0 requests answered is a count), and the peaks of its process tree not yet made nullable.
   * Every other figure the lab's load or scenario reports is null there: not measured, never 0.
   */
  const ZERO_ALLOWED: Record<string, string[]> = {
    streams: ['bytesRead', 'bytesProcessed', 'chunks', 'peakBufferedBytes', 'peakInFlight', 'records'],
    http: ['rows', 'responsesOk', 'badResponses', 'bytesReceived', 'peakWritableBytes', 'peakOpenResponses'],
    cpu: ['requestsOk', 'badRequests', 'peakTreeRss', 'peakProcesses', 'peakThreads', 'peakMessageListeners'],
    deadline: [
      'sent',
      'onTime',
      'late',
      'timedOut',
      'refused',
      'errors',
      'latencyP50Ms',
      'latencyP99Ms',
      'latencyMaxMs',
      'latenessP50Ms',
      'latenessP99Ms',
      'latenessMaxMs',
      'deadlineTimersFired',
      'deadlineLatenessMaxMs',
      'spikeLatenessP99Ms',
      'recoveredBelowMs',
      'peakInFlight',
      'workMsPerObject',
      'cores',
      'objectsFetched',
      'objectsWorked',
    ],
    hotcode: [
      'reportsOk',
      'badReports',
      'reportMsMin',
      'reportMsMax',
      'latencyP50Ms',
      'probeP50Ms',
      'probeMaxMs',
      'probes',
      'sweepExponent',
      'sweepSkipped',
      'sweepStopped',
    ],
  };

  it('has no 0 in any lab for a figure nobody reported, in its JSON, CSV and run page', async () => {
    expect(Object.keys(ZERO_ALLOWED).sort()).toEqual([...LAB_IDS].sort());
    for (const [i, lab] of LABS.entries()) {
      const { id } = lab.schema;
      const queued = makeRun(testRunId(0x5c00 + i), {
        lab: id,
        strategy: lab.strategies[0].id,
        params: lab.schema.defaults as RunState['params'],
        status: 'preparing',
      });
      const sent = JSON.parse(JSON.stringify(unstartedSummary(queued, 'stopped before it started', 'stopped'))) as Record<string, unknown>;
      const zeros = Object.keys(lab.schema.figures).filter((k) => sent[k] === 0);
      expect(zeros, id).toEqual(ZERO_ALLOWED[id].filter((k) => zeros.includes(k)));
    }
  });

  it('has null rates in every lab, recorded, exported and shown as a dash, and older records with 0 for them still read so', async () => {
    expect(Object.keys(RATES).sort()).toEqual([...LAB_IDS].sort());
    const ids = new Map<string, { now: string; older: string }>();
    for (const [i, lab] of LABS.entries()) {
      const { id } = lab.schema;
      const rates = RATES[id];
      // A rate a lab adds, named as rates are (the bench's reading of names: server/cli/baseline.ts), must be listed above.
      expect(
        Object.keys(lab.schema.figures).filter((k) => /PerSec$|Rps$|^speedup|DemandCores$/.test(k)),
        id,
      ).toEqual(rates.figures);
      const strategy = lab.strategies[0].id;
      const record = async (n: number, summary: (s: RunSummary) => RunSummary) => {
        const queued = makeRun(testRunId(n), { lab: id, strategy, params: lab.schema.defaults as RunState['params'], status: 'preparing' });
        history.store.begin(makeRecord(queued));
        const s = summary(unstartedSummary(queued, 'stopped before it started', 'stopped'));
        await history.store.end({ ...queued, status: 'stopped', summary: s }, queued.queuedAt + 10);
        return queued.id;
      };
      const now = await record(0x5a00 + i, (s) => {
        // What the page's socket carries (the hub sends the summary as JSON).
        const sent = JSON.parse(JSON.stringify(s)) as Record<string, unknown>;
        for (const f of rates.figures) expect(sent[f] ?? null, `${id}.${f}`).toBeNull();
        return s;
      });
      // Recorded before rates were null: 0 where nothing was measured.
      const older = await record(0x5b00 + i, (s) => ({ ...s, ...Object.fromEntries(rates.figures.filter((f) => f in s).map((f) => [f, 0])) }) as RunSummary);
      ids.set(id, { now, older });
    }

    const csv = (await (await fetch(`${lab.url}/api/summaries.csv?ids=${[...ids.values()].map((r) => r.now).join(',')}`)).text()).trim().split('\n');
    const header = csv[0].split(',');
    for (const [id, { now }] of ids) {
      const line = csv.map((l) => l.split(',')).find((cells) => cells[header.indexOf('id')] === now)!;
      const columns = RATES[id].figures.filter((f) => header.includes(f));
      expect(
        columns.map((f) => line[header.indexOf(f)]),
        id,
      ).toEqual(columns.map(() => ''));
    }

    for (const [id, { now, older }] of ids) {
      const md = parseMarkdownTable(await (await fetch(`${lab.url}/api/summaries.md?ids=${now}`)).text());
      expect(
        RATES[id].markdown.map((c) => md[1][md[0].indexOf(c)]),
        id,
      ).toEqual(RATES[id].markdown.map(() => '–'));
      for (const runId of [now, older]) {
        const detail = runDetailSchema.parse(await (await fetch(`${lab.url}/api/runs/${runId}`)).json());
        const page = renderToStaticMarkup(createElement(RunSummaryList, { record: detail.record, storedSamples: 0 }));
        const term = (name: string) => new RegExp(`<dt>${name}</dt><dd>([^<]*)</dd>`).exec(page)?.[1];
        expect(RATES[id].page.map(term), `${id} ${runId === older ? 'older record' : ''}`).toEqual(RATES[id].page.map(() => '–'));
      }
    }
  });
});
