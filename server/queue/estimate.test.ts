import { describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS } from '../../labs/streams/shared/params';
import type { RunState } from '../../lib/protocol';
import { DurationEstimates, waitingOrder } from './estimate';
import { newExperiment } from './new-experiment';
import { RunBook } from './run-book';
import { runProgress } from '../../lib/readouts/progress';
import { MIB } from '../../lib/protocol/params';
import { makeSample } from '../../lib/test-fixtures';

const NOW = 1_000_000;

/** Runs of the streams lab, one per strategy, each known to take `ms` (learned from a run like it). */
function runs(strategies: string[], estimates: DurationEstimates, ms: number): RunState[] {
  const { states } = newExperiment('streams', strategies, DEFAULT_STREAMS_PARAMS, false, null);
  for (const s of states) estimates.learn(s, ms - 200); // learn() adds the 200 ms a start takes
  return states;
}
const running = (s: RunState, startedMsAgo: number): RunState => ({ ...s, status: 'running', startedAt: NOW - startedMsAgo });
const book = (states: RunState[]) => new Map(states.map((s) => [s.id, { state: s }]));
const etas = (order: Array<{ etaMs: number | null }>) => order.map((e) => e.etaMs);

describe('estimated waits', () => {
  it('with one slot: what the running run still needs, then every job before', () => {
    const est = new DurationEstimates();
    const [a, b, c] = runs(['for-await', 'pipeline-generator', 'readable-map'], est, 10_000);
    const order = waitingOrder(
      [running(a, 4000)],
      [
        { owner: 'x', runIds: [b.id] },
        { owner: 'y', runIds: [c.id] },
      ],
      book([a, b, c]),
      est,
      { now: NOW },
    );
    expect(etas(order)).toEqual([6000, 16_000]);
  });

  it('with more slots: each job goes to the slot that frees first, an idle slot at once', () => {
    const est = new DurationEstimates();
    const [a, b, c, d] = runs(['for-await', 'pipeline-generator', 'readable-map', 'rxjs-from'], est, 10_000);
    const jobs = [b, c, d].map((s) => ({ owner: s.id, runIds: [s.id] }));
    // Two slots: one busy for 6 s more, one idle; b starts now, c when a's slot frees, d when b's does.
    const two = waitingOrder([running(a, 4000)], jobs, book([a, b, c, d]), est, { now: NOW, slots: 2, jobOf: (r) => r.id });
    expect(etas(two)).toEqual([0, 6000, 10_000]);
    // Three slots: two start now.
    expect(etas(waitingOrder([running(a, 4000)], jobs, book([a, b, c, d]), est, { now: NOW, slots: 3, jobOf: (r) => r.id }))).toEqual([0, 0, 6000]);
  });

  it("counts a parallel job's runs as one slot, held as long as its longest run", () => {
    const est = new DurationEstimates();
    const [a, b] = runs(['for-await', 'pipeline-generator'], est, 10_000).map((s, i) => running(s, [1000, 8000][i]));
    const [c] = runs(['readable-map'], est, 3000);
    const [d] = runs(['rxjs-from'], est, 5000);
    const [e] = runs(['ixjs-from'], est, 1000);
    const order = waitingOrder(
      [a, b],
      [
        { owner: 'x', runIds: [c.id, d.id] },
        { owner: 'y', runIds: [e.id] },
      ],
      book([a, b, c, d, e]),
      est,
      { now: NOW },
    );
    // a and b hold the one slot until a's 9 s are done; c and d start together then and hold it 5 s.
    expect(etas(order)).toEqual([9000, 9000, 14_000]);
  });

  it('says nothing it does not know: an unknown duration makes the waits behind it unknown', () => {
    /** Knows every run but one. */
    class AllButOne extends DurationEstimates {
      estimate(run: RunState): number | null {
        return run.id === 'r-unknown' ? null : super.estimate(run);
      }
    }
    const est = new AllButOne();
    const [a, b] = runs(['for-await', 'pipeline-generator'], est, 10_000);
    const unknown = running({ ...a, id: 'r-unknown' }, 1000);
    const jobs = [{ owner: 'x', runIds: [b.id] }];
    expect(etas(waitingOrder([unknown], jobs, book([unknown, b]), est, { now: NOW }))).toEqual([null]);
    // With a second slot idle, the job behind it needs no estimate of the unknown one.
    expect(etas(waitingOrder([unknown], jobs, book([unknown, b]), est, { now: NOW, slots: 2, jobOf: (r) => r.id }))).toEqual([0]);
  });
});

describe("waits behind a running run come from its card's ETA", () => {
  it('adds the waits up from the running run’s own time left, not the estimate', () => {
    const est = new DurationEstimates();
    const [a] = runs(['for-await'], est, 10_000).map((s) => running(s, 1000));
    const [b] = runs(['rxjs-from'], est, 5000);
    // The estimate says 9 s are left; the run's own pace says 34.2 s: the wait uses the latter.
    const order = waitingOrder([a], [{ owner: 'x', runIds: [b.id] }], book([a, b]), est, { now: NOW, remainingMs: () => 34_200 });
    expect(etas(order)).toEqual([34_200]);
  });

  it('RunBook.remainingMs is the ETA lib/readouts/progress.ts gives the card, from the same samples', () => {
    const { experiment, states } = newExperiment('streams', ['for-await'], DEFAULT_STREAMS_PARAMS, false, null);
    const rb = new RunBook();
    rb.add(experiment, states);
    const run: RunState = { ...states[0], status: 'running', startedAt: NOW, preparedUnits: 4 * MIB };
    expect(rb.remainingMs(run)).toBeNull();
    const samples = [0, 500, 1000].map((t) => makeSample({ t, bytesProcessed: (t / 1000) * MIB }));
    for (const s of samples) rb.runs.get(run.id)!.series.addSample(s);
    expect(rb.remainingMs(run)).toBe(runProgress(samples, 4 * MIB).etaMs);
    expect(rb.remainingMs(run)).toBeCloseTo(3000);
  });
});
