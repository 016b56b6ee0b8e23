/**
 * What the page knows about the lab, and how server messages change it. Pure: the socket hook
 * feeds it batches of validated messages (at most a few per second), tests feed it literals.
 * Live charts do not read samples from here: they draw from LiveFeeds as messages arrive.
 */
import {
  mergeLive,
  type DataStatus,
  type Experiment,
  type LiveState,
  type Owner,
  type QueueEntry,
  type ProcSample,
  type QueueBackend,
  type RunState,
  type Sample,
  type ServerMessage,
  type StrategyInfo,
} from './protocol';
import { DEFAULT_MAX_SIZE_MB } from '../labs/streams/shared/limits';
import { boundSeries } from './series';
import type { RuntimeInfo } from './runtimes';

/** The newest experiments whose runs keep every sample the page received (with this browser's own). */
export const EXPERIMENTS_WITH_SAMPLES = 3;
/** Other runs keep this many points, thinned evenly: a finished card still draws its whole line. */
export const THINNED_POINTS = 300;
/** Past this many runs, the oldest runs' samples are freed; a card that shows one reloads it from history. */
export const MAX_RUNS_WITH_SAMPLES = 60;

export interface LabError {
  code: string;
  message: string;
  requestType: string | null;
  /** Increases with every error, so the same text arriving twice still shows as new. */
  seq: number;
}

export interface LabState {
  /** True once a snapshot has been applied: before that the catalog is empty. */
  synced: boolean;
  strategies: StrategyInfo[];
  maxSizeMb: number;
  nodeVersion: string | null;
  /** The Node runtimes runs may ask for, the server's own first. */
  runtimes: RuntimeInfo[];
  /** Oldest first. */
  experiments: Experiment[];
  runs: Record<string, RunState>;
  samples: Record<string, readonly Sample[]>;
  proc: Record<string, readonly ProcSample[]>;
  /** Samples the server merged away because this page read too slowly, per run. */
  dropped: Record<string, number>;
  /** What runs show live beyond their samples (the CPU lab's request bars), folded by mergeLive. */
  live: Record<string, LiveState>;
  data: DataStatus[];
  error: LabError | null;
  /** Who this page is to the room (after hello), and whether it holds the operator token. */
  me: { owner: Owner; operator: boolean } | null;
  /** Waiting runs in the order they will start, with the estimated wait. */
  queue: QueueEntry[];
  /** Where runs are queued and whether it is reachable (null from servers before scale-out). */
  backend: QueueBackend | null;
}

export const initialLabState: LabState = {
  synced: false,
  strategies: [],
  maxSizeMb: DEFAULT_MAX_SIZE_MB,
  nodeVersion: null,
  runtimes: [],
  experiments: [],
  runs: {},
  samples: {},
  proc: {},
  dropped: {},
  live: {},
  data: [],
  error: null,
  me: null,
  queue: [],
  backend: null,
};

function upsertExperiment(list: Experiment[], e: Experiment): Experiment[] {
  const rest = list.filter((x) => x.id !== e.id);
  return [...rest, e].sort((a, b) => a.createdAt - b.createdAt);
}

/** A lab's file or table of one size is one entry: 1000 rows and 1000 bytes are not the same thing. */
function upsertData(list: DataStatus[], d: DataStatus): DataStatus[] {
  return [...list.filter((x) => x.lab !== d.lab || x.unit !== d.unit || x.sizeBytes !== d.sizeBytes), d];
}

function appendTo<T>(map: Map<string, T[]>, key: string, items: readonly T[]): void {
  const list = map.get(key);
  if (list) list.push(...items);
  else map.set(key, [...items]);
}

/** Runs whose series the page thins to THINNED_POINTS, and runs whose series it frees; the rest keep all. */
export interface SeriesPlan {
  thinned: ReadonlySet<string>;
  freed: ReadonlySet<string>;
}

/**
 * Memory is bounded by thinning, not by dropping what someone is looking at: runs still going, the
 * newest experiments and this browser's own keep every sample; other runs among the newest
 * MAX_RUNS_WITH_SAMPLES keep THINNED_POINTS; older ones keep none (a card showing one reloads it from history).
 */
