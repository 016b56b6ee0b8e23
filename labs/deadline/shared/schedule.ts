/**
 * The deadline lab's plain numbers and its load schedule, without zod: the child (load, lateness,
 * recovery) imports these, and the child bundle must not pull zod (~110 ms and 14 MB a child).
 * params.ts and schema.ts re-export them for everyone else.
 */

/** Timers this late or less always count as on time when judging recovery (ms). */
export const RECOVERED_MS = 100;
/** The most lateness points a summary keeps. */
export const LATENESS_POINTS_MAX = 3000;

/** Arrival times (ms from the load's start) of the schedule: evenly spaced within each phase at its rate. */
export function arrivalTimesMs(p: { baselineRps: number; spikeRps: number; spikeStartS: number; spikeS: number; durationS: number }): number[] {
  const phases: Array<[fromMs: number, toMs: number, rps: number]> = [
    [0, p.spikeStartS * 1000, p.baselineRps],
    [p.spikeStartS * 1000, (p.spikeStartS + p.spikeS) * 1000, p.spikeRps],
    [(p.spikeStartS + p.spikeS) * 1000, p.durationS * 1000, p.baselineRps],
  ];
  const out: number[] = [];
  // k × interval, not a running sum: 6 per second must be 6, not a seventh at 999.99… ms.
  for (const [from, to, rps] of phases) for (let k = 0; from + (k * 1000) / rps < to - 1e-6; k++) out.push(from + (k * 1000) / rps);
  return out;
}
