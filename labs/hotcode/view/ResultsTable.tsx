'use client';

/** Figures of finished hot-code runs: each report's synchronous time, what /health waited meanwhile, a sweep's exponent. */
import type { Experiment, LabSummary, RunState, StrategyInfo } from '@/lib/protocol';
import { formatCount } from '@/lib/readouts/format';
import { LabResultsTable, Num, tableMs as ms, type Column } from '@/components/LabResultsTable';
import { LAB_ID } from '../shared/id';

export interface HotcodeResultsTableProps {
  /** Finished hot-code runs (with a summary), in display order. */
  runs: readonly RunState[];
  strategies: readonly StrategyInfo[];
  experiments: readonly Experiment[];
  showExperiment: boolean;
}

const COLUMNS: readonly Column[] = [
  ['Rows', 'per report; a sweep’s largest step'],
  ['Report min (ms)', 'the strategy’s synchronous time in the handler, fastest report'],
  ['Report max (ms)'],
  ['/health p50 (ms)', 'GET /health round trip while the reports ran'],
  ['/health max (ms)', 'the longest wait: a report blocking the event loop'],
  ['Exponent', 'k of CPU time ∝ rows^k over a sweep’s steps'],
  ['OK', 'reports (or sweep steps) that counted every row'],
];

function cells(r: LabSummary<typeof LAB_ID>) {
  const swept = r.params.sweep && r.sweep.length > 1;
  return (
    <>
      <Num field="rows" value={r.params.rows} text={formatCount(r.params.rows)} />
      <Num field="reportMsMin" value={r.reportMsMin} text={ms(r.reportMsMin)} />
      <Num field="reportMsMax" value={r.reportMsMax} text={ms(r.reportMsMax)} />
      <Num field="probeP50Ms" value={r.probeP50Ms} text={r.params.probeMs > 0 ? ms(r.probeP50Ms) : '–'} />
      <Num field="probeMaxMs" value={r.probeMaxMs} text={r.params.probeMs > 0 ? ms(r.probeMaxMs) : '–'} alert={r.probeMaxMs > 1000} />
      <Num field="sweepExponent" value={swept ? r.sweepExponent : 0} text={swept ? r.sweepExponent.toFixed(2) : '–'} />
      <Num field="reportsOk" value={r.reportsOk} text={`${formatCount(r.reportsOk)} / ${formatCount(r.reportsPlanned)}`} />
    </>
  );
}

/** Table of ended hot-code runs, one row each, in the order given; a data-lost row's reason shows under its outcome. */
export function HotcodeResultsTable(props: HotcodeResultsTableProps) {
  return <LabResultsTable lab={LAB_ID} name="hot-code" caption="Results of finished hot-code runs; times in ms" columns={COLUMNS} cells={cells} {...props} />;
}
