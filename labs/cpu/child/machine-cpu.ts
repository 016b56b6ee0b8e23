/**
 * How busy the whole machine was while the requests ran, from /proc/stat: the CPU every process
 * used, less the run's own (the server's tree and the load), is what others took from it. Without
 * it a run slowed by a busy neighbour reads as a strategy that does not scale. Linux only.
 */
import { readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ = 100 on Linux

/** The machine's CPU time so far, all cores together (ms): busy, and busy + idle. */
export interface MachineCpu {
  busyMs: number;
  totalMs: number;
}

/** The first line of /proc/stat ("cpu  user nice system idle iowait irq softirq steal …"), or null off Linux. */
export function readMachineCpu(text?: string): MachineCpu | null {
  try {
    const line = (text ?? readFileSync('/proc/stat', 'utf8')).split('\n', 1)[0];
    if (!line.startsWith('cpu ')) return null;
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const busy = user + nice + system + irq + softirq + (steal || 0);
    return { busyMs: busy * TICK_MS, totalMs: (busy + idle + iowait) * TICK_MS };
  } catch {
    return null;
  }
}

/**
 * CPU other processes used between two readings (ms, never negative), given what the run itself
 * used meanwhile; null when either reading is missing. /proc counts in 10 ms ticks per core, so a
 * few ticks of error per process are expected: the verdict asks for half a core or more.
 */
export function otherCpuMs(from: MachineCpu | null, to: MachineCpu | null, ownMs: number): number | null {
  if (!from || !to) return null;
  return Math.max(0, to.busyMs - from.busyMs - ownMs);
}
