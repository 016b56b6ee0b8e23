/**
 * How long a waiting run will take, for the wait the page shows: what the last run of the same
 * lab, strategy and parameters took, or else the lab's own estimate from its parameters.
 */
import type { QueueEntry, RunState } from '../../lib/protocol';
import type { Job } from './fair-jobs';
import { requireLab } from '../../labs/registry';

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

export interface WaitOptions {
  /** A running run's own time left, the figure its card shows as ETA (RunBook.remainingMs); null when unknown. */
  remainingMs?: (run: RunState) => number | null;
  now?: number;
  /** Jobs that run at once: 1 for this server's own queue, the workers' slots with Redis. */
  slots?: number;
  /** Which job a running run belongs to (a parallel job's runs hold one slot together); default: all one job. */
  jobOf?: (run: RunState) => string;
}

/**
 * The waiting runs in start order, each with its estimated wait: each job in turn goes to the slot
 * that frees first (what its running job still needs, or now if it is idle) and holds it as long
 * as its longest run (a parallel job's runs start together). With one slot that is what the
 * running runs still need plus every job before it. Unknown durations make the waits behind them unknown.
 */
export function waitingOrder(
  running: readonly RunState[],
  jobs: readonly Job[],
  runs: ReadonlyMap<string, { state: RunState }>,
  estimates: DurationEstimates,
  { remainingMs = () => null, now = Date.now(), slots = 1, jobOf = () => '' }: WaitOptions = {},
): QueueEntry[] {
  // When each busy slot frees: its job's longest remaining run (null: unknown).
  const busy = new Map<string, number | null>();
  for (const r of running) {
    const elapsed = r.startedAt === null ? 0 : now - r.startedAt;
    // A run under way knows its own pace: the waits behind it add up from its card's ETA, so the two
    // never disagree; before its pace is known, the estimate less the time it has run.
    const own = remainingMs(r);
    const left = own !== null ? own : Math.max(0, (estimates.estimate(r) ?? NaN) - elapsed);
    const key = jobOf(r);
    const before = busy.has(key) ? busy.get(key)! : 0;
    busy.set(key, Number.isNaN(left) || before === null ? null : Math.max(before, left));
  }
  const free: Array<number | null> = [...busy.values()];
  while (free.length < slots) free.push(0);
  const out: QueueEntry[] = [];
  for (const job of jobs) {
    const states = job.runIds.map((id) => runs.get(id)?.state).filter((s): s is RunState => s?.status === 'queued');
    // The slot that frees first among those whose time is known; unknown only if none is.
    let slot = -1;
    free.forEach((t, i) => {
      if (t !== null && (slot < 0 || t < free[slot]!)) slot = i;
    });
    const at = slot < 0 ? null : free[slot];
    for (const s of states) out.push({ runId: s.id, etaMs: at === null ? null : Math.round(at) });
    if (slot < 0) continue;
    const longest = states.map((s) => estimates.estimate(s)).reduce<number | null>((m, v) => (m === null || v === null ? null : Math.max(m, v)), 0);
    free[slot] = at === null || longest === null ? null : at + longest;
  }
  return out;
}
