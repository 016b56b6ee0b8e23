/**
 * The frontier of finished streams runs: each run a point at its records per second (x) and its
 * peak arrayBuffers (y), and one line per strategy through its runs that differ only by
 * concurrency, in concurrency order (a concurrency sweep draws each strategy's curve). Pure:
 * FrontierChart draws it.
 */
import { isMeasured, type Measured, type Outcome } from '@/lib/protocol';
import { streamsKnobs, type ConsumerKind, type StreamsParams } from '../shared/params';
import type { StreamsSummary } from '../shared/schema';

/** One finished run on the frontier. */
export interface FrontierPoint {
  runId: string;
  strategy: string;
  recordsPerSec: number;
  peakArrayBuffers: number;
  /** What the strategy ran with: the knob for a bounded strategy, 1 for a sequential one, null for no bound. */
  concurrency: number | null;
  consumer: ConsumerKind;
  sizeMb: number;
  delayMs: number;
  /** The records option: one consumer call per CSV line rather than per chunk. */
  records: boolean;
  outcome: Outcome;
}

/** A vertex of a line: one concurrency's runs, at their mean (repeated runs of one concurrency are one vertex). */
export interface FrontierVertex {
  concurrency: number;
  recordsPerSec: number;
  peakArrayBuffers: number;
  /** How many runs it stands for. */
  runs: number;
}

/** One strategy's runs that differ only by concurrency, joined in concurrency order. */
export interface FrontierLine {
  key: string;
  strategy: string;
  vertices: FrontierVertex[];
}

export interface Frontier {
  /** The strategies with points, each with its points in the runs' order; strategies in the given order, unknown ones after. */
  series: Array<{ strategy: string; points: FrontierPoint[] }>;
  lines: FrontierLine[];
  /** Finished runs left out: recorded before records/s was measured (#30). */
  withoutRecords: number;
}

/**
 * An object's JSON with its keys sorted, so two params objects compare equal whatever order their
 * keys came in; a switch that is off is left out, as it is from params recorded before it existed.
 */
function canonicalJson(value: Record<string, unknown>): string {
  const set = Object.entries(value).filter(([, v]) => v !== undefined && v !== false);
  return JSON.stringify(Object.fromEntries(set.sort(([a], [b]) => a.localeCompare(b))));
}

/**
 * What a run shares with the runs it may be joined to: its strategy, its Node and every param but
 * concurrency (the consumer's knobs with their defaults filled in, so a run recorded before them
 * joins one with them at their defaults).
 */
export function sweepKey(s: Pick<StreamsSummary, 'strategy' | 'params' | 'nodeVersion'>): string {
  const { concurrency: _concurrency, ...rest } = { ...s.params, ...streamsKnobs(s.params) } as StreamsParams;
  return `${s.strategy}|${s.nodeVersion}|${canonicalJson(rest)}`;
}

function pointOf(s: Measured<StreamsSummary> & { recordsPerSec: number }): FrontierPoint {
  const k = streamsKnobs(s.params);
  return {
    runId: s.runId,
    strategy: s.strategy,
    recordsPerSec: s.recordsPerSec,
    peakArrayBuffers: s.peak.arrayBuffers,
    // A summary without the figure is from before the knob: then the params' (its default, one at a time).
    concurrency: s.concurrency === undefined ? k.concurrency : s.concurrency,
    consumer: k.consumer,
    sizeMb: s.params.sizeMb,
    delayMs: s.params.delayMs,
    records: k.records,
    outcome: s.outcome,
  };
}

/** A line's vertices: its completed runs with a bound, one vertex per concurrency (their mean), ascending. */
function verticesOf(points: readonly FrontierPoint[]): FrontierVertex[] {
  const byConcurrency = new Map<number, FrontierPoint[]>();
  for (const p of points) if (p.concurrency !== null) byConcurrency.set(p.concurrency, [...(byConcurrency.get(p.concurrency) ?? []), p]);
  const mean = (ps: readonly FrontierPoint[], f: (p: FrontierPoint) => number) => ps.reduce((sum, p) => sum + f(p), 0) / ps.length;
  return [...byConcurrency.entries()]
    .sort(([a], [b]) => a - b)
    .map(([concurrency, ps]) => ({
      concurrency,
      recordsPerSec: mean(ps, (p) => p.recordsPerSec),
      peakArrayBuffers: mean(ps, (p) => p.peakArrayBuffers),
      runs: ps.length,
    }));
}

/**
 * The frontier of these finished runs (other labs' summaries are not given): every run with a
 * records/s figure is a point, whatever its outcome; a line joins a strategy's completed runs that
 * differ only by concurrency, when there are two concurrencies or more. A run that did not complete
 * stays a point only: its rate and peak are of the part it got through. `order`: strategy ids in
 * the order the series should come (the catalog's).
 */
export function frontierOf(summaries: readonly StreamsSummary[], order: readonly string[] = []): Frontier {
  // A run with no sample (stopped before it started) is no point at all, nor one recorded before records/s.
  const ran = summaries.filter(isMeasured);
  const measured = ran.filter((s): s is Measured<StreamsSummary> & { recordsPerSec: number } => typeof s.recordsPerSec === 'number');
  const points = measured.map(pointOf);
  const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : order.length);
  const strategies = [...new Set(points.map((p) => p.strategy))].sort((a, b) => rank(a) - rank(b));

  const groups = new Map<string, FrontierPoint[]>();
  measured.forEach((s, i) => {
    if (s.outcome !== 'completed') return;
    const key = sweepKey(s);
    groups.set(key, [...(groups.get(key) ?? []), points[i]]);
  });
  const lines = [...groups.entries()]
    .map(([key, ps]) => ({ key, strategy: ps[0].strategy, vertices: verticesOf(ps) }))
    .filter((l) => l.vertices.length >= 2)
    .sort((a, b) => rank(a.strategy) - rank(b.strategy));

  return {
    series: strategies.map((strategy) => ({ strategy, points: points.filter((p) => p.strategy === strategy) })),
    lines,
    withoutRecords: ran.length - measured.length,
  };
}
