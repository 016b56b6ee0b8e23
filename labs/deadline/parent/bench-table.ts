/** The deadline lab's table in the bench CLI's output (one row per run). */
import type { DeadlineSummary } from '../shared/schema';
import type { BenchTable } from '../../types';

/** The deadlines lab's table: the outcomes (they sum to sent), latency, timer lateness, recovery and the capacity arithmetic. */
export function benchTable(summaries: readonly DeadlineSummary[]): BenchTable {
  const header = [
    'strategy',
    'outcome',
    'sent',
    'on time',
    'late',
    'timed out',
    'refused',
    'errors',
    'latency p99/max ms',
    'lateness p99/max ms',
    'spike p99 ms',
    'recovery s',
    'work/obj ms',
    'spike cores',
    'el max ms',
  ];
  const rows = summaries.map((s) => [
    s.strategy,
    s.outcome,
    String(s.sent),
    String(s.onTime),
    String(s.late),
    String(s.timedOut),
    String(s.refused),
    String(s.errors),
    `${s.latencyP99Ms.toFixed(0)}/${s.latencyMaxMs.toFixed(0)}`,
    `${s.latenessP99Ms.toFixed(0)}/${s.latenessMaxMs.toFixed(0)}`,
    s.spikeLatenessP99Ms.toFixed(0),
    s.recoveryMs < 0 ? 'no' : (s.recoveryMs / 1000).toFixed(1),
    s.workMsPerObject.toFixed(2),
    s.spikeDemandCores === null ? '-' : s.spikeDemandCores.toFixed(1),
    s.eventLoopDelayMs.max.toFixed(0),
  ]);
  return { header, rows };
}