export function seriesPlan(state: LabState): SeriesPlan {
  const newestFirst = [...state.experiments].reverse();
  const recent = new Set(newestFirst.slice(0, EXPERIMENTS_WITH_SAMPLES).map((e) => e.id));
  const thinned = new Set<string>();
  const freed = new Set<string>();
  let count = 0;
  for (const e of newestFirst) {
    // Until hello.ok says who this page is, any experiment may be its own: none is thinned yet.
    const whole = recent.has(e.id) || state.me === null || isOwn(state, e);
    for (const id of e.runIds) {
      const run = state.runs[id];
      if (run && isActive(run)) continue;
      if (count++ >= MAX_RUNS_WITH_SAMPLES) freed.add(id);
      else if (!whole) thinned.add(id);
    }
  }
  return { thinned, freed };
}

/** Thins or frees series by the plan, copying only the records that change. */
function applySeriesPlan(state: LabState): void {
  const { thinned, freed } = seriesPlan(state);
  const fit = <T>(record: Record<string, readonly T[]>): Record<string, readonly T[]> => {
    const ids = Object.keys(record);
    if (!ids.some((id) => freed.has(id) || (thinned.has(id) && record[id].length > THINNED_POINTS))) return record;
    const out: Record<string, readonly T[]> = {};
    for (const id of ids) if (!freed.has(id)) out[id] = thinned.has(id) ? boundSeries(record[id], THINNED_POINTS) : record[id];
    return out;
  };
  state.samples = fit(state.samples);
  state.proc = fit(state.proc);
  if (Object.keys(state.live).some((id) => freed.has(id))) state.live = Object.fromEntries(Object.entries(state.live).filter(([id]) => !freed.has(id)));
}

/** A finished run's series read back from history (the page had freed it, or never received it). */
export function withRecordedSeries(prev: LabState, runId: string, samples: readonly Sample[], proc: readonly ProcSample[]): LabState {
  if ((prev.samples[runId]?.length ?? 0) > 0) return prev;
  return { ...prev, samples: { ...prev.samples, [runId]: samples }, proc: { ...prev.proc, [runId]: proc } };
}

