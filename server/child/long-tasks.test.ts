import { describe, expect, it } from 'vitest';
import { MAX_LONG_TASKS, TICK_MS, watchLongTasks, type LongTaskClock } from './long-tasks';

/** A clock the test moves: each `fire(lateMs)` is one timer tick that came `lateMs` late. */
function fakeClock() {
  let now = 0;
  let tick = () => {};
  const clock: LongTaskClock = { nowUs: () => now, every: (_ms, t) => ((tick = t), () => (tick = () => {})) };
  return { clock, fire: (lateMs: number) => ((now += (TICK_MS + lateMs) * 1000), tick()) };
}

describe('watchLongTasks', () => {
  it('reports a tick as late as the loop was blocked, above the threshold only', () => {
    const { clock, fire } = fakeClock();
    const w = watchLongTasks(50, clock);
    fire(1);
    fire(49);
    fire(300);
    fire(2);
    expect(w.all()).toEqual([{ endUs: (3 * TICK_MS + 350) * 1000, durationMs: 300 }]);
    expect(w.takeMaxMs()).toBe(300);
    expect(w.takeMaxMs()).toBe(0);
  });

  it('keeps the longest stretches when there are more than it keeps', () => {
    const { clock, fire } = fakeClock();
    const w = watchLongTasks(50, clock);
    for (let i = 0; i < MAX_LONG_TASKS + 20; i++) fire(60 + i);
    const kept = w.all();
    expect(kept).toHaveLength(MAX_LONG_TASKS);
    expect(Math.min(...kept.map((t) => t.durationMs))).toBe(80);
    w.stop();
  });
});
