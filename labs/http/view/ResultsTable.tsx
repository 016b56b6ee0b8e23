'use client';

/** Figures of finished HTTP runs: the server's memory and socket buffers, and what the load measured. */
import type { Experiment, Measured, RunState, StrategyInfo } from '@/lib/protocol';
import type { HttpSummary } from '../shared/schema';
import { formatCount, formatMbNumber } from '@/lib/readouts/format';
import { LabResultsTable, Num, tableMs as ms, type Column } from '@/components/LabResultsTable';
import { LAB_ID } from '../shared/id';
import { peakRssOf } from '@/lib/readouts/outcome-text';

export interface HttpResultsTableProps {
  /** Finished HTTP runs (with a summary), in display order. */
  runs: readonly RunState[];
  strategies: readonly StrategyInfo[];
  experiments: readonly Experiment[];
  showExperiment: boolean;
}

const COLUMNS: readonly Column[] = [
  ['Peak heapUsed', 'MB'],
  ['Peak RSS', 'MB'],
  ['Socket buffers', 'MB, peak of the sum of writableLength over open responses'],
  ['Responses/s'],
  ['p50 (ms)', 'latency at the load generator'],
  ['p99 (ms)'],
  ['TTFB p50 (ms)', 'time to first byte: the server building its answer'],
  ['Transfer p50 (ms)', 'first byte to last'],
  ['Received', 'MB of response bodies'],
  ['OK', 'responses complete, with the right rows'],
  ['Bad'],
  ['EL max (ms)', 'largest event-loop delay of the server'],
];

function cells(s: Measured<HttpSummary>) {
  return (
    <>
      <Num field="heapUsed" value={s.peak.heapUsed} text={formatMbNumber(s.peak.heapUsed)} />
      <Num field="rss" value={peakRssOf(s)} text={formatMbNumber(peakRssOf(s))} />
      <Num field="writableBytes" value={s.peakWritableBytes} text={formatMbNumber(s.peakWritableBytes)} />
      <Num field="reqPerSec" value={s.reqPerSec} text={s.reqPerSec?.toFixed(1) ?? '–'} />
      <Num field="latencyP50Ms" value={s.latencyP50Ms} text={ms(s.latencyP50Ms)} />
      <Num field="latencyP99Ms" value={s.latencyP99Ms} text={ms(s.latencyP99Ms)} />
      <Num field="ttfbP50Ms" value={s.ttfbP50Ms} text={ms(s.ttfbP50Ms)} />
      <Num field="transferP50Ms" value={s.transferP50Ms} text={ms(s.transferP50Ms)} />
      <Num field="bytesReceived" value={s.bytesReceived} text={formatMbNumber(s.bytesReceived)} />
      <Num field="responsesOk" value={s.responsesOk} text={`${formatCount(s.responsesOk)} / ${formatCount(s.requestsPlanned)}`} />
      <Num field="badResponses" value={s.badResponses} text={formatCount(s.badResponses)} />
      <Num field="elMaxMs" value={s.eventLoopDelayMs.max} text={ms(s.eventLoopDelayMs.max)} />
    </>
  );
}

/** Table of ended HTTP runs, one row each, in the order given. */
export function HttpResultsTable(props: HttpResultsTableProps) {
  return (
    <LabResultsTable
      lab={LAB_ID}
      name="HTTP"
      caption="Results of finished HTTP runs; memory in MB (MiB), times in ms"
      columns={COLUMNS}
      cells={cells}
      {...props}
    />
  );
}
