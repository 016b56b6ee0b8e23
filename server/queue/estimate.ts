/**
 * How long a waiting run will take, for the wait the page shows: what the last run of the same
 * lab, strategy and parameters took, or else the lab's own estimate from its parameters.
 */
import type { QueueEntry, RunState } from '../../lib/protocol';
import type { Job } from './fair-jobs';
import { requireLab } from '../labs/registry';

/** Durations remembered (one per lab, strategy and parameters); the oldest go first. */
const MAX_REMEMBERED = 200;
/** Starting a child and loading a strategy, on top of the work (measured: 50–200 ms here). */
const START_MS = 200;

const keyOf = (run: Pick<RunState, 'lab' | 'strategy' | 'params'>) => `${run.lab}|${run.strategy}|${JSON.stringify(run.params)}`;

export class DurationEstimates {
  private readonly seen = new Map<string, number>();

  /** A run ended after doing its work: its length is the estimate for the next like it. */
  learn(run: RunState, durationMs: number): void {
    const key = keyOf(run);
    this.seen.delete(key);
    this.seen.set(key, durationMs + START_MS);
    if (this.seen.size > MAX_REMEMBERED) this.seen.delete(this.seen.keys().next().value!);
  }

  /** Expected ms from start to end, or null when nothing is known. */
  estimate(run: RunState): number | null {
    const known = this.seen.get(keyOf(run));
    if (known !== undefined) return known;
    const work = requireLab(run.lab).estimateMs(run.params);
    return work === null ? null : work + START_MS;
  }
}

/**
 * The waiting runs in start order, each with its estimated wait: what the running runs still need,
 * then each job before it (a parallel job's runs start together and take as long as the longest).
 */
export function waitingOrder(
  running: readonly RunState[],
  jobs: readonly Job[],
  runs: ReadonlyMap<string, { state: RunState }>,
  estimates: DurationEstimates,
  doneShare: (run: RunState) => number | null = () => null,
  now = Date.now(),
): QueueEntry[] {
  let waitMs: number | null = 0;
  for (const r of running) {
    const elapsed = r.startedAt === null ? 0 : now - r.startedAt;
    // A run well under way knows its own pace (the same figure as its card's ETA); else the estimate.
    const share = doneShare(r);
    const left = share !== null && share > 0.05 && share < 1 ? (elapsed * (1 - share)) / share : (estimates.estimate(r) ?? NaN) - elapsed;
    waitMs = Number.isNaN(left) || waitMs === null ? null : Math.max(waitMs, left);
  }
  const out: QueueEntry[] = [];
  for (const job of jobs) {
    const states = job.runIds.map((id) => runs.get(id)?.state).filter((s): s is RunState => s?.status === 'queued');
    for (const s of states) out.push({ runId: s.id, etaMs: waitMs === null ? null : Math.round(waitMs) });
    const longest = states.map((s) => estimates.estimate(s)).reduce<number | null>((m, v) => (m === null || v === null ? null : Math.max(m, v)), 0);
    waitMs = waitMs === null || longest === null ? null : waitMs + longest;
  }
  return out;
}
