/**
 * What changed between Node versions, from the runs' own figures: for each strategy run on more than
 * one runtime, which figure moved from the oldest version to each newer one, by how much, and whether
 * that is beyond the run-to-run noise: the wider of the spread between repeated runs of the same
 * strategy on one runtime (when there are repeats) and NOISE_SHARE of the figure. Two or three
 * repeats underestimate the spread (two runs of iterator-helper on one Node differed by 6 % of
 * their RSS, docs/results.md §12), hence the floor. Pure.
 */
import { compareVersions } from '../runtimes';
import { MIB } from '../protocol/params';
import { formatMb, formatSeconds } from './format';

/** Figures compared across runtimes: what every lab's summary has. */
export interface RuntimeRun {
  strategy: string;
  nodeVersion: string;
  outcome: string;
  durationMs: number;
  peak: { rss: number; heapUsed: number; arrayBuffers: number };
}

/**
 * `minNoise`: the smallest change that counts. Memory peaks of repeated runs of one strategy on one
 * Node differed by up to 1 MB even for figures of a few MB (arrayBuffers, docs/results.md §12).
 */
const FIGURES = [
  { key: 'rss', label: 'peak RSS', of: (r: RuntimeRun) => r.peak.rss, format: formatMb, minNoise: MIB },
  { key: 'heapUsed', label: 'peak heapUsed', of: (r: RuntimeRun) => r.peak.heapUsed, format: formatMb, minNoise: MIB },
  { key: 'arrayBuffers', label: 'peak arrayBuffers', of: (r: RuntimeRun) => r.peak.arrayBuffers, format: formatMb, minNoise: MIB },
  { key: 'duration', label: 'duration', of: (r: RuntimeRun) => r.durationMs, format: formatSeconds, minNoise: 0 },
] as const;

/** A change smaller than this share of the figure is not told apart from noise, whatever the repeats. */
export const NOISE_SHARE = 0.1;

export interface RuntimeChange {
  strategy: string;
  figure: (typeof FIGURES)[number]['key'];
  from: string;
  to: string;
  before: number;
  after: number;
  /** True when the change passes the noise (the measured spread or NOISE_SHARE of the figure, the wider). */
  beyondNoise: boolean;
  sentence: string;
}

/** True when the runs were made on more than one Node version. */
export function runtimesDiffer(runs: readonly { summary?: { nodeVersion: string } | null }[]): boolean {
  return new Set(runs.flatMap((r) => (r.summary ? [r.summary.nodeVersion] : []))).size > 1;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function signed(delta: number, format: (n: number) => string): string {
  return `${delta >= 0 ? '+' : '−'}${format(Math.abs(delta))}`;
}

/** Every figure of every strategy that ran on two or more runtimes, from its oldest runtime to each newer one. */
export function runtimeChanges(runs: readonly RuntimeRun[]): RuntimeChange[] {
  const changes: RuntimeChange[] = [];
  for (const strategy of [...new Set(runs.map((r) => r.strategy))]) {
    const own = runs.filter((r) => r.strategy === strategy);
    const versions = [...new Set(own.map((r) => r.nodeVersion))].sort(compareVersions);
    if (versions.length < 2) continue;
    const groups = versions.map((v) => own.filter((r) => r.nodeVersion === v));
    for (const f of FIGURES) {
      const values = groups.map((g) => g.map(f.of));
      // The widest spread between repeated runs of one version; null when no version was repeated.
      const spreads = values.filter((v) => v.length > 1).map((v) => Math.max(...v) - Math.min(...v));
      const spread = spreads.length ? Math.max(...spreads) : null;
      const before = median(values[0]);
      for (let i = 1; i < versions.length; i++) {
        const after = median(values[i]);
        const delta = after - before;
        const floor = Math.max(f.minNoise, NOISE_SHARE * Math.max(Math.abs(before), Math.abs(after)));
        const measured = spread !== null && spread > floor;
        const beyondNoise = Math.abs(delta) > (measured ? spread : floor);
        const pct = before !== 0 ? ` (${delta >= 0 ? '+' : '−'}${Math.abs((100 * delta) / before).toFixed(0)} %)` : '';
        const noise = measured
          ? `${beyondNoise ? 'beyond' : 'within'} the ${f.format(spread)} spread of repeated runs`
          : `${beyondNoise ? 'more' : 'less'} than the ${floor > NOISE_SHARE * Math.max(Math.abs(before), Math.abs(after)) ? f.format(floor) : `${(NOISE_SHARE * 100).toFixed(0)} %`} taken as noise`;
        changes.push({
          strategy,
          figure: f.key,
          from: versions[0],
          to: versions[i],
          before,
          after,
          beyondNoise,
          sentence: `${f.label} ${f.format(before)} on Node ${versions[0]} → ${f.format(after)} on Node ${versions[i]}: ${signed(delta, f.format)}${pct}, ${noise}`,
        });
      }
    }
  }
  return changes;
}

/**
 * One line per strategy: what moved beyond the noise (or that nothing did), then what stayed within
 * it ("duration", or "peak RSS on Node 22.23.3" when it moved on another version).
 */
export function runtimeVerdict(runs: readonly RuntimeRun[]): Array<{ strategy: string; moved: string[]; steady: string[] }> {
  const changes = runtimeChanges(runs.filter((r) => r.outcome === 'completed' || r.outcome === 'data-lost'));
  return [...new Set(changes.map((c) => c.strategy))].map((strategy) => {
    const own = changes.filter((c) => c.strategy === strategy);
    const steady = FIGURES.flatMap((f) => {
      const of = own.filter((c) => c.figure === f.key);
      const within = of.filter((c) => !c.beyondNoise).map((c) => c.to);
      if (within.length === 0) return [];
      return within.length === of.length ? [f.label] : [`${f.label} on Node ${within.join(', ')}`];
    });
    return { strategy, moved: own.filter((c) => c.beyondNoise).map((c) => c.sentence), steady };
  });
}
