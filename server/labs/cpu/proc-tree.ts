/**
 * The server's process tree read from /proc: every descendant of a pid (but the subtrees to leave
 * out, e.g. the load), with their RSS, thread count and CPU time. Async, so reading it never blocks
 * the event loop whose delay is being measured. Linux only (elsewhere the tree is just this process).
 */
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
