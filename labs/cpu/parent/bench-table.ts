/** The cpu lab's table in the bench CLI's output (one row per run). */
import type { CpuSummary } from '../shared/schema';
import type { BenchTable } from '../../types';

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** The CPU lab's table: when each request ended, the speed-up against the cores, what the extra processes/threads cost. */
export function benchTable(summaries: readonly CpuSummary[]): BenchTable {
  const header = [
    'strategy',
    'outcome',
    'request ends s',
    'makespan s',
    'alone s',
    'speed-up',
    'cores',
    'spawn ms',
    'ping p50/max ms',
    'tree RSS',
    'procs',
    'threads',
    'listeners',
    'el max ms',
  ];
  const rows = summaries.map((s) => [
    s.strategy,
    s.outcome,
    s.timeline.map((b) => (b.endMs / 1000).toFixed(2)).join(' '),
    (s.makespanMs / 1000).toFixed(2),
    (s.computeMsAlone / 1000).toFixed(2),
    s.speedup === null ? '-' : s.speedup.toFixed(2),
    String(s.cores),
    s.spawnP50Ms.toFixed(0),
    `${s.pingP50Ms.toFixed(0)}/${s.pingMaxMs.toFixed(0)}`,
    mb(s.peakTreeRss),
    String(s.peakProcesses),
    String(s.peakThreads),
    String(s.peakMessageListeners),
    s.eventLoopDelayMs.max.toFixed(0),
  ]);
  return { header, rows };
}
