/**
 * The CPU of the server's process tree in each sample, % of one core: the primary's own CPU,
 * measured in the primary over the sample's interval, plus the tree's other processes as the load
 * last read them from /proc.
 *
 * Why the primary measures itself: the load reads /proc from its own process, but its reports
 * reach the samples through the primary's event loop. When a computation holds that loop (the
 * single-thread strategy), the reports wait in the IPC pipe, and the sample after the computation
 * is taken (a timer) before they are read (I/O): it carried the report from before the computation,
 * ~900 ms old, and its CPU. process.cpuUsage() covers every thread of the primary and is read as
 * the sample is taken, so the sample after a held loop holds that loop's CPU, like the sampler's
 * own cpuPct over the same interval.
 */

/** What the load last read of the tree's processes other than the primary. */
export interface OthersReading {
  /** Processes in the tree, the primary included. */
  processes: number;
  /** Their CPU (the primary's left out) between the load's last two reads; absent until there were two. */
  cpuPct?: number;
  /** Wall clock (epoch ms) at the end of that window. */
  readAt: number;
}

/**
 * A reading of the others older than this is not theirs now: the primary's loop was held and their
 * later reports still wait. The load reads every 200 ms and reports every 250 ms, so a current one
 * is at most ~500 ms old.
 */
export const OTHERS_STALE_MS = 1000;

/** The primary's CPU so far (user + system, every thread), ms. */
const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * A meter called once per sample: the tree's CPU since its last call, or undefined where some part
 * was not measured (the first call, before the load's report, the others' reading stale).
 * `maxPct`: no tree uses more than every core. Sources injectable for tests.
 */
export function treeCpuMeter(maxPct: number, cpuMs: () => number = ownCpuMs, now: () => number = () => performance.now()) {
  let prev: { at: number; cpuMs: number } | null = null;
  return (others: OthersReading | null, wallNow = Date.now()): number | undefined => {
    const at = now();
    const ms = cpuMs();
    const ownPct = prev && at > prev.at ? (100 * (ms - prev.cpuMs)) / (at - prev.at) : undefined;
    prev = { at, cpuMs: ms };
    if (ownPct === undefined || others === null) return undefined;
    // A tree of the primary alone has no others to wait for: a held loop starts none (a worker
    // thread of the primary could; none of the lab's strategies does).
    const othersPct = others.processes <= 1 ? 0 : wallNow - others.readAt <= OTHERS_STALE_MS ? others.cpuPct : undefined;
    return othersPct === undefined ? undefined : Math.min(maxPct, ownPct + othersPct);
  };
}
