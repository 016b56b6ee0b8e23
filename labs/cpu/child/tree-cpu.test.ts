import { describe, expect, it } from 'vitest';
import { OTHERS_STALE_MS, treeCpuMeter } from './tree-cpu';

/** A meter on a clock and a CPU counter the test moves (ms). */
function meterWith(maxPct = 200) {
  const at = { now: 0, cpuMs: 0 };
  const meter = treeCpuMeter(
    maxPct,
    () => at.cpuMs,
    () => at.now,
  );
  const step = (ms: number, cpuMs: number) => ((at.now += ms), (at.cpuMs += cpuMs));
  return { meter, step };
}

describe('treeCpuMeter', () => {
  it('gives nothing on its first call (no interval yet) nor before the load reported', () => {
    const { meter, step } = meterWith();
    expect(meter({ processes: 1, readAt: 0 }, 0)).toBeUndefined();
    step(50, 50);
    expect(meter(null, 50)).toBeUndefined();
  });

  it("is the primary's own CPU over the interval when the tree is the primary alone, however old the load's report", () => {
    const { meter, step } = meterWith();
    meter({ processes: 1, readAt: 0 }, 0);
    // A loop held 900 ms: the report is from before it, and the primary's CPU over it is its own.
    step(900, 810);
    expect(meter({ processes: 1, readAt: 0 }, 900)).toBe(90);
  });

  it('adds the others while their reading is current, and is unmeasured once it is stale', () => {
    const { meter, step } = meterWith();
    meter({ processes: 3, cpuPct: 150, readAt: 0 }, 0);
    step(50, 5);
    expect(meter({ processes: 3, cpuPct: 150, readAt: 0 }, OTHERS_STALE_MS)).toBe(160);
    step(50, 5);
    expect(meter({ processes: 3, cpuPct: 150, readAt: 0 }, OTHERS_STALE_MS + 1)).toBeUndefined();
    // Others the load has read once only: no rate yet.
    step(50, 5);
    expect(meter({ processes: 3, readAt: OTHERS_STALE_MS }, OTHERS_STALE_MS + 50)).toBeUndefined();
  });

  it('never reads past every core', () => {
    const { meter, step } = meterWith(200);
    meter({ processes: 2, cpuPct: 190, readAt: 0 }, 0);
    step(100, 100);
    expect(meter({ processes: 2, cpuPct: 190, readAt: 0 }, 100)).toBe(200);
  });
});
