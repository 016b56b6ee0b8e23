/**
 * Contention in the CPU lab: a run whose threads waited for cores other processes held reads like a
 * strategy that does not scale. Told from the figures: the CPU the run's busiest threads got against
 * the makespan, and the CPU other processes used meanwhile (/proc/stat, labs/cpu/child/machine-cpu.ts). Pure.
 */
import type { CpuSummary } from '../shared/schema';
import { formatDuration } from '../../../lib/readouts/format';

/** Other processes using this many cores' worth while the requests ran: the machine was busy. */
export const BUSY_CORES = 0.5;
/** Threads that got less than this share of the makespan in CPU were waiting for a core. */
export const STARVED_SHARE = 0.75;

/**
 * The CPU the busiest `k` threads of the tree got, on average (ms), k = what could run at once;
 * null when the threads were not read.
 */
function perThreadCpuMs(s: CpuSummary, ceiling: number): number | null {
  const k = Math.max(1, Math.min(ceiling, s.servers || ceiling)); // null or 0 servers: as many as could run
  const busiest = (s.threadCpu ?? []).slice(0, k);
  if (busiest.length < k) return null;
  return busiest.reduce((sum, t) => sum + t.cpuMs, 0) / k;
}

/** Contention, from the figures: other processes took cores while the run's threads waited for them. */
export function contentionOf(s: CpuSummary, ceiling: number): { perThreadMs: number; otherCores: number; makespanMs: number } | null {
  const other = s.otherCpuMs;
  const window = s.cpuWindowMs;
  // No makespan (the requests were not timed): nothing to hold the threads' CPU against.
  if (typeof other !== 'number' || typeof window !== 'number' || window <= 0 || s.makespanMs === null || s.makespanMs <= 0) return null;
  const perThreadMs = perThreadCpuMs(s, ceiling);
  if (perThreadMs === null) return null;
  const otherCores = other / window;
  return otherCores >= BUSY_CORES && perThreadMs < STARVED_SHARE * s.makespanMs ? { perThreadMs, otherCores, makespanMs: s.makespanMs } : null;
}

/** "the machine was busy: each thread got 2.6 s of CPU in a 7.1 s makespan, while other processes used 1.2 of its 2 cores". */
export function busyText(s: CpuSummary, busy: NonNullable<ReturnType<typeof contentionOf>>): string {
  return (
    `the machine was busy: each thread got ${formatDuration(busy.perThreadMs)} of CPU in a ${formatDuration(busy.makespanMs)} makespan, ` +
    `while other processes used ${busy.otherCores.toFixed(1)} of its ${s.cores ?? '–'} cores`
  );
}
