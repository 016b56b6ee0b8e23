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
  /** utime + stime of every process in the tree, in ms. */
  cpuMs: number;
  /** utime + stime of the root alone, in ms (the rest of the tree is `cpuMs - rootCpuMs`). */
  rootCpuMs: number;
  /** cutime + cstime of the root: the CPU of its children that ended and were reaped (per-request forks), ms. */
  reapedCpuMs: number;
  /** Every thread of every process in the tree, with its own CPU time (ms). */
  tasks: TaskCpu[];
}

/** One thread's CPU time so far; `tid === pid` is the process's main thread. */
export interface TaskCpu {
  pid: number;
  tid: number;
  cpuMs: number;
}

/** One thread's CPU between two reads (% of one core), and its total so far. */
export interface ThreadCpu extends TaskCpu {
  cpuPct: number;
}

const PAGE = 4096;
const TICK_MS = 10; // USER_HZ = 100 on Linux

/** The fields after the command name of a /proc stat line (the name may hold spaces and parentheses). */
const fieldsOf = (line: string) => line.slice(line.lastIndexOf(')') + 2).split(' ');

async function stat(pid: number): Promise<{ ppid: number; threads: number; rss: number; cpuMs: number; reapedCpuMs: number } | null> {
  try {
    const f = fieldsOf(await readFile(`/proc/${pid}/stat`, 'utf8'));
    // Fields after the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14) … num_threads(17) … rss(21)
    if (f[0] === 'Z') return null;
    return {
      ppid: Number(f[1]),
      threads: Number(f[17]),
      rss: Number(f[21]) * PAGE,
      cpuMs: (Number(f[11]) + Number(f[12])) * TICK_MS,
      reapedCpuMs: (Number(f[13]) + Number(f[14])) * TICK_MS,
    };
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
  const rootStats = stats.get(root);
  const total: TreeStats = {
    processes: 0,
    threads: 0,
    rssBytes: 0,
    cpuMs: 0,
    rootCpuMs: rootStats?.cpuMs ?? 0,
    reapedCpuMs: rootStats?.reapedCpuMs ?? 0,
    tasks: [],
  };
  const inTree: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    const s = stats.get(pid);
    if (!s || exclude.has(pid)) continue;
    inTree.push(pid);
    total.processes += 1;
    total.threads += s.threads;
    total.rssBytes += s.rss;
    total.cpuMs += s.cpuMs;
    queue.push(...(children.get(pid) ?? []));
  }
  total.tasks = (await Promise.all(inTree.map(tasksOf))).flat();
  return total;
}

/** The CPU time of each thread of one process (/proc/<pid>/task/<tid>/stat); none if it is gone. */
async function tasksOf(pid: number): Promise<TaskCpu[]> {
  const tids = (await readdir(`/proc/${pid}/task`).catch(() => [] as string[])).filter((e) => /^\d+$/.test(e)).map(Number);
  const read = await Promise.all(
    tids.map(async (tid) => {
      try {
        const f = fieldsOf(await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
        return { pid, tid, cpuMs: (Number(f[11]) + Number(f[12])) * TICK_MS };
      } catch {
        return null; // the thread ended between the two reads
      }
    }),
  );
  return read.filter((t): t is TaskCpu => t !== null);
}

/** This process's own threads and RSS, read at once (for the first sample, before the load reports). */
export function readSelf(): { threads: number; rssBytes: number } {
  try {
    const f = fieldsOf(readFileSync('/proc/self/stat', 'utf8'));
    return { threads: Number(f[17]), rssBytes: Number(f[21]) * PAGE };
  } catch {
    return { threads: 1, rssBytes: process.memoryUsage().rss };
  }
}

/** Busy threads shown live (the rest idle: V8's and libuv's helpers). */
const LIVE_THREADS = 16;
/** Threads remembered for the run's totals: a worker-per-request run starts one per request. */
const KEPT_THREADS = 512;
/** Below this a thread did nothing worth a row (one /proc tick is 10 ms). */
const MIN_TOTAL_MS = 10;

/**
 * Reads the tree every `everyMs` (never two reads at once) and keeps the CPU % of its processes
 * but the root between reads, timed from before each read, and the peaks; the same per thread (the
 * busiest, live) and each thread's CPU time over the run (`totals`, which outlives threads that
 * ended). For the load process, which no computation of the server blocks. The root's own CPU is
 * not kept as a %: the root measures it itself (tree-cpu.ts).
 */
export function watchTree(root: number, exclude: ReadonlySet<number>, everyMs: number, maxPct: number) {
  const state = {
    now: { processes: 0, threads: 0, rssBytes: 0 },
    /** Every process of the tree but the root, % of one core between the last two reads; null until there were two. */
    othersCpuPct: null as number | null,
    /** Wall clock (epoch ms) the last read began: the end of the window `othersCpuPct` covers. */
    readAt: 0,
    /** The tree's CPU so far, its reaped children's included (ms): what the run itself used of the machine. */
    cpuMs: 0,
    peaks: { rssBytes: 0, processes: 0, threads: 0 },
    busiest: [] as ThreadCpu[],
  };
  const seen = new Map<string, TaskCpu>();
  let last: { at: number; othersCpuMs: number } | null = null;
  let reading = false;
  const read = async () => {
    if (reading) return;
    reading = true;
    const at = performance.now();
    const wallAt = Date.now();
    const t = await readTree(root, exclude);
    reading = false;
    if (t.processes === 0) return; // the server is gone
    // /proc counts CPU in 10 ms ticks per process: over 200 ms and a few processes that is ±15 %,
    // enough to read past the cores; no tree can use more than all of them.
    const pct = (ms: number) => (last && at > last.at ? Math.min(maxPct, Math.max(0, (ms / (at - last.at)) * 100)) : 0);
    const othersCpuMs = t.cpuMs - t.rootCpuMs;
    if (last) state.othersCpuPct = pct(othersCpuMs - last.othersCpuMs);
    state.busiest = t.tasks
      .map((task) => ({ ...task, cpuPct: Math.min(100, pct(task.cpuMs - (seen.get(`${task.pid}/${task.tid}`)?.cpuMs ?? task.cpuMs))) }))
      .filter((task) => task.cpuPct > 0)
      .sort((a, b) => b.cpuPct - a.cpuPct)
      .slice(0, LIVE_THREADS);
    for (const task of t.tasks) seen.set(`${task.pid}/${task.tid}`, task);
    if (seen.size > KEPT_THREADS) {
      const idlest = [...seen].sort((a, b) => a[1].cpuMs - b[1].cpuMs).slice(0, seen.size - KEPT_THREADS);
      for (const [key] of idlest) seen.delete(key);
    }
    last = { at, othersCpuMs };
    state.readAt = wallAt;
    state.cpuMs = t.cpuMs + t.reapedCpuMs;
    state.now = { processes: t.processes, threads: t.threads, rssBytes: t.rssBytes };
    state.peaks = {
      rssBytes: Math.max(state.peaks.rssBytes, t.rssBytes),
      processes: Math.max(state.peaks.processes, t.processes),
      threads: Math.max(state.peaks.threads, t.threads),
    };
  };
  /** Every thread that used CPU during the run, busiest first (its last reading before it ended). */
  const totals = (limit: number): TaskCpu[] =>
    [...seen.values()]
      .filter((task) => task.cpuMs >= MIN_TOTAL_MS)
      .sort((a, b) => b.cpuMs - a.cpuMs)
      .slice(0, limit);
  const timer = setInterval(() => void read(), everyMs);
  return { state, read, totals, stop: () => clearInterval(timer) };
}
