/**
 * Repeated runs and baselines (issue 28): each figure of a strategy's runs summed up as median,
 * min, max and spread, and compared with a baseline (an earlier `--json` output) by a rule that
 * expects noise: the Mann–Whitney U test at p < 0.05 when both sides have ≥ 5 runs, otherwise the
 * new median outside the baseline's min–max widened by the tolerance. Either way a change smaller
 * than the tolerance (a share of the baseline's median) is "no change": a difference too small to
 * matter is not a regression however sure the test is of it.
 */
import { readFileSync } from 'node:fs';
import { summarySchema, type RunSummary } from '../../lib/protocol';
import { labFigures, shown, type Figure } from './checks';
import { mannWhitney, spreadOf, type Spread } from './stats';

/** Runs a side needs for the U test: with 5 against 5 its smallest two-sided p is 0.008, below 0.05 with room. */
export const MIN_RUNS_FOR_TEST = 5;
export const P_LIMIT = 0.05;
/**
 * Below these a difference is no change whatever its share: a few milliseconds of timer or GC noise
 * (a 50 ms run's GC time moved 4.7 → 5.8 ms between two quiet invocations, p = 0.016), a quarter
 * MB of heap.
 */
export const FLOOR: Record<Figure['unit'], number> = { ms: 5, bytes: 256 * 1024, count: 0, outcome: 0 };

export type Change = 'regression' | 'improvement' | 'no change' | 'changed';

export interface FigureStats {
  strategy: string;
  nodeVersion: string;
  figure: string;
  unit: Figure['unit'];
  stats: Spread;
}

export interface Comparison {
  strategy: string;
  nodeVersion: string;
  figure: string;
  unit: Figure['unit'];
  baseline: Spread;
  current: Spread;
  rule: 'mann-whitney' | 'range';
  /** The U test's two-sided p (rule mann-whitney), else null. */
  p: number | null;
  /** (current − baseline) / baseline, of the medians. */
  relativeChange: number;
  change: Change;
  message: string;
}

/** Whether more of a figure is worse (+1), better (−1), or neither (0: reported as "changed"). */
export function direction(figure: string, unit: Figure['unit']): 1 | -1 | 0 {
  if (/PerSec$|Ok$|^onTime$|^speedup|Worked$|Processed$|Fetched$|^sent$/.test(figure)) return -1;
  if (unit === 'bytes' || unit === 'ms') return 1;
  if (/^bad|^late$|^timedOut$|^errors$|^refused$|^peak|Listeners$|Skipped$|^sweepExponent$/.test(figure)) return 1;
  return 0;
}

/** Runs that ended and can be measured: a stopped or interrupted run's figures are partial. */
function measurable(s: RunSummary): boolean {
  return s.outcome !== 'stopped' && s.outcome !== 'interrupted';
}

/** "v20.20.2" → "20": a baseline from another patch release of the same Node still compares. */
function major(version: string): string {
  return /^v?(\d+)/.exec(version)?.[1] ?? version;
}

/** A strategy's runs on one Node version, in the order they ran. */
export interface RunGroup {
  strategy: string;
  nodeVersion: string;
  runs: RunSummary[];
}

/** The runs by strategy and Node version, groups in first-run order (the reports and the comparisons both read them so). */
export function groupRuns(summaries: readonly RunSummary[]): RunGroup[] {
  const out = new Map<string, RunGroup>();
  for (const s of summaries) {
    const key = `${s.strategy}\u0000${s.nodeVersion}`;
    const g = out.get(key) ?? { strategy: s.strategy, nodeVersion: s.nodeVersion, runs: [] };
    g.runs.push(s);
    out.set(key, g);
  }
  return [...out.values()];
}

/** The groups a comparison measures: runs that ended, not stopped ones. */
function groups(summaries: readonly RunSummary[]): RunGroup[] {
  return groupRuns(summaries.filter(measurable));
}

/** The numeric figures of a group's runs that every run has, by name. */
function valuesOf(labId: string, runs: readonly RunSummary[]): Map<string, { unit: Figure['unit']; values: number[] }> {
  const out = new Map<string, { unit: Figure['unit']; values: number[] }>();
  for (const [name, f] of labFigures(labId)) {
    if (f.unit === 'outcome') continue;
    const values = runs.map((s) => f.read(s));
    if (values.every((v): v is number => typeof v === 'number' && Number.isFinite(v))) out.set(name, { unit: f.unit, values });
  }
  return out;
}

/** Median, min, max and spread of every figure, per strategy and Node. */
export function repeatStats(labId: string, summaries: readonly RunSummary[]): FigureStats[] {
  return groups(summaries).flatMap((g) =>
    [...valuesOf(labId, g.runs)].map(([figure, { unit, values }]) => ({
      strategy: g.strategy,
      nodeVersion: g.nodeVersion,
      figure,
      unit,
      stats: spreadOf(values),
    })),
  );
}

