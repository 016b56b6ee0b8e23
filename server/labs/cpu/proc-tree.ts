/**
 * The server's process tree read from /proc: every descendant of a pid (but the subtrees to leave
 * out, e.g. the load), with their RSS, thread count and CPU time. Async, so reading it never blocks
 * the event loop whose delay is being measured. Linux only (elsewhere the tree is just this process).
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

export interface TreeStats {
  processes: number;
  threads: number;
  rssBytes: number;
  /** utime + stime of every process in the tree (and of its reaped children), in ms. */
  cpuMs: number;
}

const PAGE = 4096;
const TICK_MS = 10; // USER_HZ = 100 on Linux

async function stat(pid: number): Promise<{ ppid: number; threads: number; rss: number; cpuMs: number } | null> {
  try {
    const s = await readFile(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    // Fields after the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14) … num_threads(17) … rss(21)
    if (f[0] === 'Z') return null;
    return { ppid: Number(f[1]), threads: Number(f[17]), rss: Number(f[21]) * PAGE, cpuMs: (Number(f[11]) + Number(f[12])) * TICK_MS };
  } catch {
    return null;
  }
}

export async function readTree(root: number, exclude: ReadonlySet<number>): Promise<TreeStats> {
  const entries = (await readdir('/proc').catch(() => [] as string[])).filter((e) => /^\d+$/.test(e)).map(Number);
  const stats = new Map<number, NonNullable<Awaited<ReturnType<typeof stat>>>>();
  await Promise.all(
    entries.map(async (pid) => {
      const s = await stat(pid);
      if (s) stats.set(pid, s);
    }),
  );
  const children = new Map<number, number[]>();
  for (const [pid, s] of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  const total: TreeStats = { processes: 0, threads: 0, rssBytes: 0, cpuMs: 0 };
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    const s = stats.get(pid);
    if (!s || exclude.has(pid)) continue;
    total.processes += 1;
    total.threads += s.threads;
    total.rssBytes += s.rss;
    total.cpuMs += s.cpuMs;
    queue.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** This process's own threads and RSS, read at once (for the first sample, before the load reports). */
export function readSelf(): { threads: number; rssBytes: number } {
  try {
    const s = readFileSync('/proc/self/stat', 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { threads: Number(f[17]), rssBytes: Number(f[21]) * PAGE };
  } catch {
    return { threads: 1, rssBytes: process.memoryUsage().rss };
  }
}

/**
 * Reads the tree every `everyMs` (never two reads at once) and keeps its CPU % between reads,
 * timed from before each read, and the peaks. For the load process, which no computation of the
 * server blocks.
 */
export function watchTree(root: number, exclude: ReadonlySet<number>, everyMs: number, maxPct: number) {
  const state = { now: { processes: 0, threads: 0, rssBytes: 0 }, cpuPct: 0, peaks: { rssBytes: 0, processes: 0, threads: 0 } };
  let last: { at: number; cpuMs: number } | null = null;
  let reading = false;
  const read = async () => {
    if (reading) return;
    reading = true;
    const at = performance.now();
    const t = await readTree(root, exclude);
    reading = false;
    if (t.processes === 0) return; // the server is gone
    // /proc counts CPU in 10 ms ticks per process: over 200 ms and a few processes that is ±15 %,
    // enough to read past the cores; no tree can use more than all of them.
    if (last && at > last.at) state.cpuPct = Math.min(maxPct, Math.max(0, ((t.cpuMs - last.cpuMs) / (at - last.at)) * 100));
    last = { at, cpuMs: t.cpuMs };
    state.now = { processes: t.processes, threads: t.threads, rssBytes: t.rssBytes };
    state.peaks = { rssBytes: Math.max(state.peaks.rssBytes, t.rssBytes), processes: Math.max(state.peaks.processes, t.processes), threads: Math.max(state.peaks.threads, t.threads) };
  };
  const timer = setInterval(() => void read(), everyMs);
  return { state, read, stop: () => clearInterval(timer) };
}