/** Applies messages in order and returns a new state; `prev` is left untouched. */
export function applyServerMessages(prev: LabState, messages: readonly ServerMessage[]): LabState {
  if (messages.length === 0) return prev;
  const next: LabState = { ...prev };
  // Samples are gathered per run and appended once at the end: one copy per run per batch.
  let pendingSamples = new Map<string, Sample[]>();
  let pendingProc = new Map<string, ProcSample[]>();
  let runsCopied = false;
  const setRun = (run: RunState) => {
    if (!runsCopied) {
      next.runs = { ...next.runs };
      runsCopied = true;
    }
    next.runs[run.id] = run;
  };

  for (const m of messages) {
    switch (m.type) {
      case 'snapshot':
        next.synced = true;
        next.strategies = m.strategies;
        next.maxSizeMb = m.maxSizeMb;
        next.nodeVersion = m.nodeVersion;
        next.runtimes = m.runtimes;
        next.experiments = [...m.experiments].sort((a, b) => a.createdAt - b.createdAt);
        next.runs = Object.fromEntries(m.runs.map((r) => [r.id, r]));
        runsCopied = true;
        next.samples = Object.fromEntries(Object.entries(m.samples).map(([id, s]) => [id, boundSeries(s)]));
        next.proc = Object.fromEntries(Object.entries(m.proc).map(([id, p]) => [id, boundSeries(p)]));
        next.dropped = {};
        next.live = m.live;
        next.data = m.data;
        next.queue = m.queue;
        next.backend = m.backend ?? null;
        // The snapshot already holds everything received before it.
        pendingSamples = new Map();
        pendingProc = new Map();
        applySeriesPlan(next);
        break;
      case 'experiment.created':
        next.experiments = upsertExperiment(next.experiments, m.experiment);
        applySeriesPlan(next);
        break;
      case 'run.queued':
      case 'run.updated':
        // A late run.updated must not wipe a summary that run.ended already delivered.
        setRun(m.run.summary === null && next.runs[m.run.id]?.summary ? { ...m.run, summary: next.runs[m.run.id].summary } : m.run);
        break;
      case 'run.ended':
        setRun({ ...m.run, summary: m.summary });
        break;
      case 'run.samples': {
        if (m.samples.length > 0) appendTo(pendingSamples, m.runId, m.samples);
        if (m.proc.length > 0) appendTo(pendingProc, m.runId, m.proc);
        if (m.dropped > 0) next.dropped = { ...next.dropped, [m.runId]: (next.dropped[m.runId] ?? 0) + m.dropped };
        break;
      }
      case 'run.live':
        next.live = { ...next.live, [m.runId]: mergeLive(next.live[m.runId] ?? {}, m.update) };
        break;
      case 'hello.ok':
        next.me = { owner: m.owner, operator: m.operator };
        applySeriesPlan(next); // which experiments are this browser's own is known from here
        break;
      case 'queue.order':
        next.queue = m.queue;
        break;
      case 'data.progress':
        next.data = upsertData(next.data, m.data);
        break;
      case 'queue.backend':
        next.backend = m.backend;
        break;
      case 'runtimes':
        next.runtimes = m.runtimes;
        break;
      case 'strategies':
        next.strategies = m.strategies;
        break;
      case 'error':
        next.error = { code: m.code, message: m.message, requestType: m.requestType, seq: (next.error?.seq ?? 0) + 1 };
        break;
      default: {
        const never: never = m;
        throw new Error(`unhandled server message ${JSON.stringify(never)}`);
      }
    }
  }

  if (pendingSamples.size > 0) {
    next.samples = { ...next.samples };
    for (const [id, s] of pendingSamples) next.samples[id] = boundSeries([...(next.samples[id] ?? []), ...s]);
  }
  if (pendingProc.size > 0) {
    next.proc = { ...next.proc };
    for (const [id, p] of pendingProc) next.proc[id] = boundSeries([...(next.proc[id] ?? []), ...p]);
  }
  return next;
}

/** The most recent experiment, or null. */
export function latestExperiment(state: LabState): Experiment | null {
  return state.experiments.at(-1) ?? null;
}

/** True when this page's browser started the experiment (or it is from before rooms, owned by nobody). */
export function isOwn(state: LabState, experiment: Experiment): boolean {
  return experiment.owner === null || experiment.owner.id === state.me?.owner.id;
}

/** True when this page's browser started the run's experiment (false for a run whose experiment the page does not know). */
export function isOwnRun(state: LabState, run: RunState): boolean {
  const e = state.experiments.find((x) => x.id === run.experimentId);
  return e !== undefined && isOwn(state, e);
}

/**
 * The experiment a page shows: the one it chose to watch in the Room panel, else the latest
 * this browser started (of the given lab, when the page shows one lab). Another browser's Start
 * never takes over the page.
 */
export function followedExperiment(state: LabState, watching: string | null, lab: string | null = null): Experiment | null {
  if (watching !== null) {
    const chosen = state.experiments.find((e) => e.id === watching);
    if (chosen) return chosen;
  }
  if (!state.me) return null;
  return state.experiments.filter((e) => isOwn(state, e) && (lab === null || e.lab === lab)).at(-1) ?? null;
}

/** Where a waiting run stands: its place (1 = next) and the estimated wait; null when it is not waiting. */
export function queuePlace(state: LabState, runId: string): { place: number; etaMs: number | null } | null {
  const i = state.queue.findIndex((q) => q.runId === runId);
  return i < 0 ? null : { place: i + 1, etaMs: state.queue[i].etaMs };
}

const ACTIVE = new Set<RunState['status']>(['queued', 'preparing', 'running']);

/** True while a run may still produce samples and can be stopped. */
export function isActive(run: RunState): boolean {
  return ACTIVE.has(run.status);
}

/** Runs of an experiment in the order it listed them; runs not yet announced are skipped. */
export function runsOf(state: LabState, experiment: Experiment): RunState[] {
  return experiment.runIds.map((id) => state.runs[id]).filter((r): r is RunState => r !== undefined);
}
