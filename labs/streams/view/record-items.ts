/** The streams lab's figures on a recorded run's page (beside every lab's memory and event-loop figures). */
import type { StreamsSummary } from '../shared/schema';
import type { RunRecord } from '@/lib/history';
import { measuredRate } from '@/lib/protocol';
import type { Items } from '@/components/lab-view';
import { formatCount, formatMb, formatMs, formatPerSec } from '@/lib/readouts/format';
import { concurrencyText } from '../shared/describe';

/** What the consumer measured, for runs whose summary has it: the http consumer's calls, the postgres consumer's rows. */
function consumerItems(s: StreamsSummary): Items {
  const items: Items = [];
  if (s.apiCalls !== undefined) {
    items.push(['API calls', `${formatCount(s.apiCalls)}, ${formatCount(s.apiErrors ?? 0)} answered with an error`]);
    if (s.apiP50Ms !== undefined && s.apiP99Ms !== undefined) items.push(['API latency p50 / p99', `${formatMs(s.apiP50Ms)} / ${formatMs(s.apiP99Ms)}`]);
    if (s.peakApiQueued !== undefined) items.push(['Pool queue (peak)', formatCount(s.peakApiQueued)]);
  }
  if (s.dbRows !== undefined)
    items.push([
      'Rows checked in the table',
      `${formatCount(s.dbRows)}${typeof s.insertsPerSec === 'number' ? `, ${formatPerSec(s.insertsPerSec)} inserts/s` : ''}`,
    ]);
  if (s.consumerStartMs !== undefined)
    items.push(['Consumer start / end check', `${formatMs(s.consumerStartMs)} / ${formatMs(s.consumerCheckMs ?? 0)}, not in the run's time`]);
  return items;
}

/** What the streams lab measured: how much of the file got through, how fast, how far the reader ran ahead. */
export function recordFigures(s: StreamsSummary | null, o: RunRecord['observed']): Items {
  const mbPerSec = s && measuredRate(s, s.mbPerSec);
  const items: Items = [
    [
      'Processed',
      s ? `${formatMb(s.bytesProcessed)} of ${formatMb(s.fileBytes)}` : o?.readings.bytesProcessed !== undefined ? formatMb(o.readings.bytesProcessed) : '–',
    ],
    // A run that never started has no rate (null; 0 in its older records): a dash, not 0.0.
    ['Throughput', mbPerSec !== null ? `${mbPerSec.toFixed(1)} MB/s` : '–'],
  ];
  // Since the consumers (#30): absent from runs recorded before them.
  if (s?.recordsPerSec !== undefined) {
    const recordsPerSec = measuredRate(s, s.recordsPerSec);
    items.push(['Records', recordsPerSec === null ? '–' : `${formatCount(s.records ?? 0)}, ${formatPerSec(recordsPerSec)}/s`]);
  }
  if (s?.concurrency !== undefined) items.push(['Concurrency', concurrencyText(s.concurrency)]);
  return s ? [...items, ...consumerItems(s)] : items;
}

/** What the streams lab adds to the memory figures: how far the reader ran ahead of its consumer. */
export function recordMemory(s: StreamsSummary | null): Items {
  return [['Reader ahead by', s ? formatMb(s.peakBufferedBytes) : '–']];
}
