/** The cpu lab's table in the bench CLI's output (one row per run). */
import type { CpuSummary } from '../shared/schema';
import type { BenchTable } from '../../types';

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
/** A figure's cell in `digits`, '-' when not measured (null), as the speed-up's. */
const fixed = (v: number | null, digits: number, scale = 1) => (v === null ? '-' : (v / scale).toFixed(digits));

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
    fixed(s.makespanMs, 2, 1000),
    fixed(s.computeMsAlone, 2, 1000),
    s.speedup === null ? '-' : s.speedup.toFixed(2),
    s.cores === null ? '-' : String(s.cores),
    fixed(s.spawnP50Ms, 0),
    `${fixed(s.pingP50Ms, 0)}/${fixed(s.pingMaxMs, 0)}`,
    mb(s.peakTreeRss),
    String(s.peakProcesses),
    String(s.peakThreads),
    String(s.peakMessageListeners),
    s.eventLoopDelayMs.max.toFixed(0),
  ]);
  return { header, rows };
}