function percent(share: number): string {
  return `${share >= 0 ? '+' : ''}${(share * 100).toFixed(1)}%`;
}

/** Compares one figure's runs now with its baseline runs; `tolerance` is a share (0.1 = 10 %). */
export function compareFigure(
  where: { strategy: string; nodeVersion: string; figure: string; unit: Figure['unit'] },
  before: readonly number[],
  now: readonly number[],
  tolerance: number,
): Comparison {
  const baseline = spreadOf(before);
  const current = spreadOf(now);
  const delta = current.median - baseline.median;
  const relativeChange = baseline.median !== 0 ? delta / Math.abs(baseline.median) : delta === 0 ? 0 : Math.sign(delta);
  // From a median of 0 (no errors, no late timers) any change past the floor is a change: no share of 0 measures it.
  const big = Math.abs(delta) > FLOOR[where.unit] && (baseline.median === 0 || Math.abs(relativeChange) > tolerance);
  let rule: Comparison['rule'];
  let p: number | null = null;
  let differs: boolean;
  if (before.length >= MIN_RUNS_FOR_TEST && now.length >= MIN_RUNS_FOR_TEST) {
    rule = 'mann-whitney';
    p = mannWhitney(now, before).p;
    differs = p < P_LIMIT;
  } else {
    rule = 'range';
    const slack = (v: number) => tolerance * Math.abs(v);
    differs = current.median > baseline.max + slack(baseline.max) || current.median < baseline.min - slack(baseline.min);
  }
  const sense = direction(where.figure, where.unit);
  const change: Change = !differs || !big || delta === 0 ? 'no change' : sense === 0 ? 'changed' : Math.sign(delta) === sense ? 'regression' : 'improvement';
  const tol = `${(tolerance * 100).toFixed(0)}%`;
  const how =
    rule === 'mann-whitney'
      ? `Mann–Whitney p = ${p!.toPrecision(2)}, ${now.length} runs against ${before.length}; tolerance ${tol}`
      : `${now.length} runs against ${before.length}: against the baseline's ${shown(baseline.min, where.unit)}–${shown(baseline.max, where.unit)} ± ${tol}`;
  const message =
    `${where.strategy}: ${where.figure} ${change === 'no change' ? 'no change' : change.toUpperCase()}: ` +
    `median ${shown(current.median, where.unit)} against ${shown(baseline.median, where.unit)} (${percent(relativeChange)}; ${how})`;
  return { ...where, baseline, current, rule, p, relativeChange, change, message };
}

/**
 * Every figure of every strategy (and Node) that both sides measured (or those of `figures`),
 * compared; `missing` names each strategy and Node of this run the baseline has no comparable runs of
 * (none of that strategy, none on that Node major, or all stopped): nothing was compared for it.
 */
export function compareWithBaseline(
  labId: string,
  now: readonly RunSummary[],
  before: readonly RunSummary[],
  tolerance: number,
  figures: readonly string[] | null = null,
): { comparisons: Comparison[]; missing: string[] } {
  const old = groups(before);
  const missing: string[] = [];
  const comparisons = groups(now).flatMap((g) => {
    const base = old.find((o) => o.strategy === g.strategy && major(o.nodeVersion) === major(g.nodeVersion));
    if (!base) {
      missing.push(`${g.strategy} on Node ${g.nodeVersion}`);
      return [];
    }
    const beforeValues = valuesOf(labId, base.runs);
    return [...valuesOf(labId, g.runs)].flatMap(([figure, { unit, values }]) => {
      const b = beforeValues.get(figure);
      if (figures && !figures.includes(figure)) return [];
      return b ? [compareFigure({ strategy: g.strategy, nodeVersion: g.nodeVersion, figure, unit }, b.values, values, tolerance)] : [];
    });
  });
  return { comparisons, missing };
}

/** A baseline file: an earlier `npm run bench -- --json` output of the same lab; throws naming the file and what is wrong. */
export function readBaseline(path: string, labId: string): RunSummary[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new RangeError(`${path}: ${e.code === 'ENOENT' ? 'no such file' : `not JSON (${e.message})`}`);
  }
  if (!Array.isArray(value) || value.length === 0)
    throw new RangeError(`${path}: must be the JSON array \`npm run bench -- --json\` prints, with at least one run`);
  return value.map((entry, i) => {
    const parsed = summarySchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new RangeError(`${path}: run ${i + 1} is not a run summary (${issue.path.join('.') || 'the entry'}: ${issue.message})`);
    }
    if (parsed.data.lab !== labId) throw new RangeError(`${path}: run ${i + 1} is of the ${parsed.data.lab} lab, not ${labId}`);
    return parsed.data;
  });
}
