import { describe, expect, it } from 'vitest';
import { applyServerMessages, followedExperiment, initialLabState, keptRunIds, latestExperiment, runsOf, type LabState } from './lab-state';
import { boundSeries } from './series';
import { MIB } from './protocol/params';
import { DEFAULT_STREAMS_PARAMS as DEFAULT_PARAMS } from '../labs/streams/shared/params';
import { mergeLive, type Experiment, type RunState, type RunSummary, type ServerMessage } from './protocol';
import { LIVE_LIST_CAP } from './protocol/common';
import { makeSample } from './test-fixtures';

const sample = (t: number) => makeSample({ t, at: 1000 + t, rss: t });

const experiment = (id: string, createdAt: number, runIds: string[]): Experiment => ({
  lab: 'streams',
  owner: null,
  id,
  strategies: ['rxjs-from'],
  params: DEFAULT_PARAMS,
  parallel: false,
  createdAt,
  runIds,
});

const run = (id: string, status: RunState['status'], summary: RunSummary | null = null): RunState => ({
  lab: 'streams',
  id,
  experimentId: 'e1',
  strategy: 'rxjs-from',
  params: DEFAULT_PARAMS,
  status,
  queuedAt: 1,
  startedAt: null,
  pid: null,
  preparedUnits: 150 * MIB,
  summary,
});

const snapshot = (over: Partial<Extract<ServerMessage, { type: 'snapshot' }>> = {}): ServerMessage => ({
  type: 'snapshot',
  strategies: [],
  maxSizeMb: 512,
  nodeVersion: '20.20.2',
  runtimes: [],
  experiments: [],
  runs: [],
  samples: {},
  proc: {},
  live: {},
  data: [],
  queue: [],
  ...over,
});

const samples = (runId: string, ts: number[]): ServerMessage => ({ type: 'run.samples', runId, samples: ts.map(sample), proc: [], dropped: 0 });

describe('applyServerMessages', () => {
  it('leaves the previous state untouched', () => {
    const before = applyServerMessages(initialLabState, [snapshot({ runs: [run('r1', 'running')] })]);
    const frozen = JSON.stringify(before);
    applyServerMessages(before, [samples('r1', [1, 2]), { type: 'run.updated', run: run('r1', 'completed') }]);
    expect(JSON.stringify(before)).toBe(frozen);
  });

  it('appends the samples of a whole batch in order', () => {
    let s: LabState = applyServerMessages(initialLabState, [snapshot({ samples: { r1: [sample(0)] } })]);
    s = applyServerMessages(s, [samples('r1', [10, 20]), samples('r1', [30]), samples('r2', [5])]);
    expect(s.samples.r1.map((x) => x.t)).toEqual([0, 10, 20, 30]);
    expect(s.samples.r2.map((x) => x.t)).toEqual([5]);
  });

  it('lets a snapshot replace everything received before it in the same batch', () => {
    const s = applyServerMessages(initialLabState, [samples('r1', [1, 2, 3]), snapshot({ samples: { r1: [sample(1)] } }), samples('r1', [4])]);
    expect(s.synced).toBe(true);
    expect(s.maxSizeMb).toBe(512);
    expect(s.samples.r1.map((x) => x.t)).toEqual([1, 4]);
  });

  it('keeps the summary of an ended run when a stale run.updated arrives after it', () => {
    const done = { outcome: 'completed' } as RunSummary;
    const s = applyServerMessages(initialLabState, [
      { type: 'run.ended', run: run('r1', 'completed'), summary: done },
      { type: 'run.updated', run: run('r1', 'completed') },
    ]);
    expect(s.runs.r1.summary).toBe(done);
  });

  it('orders experiments by creation and finds the latest one with its runs', () => {
    const s = applyServerMessages(initialLabState, [
      { type: 'experiment.created', experiment: experiment('e2', 20, ['r2', 'r3']) },
      { type: 'experiment.created', experiment: experiment('e1', 10, ['r1']) },
      { type: 'run.queued', run: run('r3', 'queued') },
    ]);
    expect(s.experiments.map((e) => e.id)).toEqual(['e1', 'e2']);
    const latest = latestExperiment(s)!;
    expect(latest.id).toBe('e2');
    expect(runsOf(s, latest).map((r) => r.id)).toEqual(['r3']);
  });

  it('counts dropped samples and keeps the latest error with a rising sequence', () => {
    const s = applyServerMessages(initialLabState, [
      { type: 'run.samples', runId: 'r1', samples: [], proc: [], dropped: 3 },
      { type: 'run.samples', runId: 'r1', samples: [], proc: [], dropped: 2 },
      { type: 'error', code: 'bad-request', message: 'delayMs must be between 0 and 1000', requestType: 'experiment.start' },
      { type: 'error', code: 'not-found', message: 'no run r9', requestType: 'run.stop' },
    ]);
    expect(s.dropped.r1).toBe(5);
    expect(s.error).toEqual({ code: 'not-found', message: 'no run r9', requestType: 'run.stop', seq: 2 });
  });

  it('takes the runtimes a server announces after its snapshot (one installed while it runs)', () => {
    const own = { version: '20.20.2', own: true };
    const s = applyServerMessages({ ...initialLabState, runtimes: [own] }, [{ type: 'runtimes', runtimes: [own, { version: '22.23.3', own: false }] }]);
    expect(s.runtimes.map((r) => r.version)).toEqual(['20.20.2', '22.23.3']);
  });

  it('tracks data files by size', () => {
    const d = (writtenBytes: number, state: 'generating' | 'ready') => ({
      type: 'data.progress' as const,
      data: { lab: 'streams', unit: 'bytes' as const, sizeBytes: 100, writtenBytes, state, message: null },
    });
    const s = applyServerMessages(initialLabState, [d(10, 'generating'), d(100, 'ready')]);
    expect(s.data).toEqual([{ lab: 'streams', unit: 'bytes', sizeBytes: 100, writtenBytes: 100, state: 'ready', message: null }]);
  });

  it('keeps a table of N rows apart from a file of N bytes', () => {
    const file = { lab: 'streams', unit: 'bytes' as const, sizeBytes: 1000, writtenBytes: 1000, state: 'ready' as const, message: null };
    const table = { lab: 'http', unit: 'rows' as const, sizeBytes: 1000, writtenBytes: 400, state: 'generating' as const, message: null };
    const s = applyServerMessages(initialLabState, [
      { type: 'data.progress', data: file },
      { type: 'data.progress', data: table },
    ]);
    expect(s.data).toEqual([file, table]);
  });

  it('keeps samples only for the newest experiments once a new one is created', () => {
    let s = applyServerMessages(initialLabState, [
      snapshot({
        experiments: ['e1', 'e2', 'e3'].map((id, i) => experiment(id, i, [`${id}-r`])),
        samples: { 'e1-r': [sample(1)], 'e2-r': [sample(2)], 'e3-r': [sample(3)] },
      }),
    ]);
    s = applyServerMessages(s, [{ type: 'experiment.created', experiment: experiment('e4', 9, ['e4-r']) }, samples('e4-r', [4])]);
    expect(Object.keys(s.samples).sort()).toEqual(['e2-r', 'e3-r', 'e4-r']);
  });

  it('keeps the runs of the newest experiments and any run still going (the live feeds follow this)', () => {
    const s = applyServerMessages(initialLabState, [
      snapshot({
        experiments: ['e1', 'e2', 'e3', 'e4'].map((id, i) => experiment(id, i, [`${id}-r`])),
        runs: [run('e1-r', 'running'), run('e2-r', 'completed'), run('e4-r', 'queued')],
      }),
    ]);
    expect([...keptRunIds(s)].sort()).toEqual(['e1-r', 'e2-r', 'e3-r', 'e4-r']);
    const later = applyServerMessages(s, [{ type: 'run.updated', run: run('e1-r', 'stopped') }]);
    expect([...keptRunIds(later)].sort()).toEqual(['e2-r', 'e3-r', 'e4-r']);
  });
});

