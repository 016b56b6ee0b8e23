/**
 * Reads a run's process from outside, through /proc: RSS and CPU time every interval until the
 * process has gone or the poller is stopped. Each reading is handed on with the CPU share since the
 * previous one.
 */
import type { ChildProcess } from 'node:child_process';
import { readProcCpuMs, readProcRss } from './proc-status';

export interface ProcReading {
  at: number;
  rss: number;
  /** % of one core since the previous reading (/proc counts in 10 ms ticks: coarse, but from outside). */
  cpuPct?: number;
}

/**
 * Starts polling; returns the function that stops it (no reading is handed on after that). `pid`:
 * the process to read when it is not `proc` itself (a fenced run's Node under its namespaces' wrapper).
 */
export function pollProc(proc: ChildProcess, intervalMs: number, onReading: (r: ProcReading) => void, pid: number = proc.pid!): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastCpu: { at: number; ms: number } | null = null;
  const gone = () => stopped || proc.exitCode !== null || proc.signalCode !== null;
  const poll = async () => {
    if (gone()) return;
    const [rss, cpuMs] = await Promise.all([readProcRss(pid), readProcCpuMs(pid)]);
    if (rss !== null && !stopped) {
      const at = Date.now();
      const cpuPct = cpuMs !== null && lastCpu && at > lastCpu.at ? Math.round((1000 * (cpuMs - lastCpu.ms)) / (at - lastCpu.at)) / 10 : undefined;
      if (cpuMs !== null) lastCpu = { at, ms: cpuMs };
      onReading({ at, rss, ...(cpuPct !== undefined && { cpuPct }) });
    }
    if (!stopped) timer = setTimeout(poll, intervalMs);
  };
  void poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
