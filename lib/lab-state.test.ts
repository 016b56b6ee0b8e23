import { describe, expect, it } from 'vitest';
import {
  applyServerMessages,
  followedExperiment,
  initialLabState,
  latestExperiment,
  MAX_RUNS_WITH_SAMPLES,
  runsOf,
  seriesPlan,
  THINNED_POINTS,
  withRecordedSeries,
  type LabState,
} from './lab-state';
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

  // Issue 26: another browser's experiments never blank this browser's finished cards.
  const mine = { id: 'me', name: 'A' };
  const theirs = { id: 'them', name: 'B' };
  const owned = (id: string, at: number, owner: { id: string; name: string }) => ({ ...experiment(id, at, [`${id}-r`]), owner });
  // Two runs' series told apart by their heap figure.
  const long = (tag: string) => Array.from({ length: 1000 }, (_, i) => makeSample({ t: i, at: i, rss: i, heapUsed: tag.charCodeAt(0) }));

  it("keeps every sample of this browser's experiments while others run four more, and thins others' older runs", () => {
    let s = applyServerMessages(initialLabState, [
      snapshot({ experiments: [owned('a1', 1, mine), owned('b0', 0, theirs)], runs: [run('a1-r', 'completed'), run('b0-r', 'completed')] }),
      { type: 'hello.ok', owner: mine, operator: false },
      { type: 'run.samples', runId: 'a1-r', samples: long('a'), proc: [], dropped: 0 },
      { type: 'run.samples', runId: 'b0-r', samples: long('b'), proc: [], dropped: 0 },
    ]);
    for (let i = 2; i <= 5; i++) s = applyServerMessages(s, [{ type: 'experiment.created', experiment: owned(`b${i}`, i, theirs) }]);
    expect(s.samples['a1-r']).toHaveLength(1000);
    // b0 (like b2) is neither among the newest three nor this browser's: its line stays, thinned.
    expect(s.samples['b0-r'].length).toBeGreaterThan(THINNED_POINTS / 2);
    expect(s.samples['b0-r'].length).toBeLessThanOrEqual(THINNED_POINTS);
    expect(s.samples['b0-r'].at(-1)).toEqual(long('b').at(-1));
    const plan = seriesPlan(s);
    expect([...plan.thinned]).toEqual(['b2-r', 'b0-r']);
    expect([...plan.freed]).toEqual([]);
  });

  it('thins nothing before hello.ok says whose experiments are whose', () => {
    const s = applyServerMessages(initialLabState, [
      snapshot({
        experiments: ['e1', 'e2', 'e3', 'e4', 'e5'].map((id, i) => owned(id, i, theirs)),
        samples: { 'e1-r': long('1'), 'e5-r': long('5') },
      }),
    ]);
    expect(s.samples['e1-r']).toHaveLength(1000);
    const after = applyServerMessages(s, [{ type: 'hello.ok', owner: mine, operator: false }]);
    expect(after.samples['e1-r'].length).toBeLessThanOrEqual(THINNED_POINTS);
    expect(after.samples['e5-r']).toHaveLength(1000);
  });

  it(`frees the series of runs past the newest ${MAX_RUNS_WITH_SAMPLES}, never of a run still going`, () => {
    const n = MAX_RUNS_WITH_SAMPLES + 5;
    const exps = Array.from({ length: n }, (_, i) => owned(`e${i}`, i, mine));
    const s = applyServerMessages(initialLabState, [
      snapshot({ experiments: exps, runs: [run('e0-r', 'running'), run('e1-r', 'completed')], samples: { 'e0-r': [sample(1)], 'e1-r': [sample(1)] } }),
      { type: 'hello.ok', owner: mine, operator: false },
    ]);
    const plan = seriesPlan(s);
    expect(plan.freed.size).toBe(4); // e1 … e4: the five oldest but e0, which is running
    expect(plan.freed.has('e0-r')).toBe(false);
    expect(Object.keys(s.samples)).toEqual(['e0-r']);
  });

  it('takes a recorded series back only when the page holds none', () => {
    const s = applyServerMessages(initialLabState, [snapshot({ samples: { r1: [sample(1)] } })]);
    expect(withRecordedSeries(s, 'r1', [sample(5)], []).samples.r1).toEqual([sample(1)]);
    expect(withRecordedSeries(s, 'r2', [sample(5)], []).samples.r2).toEqual([sample(5)]);
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