describe('live extras (run.live)', () => {
  it('appends lists and replaces values, from the snapshot on, and keeps each list bounded', () => {
    const base = applyServerMessages(initialLabState, [snapshot({ live: { r1: { timeline: [1, 2], threads: ['a'] } } })]);
    const next = applyServerMessages(base, [
      { type: 'run.live', runId: 'r1', update: { append: { timeline: [3] }, set: { threads: ['b'] } } },
      { type: 'run.live', runId: 'r2', update: { append: { timeline: [9] }, set: {} } },
    ]);
    expect(next.live).toEqual({ r1: { timeline: [1, 2, 3], threads: ['b'] }, r2: { timeline: [9] } });
    expect(base.live).toEqual({ r1: { timeline: [1, 2], threads: ['a'] } });
    const long = Array.from({ length: LIVE_LIST_CAP + 5 }, (_, i) => i);
    const capped = mergeLive({ timeline: [-1] }, { append: { timeline: long }, set: {} }).timeline as number[];
    expect(capped).toHaveLength(LIVE_LIST_CAP);
    expect(capped.at(-1)).toBe(LIVE_LIST_CAP + 4);
  });
});

describe('boundSeries', () => {
  it('halves resolution instead of dropping the start, and keeps the last point', () => {
    const series = Array.from({ length: 21 }, (_, i) => i);
    const out = boundSeries(series, 10);
    expect(out.length).toBeLessThanOrEqual(10);
    expect(out[0]).toBe(0);
    expect(out.at(-1)).toBe(20);
  });
});

describe('followedExperiment', () => {
  const me = { owner: { id: 'me', name: null }, operator: false };
  const mine = (id: string, createdAt: number, lab: string): Experiment => ({ ...experiment(id, createdAt, []), lab, owner: me.owner });
  const state: LabState = {
    ...initialLabState,
    me,
    experiments: [mine('s1', 1, 'streams'), mine('h1', 2, 'http'), mine('s2', 3, 'streams'), mine('h2', 4, 'http')],
  };

  it('follows this browser’s latest experiment of the lab the page shows', () => {
    expect(followedExperiment(state, null)?.id).toBe('h2');
    expect(followedExperiment(state, null, 'streams')?.id).toBe('s2');
    expect(followedExperiment(state, null, 'http')?.id).toBe('h2');
  });

  it('shows an experiment chosen in the Room panel whatever its lab', () => {
    expect(followedExperiment(state, 'h1', 'streams')?.id).toBe('h1');
  });
});
