'use client';

/** Figures of finished deadlines runs: each outcome (they sum to sent), latency, timer lateness, recovery and the capacity arithmetic. */
import type { Experiment, LabSummary, RunState, StrategyInfo } from '@/lib/protocol';
import { LATE_TIMER_MS } from './verdict';
import { formatCount } from '@/lib/readouts/format';
import { LabResultsTable, Num, tableMs as ms, type Column } from '@/components/LabResultsTable';
import { LAB_ID } from '../shared/id';

export interface DeadlineResultsTableProps {
  /** Finished deadlines runs (with a summary), in display order. */
  runs: readonly RunState[];
  strategies: readonly StrategyInfo[];
  experiments: readonly Experiment[];
  showExperiment: boolean;
}

const COLUMNS: readonly Column[] = [
  ['Sent', 'requests sent on schedule; the next five columns add up to it'],
  ['On time', 'complete within the deadline, as the load saw it'],
  ['Late', 'complete, after the deadline'],
  ['Timed out', 'the service’s deadline timer answered first'],
  ['Refused', '503 from shed-load'],
  ['Errors', 'failed, or no answer after the schedule'],
  ['Latency p99 (ms)', 'scheduled send to last byte'],
  ['Lateness p99 (ms)', 'timers in the service: actual fire time − due time'],
  ['Lateness max (ms)'],
  ['Recovery (s)', 'after the spike, until timers were on time for good'],
  ['Spike demand', 'spike rate × K × CPU per object, in cores'],
];

function cells(r: LabSummary<typeof LAB_ID>) {
  return (
    <>
      <Num field="sent" value={r.sent} text={formatCount(r.sent)} />
      <Num field="onTime" value={r.onTime} text={formatCount(r.onTime)} />
      <Num field="late" value={r.late} text={formatCount(r.late)} alert={r.late > 0} />
      <Num field="timedOut" value={r.timedOut} text={formatCount(r.timedOut)} />
      <Num field="refused" value={r.refused} text={formatCount(r.refused)} />
      <Num field="errors" value={r.errors} text={formatCount(r.errors)} alert={r.errors > 0} />
      <Num field="latencyP99Ms" value={r.latencyP99Ms} text={ms(r.latencyP99Ms)} />
      <Num field="latenessP99Ms" value={r.latenessP99Ms} text={ms(r.latenessP99Ms)} alert={r.latenessP99Ms > LATE_TIMER_MS} />
      <Num field="latenessMaxMs" value={r.latenessMaxMs} text={ms(r.latenessMaxMs)} />
      <Num field="recoveryMs" value={r.recoveryMs} text={r.recoveryMs < 0 ? 'not by the end' : (r.recoveryMs / 1000).toFixed(1)} alert={r.recoveryMs < 0} />
      <Num
        field="spikeDemandCores"
        value={r.spikeDemandCores}
        text={r.spikeDemandCores === null ? '–' : `${r.spikeDemandCores.toFixed(1)} of ${r.cores} cores`}
      />
    </>
  );
}

/** Table of ended deadlines runs, one row each, in the order given; a data-lost row's reason shows under its outcome. */
export function DeadlineResultsTable(props: DeadlineResultsTableProps) {
  return (
    <LabResultsTable
      lab={LAB_ID}
      name="Deadlines"
      caption="Results of finished deadlines runs; times in ms unless said"
      columns={COLUMNS}
      cells={cells}
      {...props}
    />
  );
}
