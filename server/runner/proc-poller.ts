/**
 * Reads a run's process without its main thread: RSS and CPU time through /proc every interval
 * until the process has gone or the poller is stopped, and the heap its watcher thread reads while
 * that main thread is blocked (server/child/block-heap.ts). Each reading is handed on with the CPU
 * share over the last few readings.
 */
import type { ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type { Readable } from 'node:stream';
import { HEAP_FD } from '../child/block-heap';
import { readProcCpuMs, readProcRss } from './proc-status';

export interface ProcReading {
  at: number;
  rss: number;
  /** % of one core over the last CPU_WINDOW_MS or so (absent until MIN_CPU_WINDOW_MS of readings). */
  cpuPct?: number;
  /** V8's heap, read by the child's watcher thread since the previous reading (only while its loop is blocked). */
  heap?: { heapUsed: number; heapTotal: number };
}

/** A heap line is ~60 bytes: anything longer is not one (a strategy writing to the fd), and is dropped. */
const MAX_HEAP_LINE = 200;

/** Parses one line from the watcher thread; null for anything that is not a heap reading. */
export function parseHeapLine(line: string): { heapUsed: number; heapTotal: number } | null {
  if (line.length > MAX_HEAP_LINE) return null;
  try {
    const v = JSON.parse(line) as { heapUsed?: unknown; heapTotal?: unknown };
    const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
    return ok(v.heapUsed) && ok(v.heapTotal) ? { heapUsed: v.heapUsed, heapTotal: v.heapTotal } : null;
  } catch {
    return null;
  }
}

/** Keeps the latest heap reading from the child's pipe; `take()` hands it over once. */
function heapLines(pipe: Readable | null | undefined): { take(): ProcReading['heap']; stop(): void } {
  let latest: ProcReading['heap'];
  let partial = '';
  const onData = (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    // The unfinished tail waits for its end, bounded: a line that never ends is not a reading.
    partial = lines.pop()!.slice(-MAX_HEAP_LINE - 1);
    for (const line of lines) latest = parseHeapLine(line) ?? latest;
  };
  pipe?.on('data', onData);
  // A read error (the child gone) ends the readings, never the server.
  pipe?.on('error', () => {});
  return {
    take: () => {
      const h = latest;
      latest = undefined;
      return h;
    },
    stop: () => {
      pipe?.off('data', onData);
      // Still drained, so a late writer never fills the pipe and blocks on it.
      pipe?.resume();
    },
  };
}

/**
 * /proc counts CPU in 10 ms ticks: over one 50 ms interval a tick more or less is ±20 % (a single
 * thread read 78–118 %, and a peak of 313.7 % on 2 cores), so the share is taken over a longer window.
 */
export const CPU_WINDOW_MS = 250;
const MIN_CPU_WINDOW_MS = 100;

/** CPU % of one core between the oldest usable reading and the latest, bounded by the machine's cores. */
export function windowedCpuPct(readings: ReadonlyArray<{ at: number; ms: number }>, cores = availableParallelism()): number | undefined {
  const latest = readings.at(-1);
  if (!latest) return undefined;
  // The newest reading at least a window old; before there is one, the oldest, if it is old enough.
  let from: { at: number; ms: number } | undefined;
  for (const r of readings) if (latest.at - r.at >= CPU_WINDOW_MS) from = r;
  from ??= readings[0];
  if (latest.at - from.at < MIN_CPU_WINDOW_MS) return undefined;
  // A tick's rounding can still overshoot: no process uses more cores than the machine has.
  const pct = Math.min((100 * (latest.ms - from.ms)) / (latest.at - from.at), cores * 100);
  return Math.round(pct * 10) / 10;
}

/**
 * Starts polling; returns the function that stops it (no reading is handed on after that). `pid`:
 * the process to read when it is not `proc` itself (a fenced run's Node under its namespaces' wrapper).
 */
export function pollProc(proc: ChildProcess, intervalMs: number, onReading: (r: ProcReading) => void, pid: number = proc.pid!): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let cpuReadings: Array<{ at: number; ms: number }> = [];
  const heap = heapLines(proc.stdio[HEAP_FD] as Readable | null | undefined);
  const gone = () => stopped || proc.exitCode !== null || proc.signalCode !== null;
  const poll = async () => {
    if (gone()) return;
    const [rss, cpuMs] = await Promise.all([readProcRss(pid), readProcCpuMs(pid)]);
    if (rss !== null && !stopped) {
      const at = Date.now();
      if (cpuMs !== null) cpuReadings = [...cpuReadings.filter((c) => at - c.at <= 2 * CPU_WINDOW_MS), { at, ms: cpuMs }];
      const cpuPct = cpuMs === null ? undefined : windowedCpuPct(cpuReadings);
      const h = heap.take();
      onReading({ at, rss, ...(cpuPct !== undefined && { cpuPct }), ...(h && { heap: h }) });
    }
    if (!stopped) timer = setTimeout(poll, intervalMs);
  };
  void poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
    heap.stop();
  };
}
