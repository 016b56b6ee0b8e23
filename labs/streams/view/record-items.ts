/** The streams lab's figures on a recorded run's page (beside every lab's memory and event-loop figures). */
import type { StreamsSummary } from '../shared/schema';
import type { RunRecord } from '@/lib/history';
import type { Items } from '@/components/lab-view';
import { formatMb } from '@/lib/readouts/format';

/** What the streams lab measured: how much of the file got through, how fast, how far the reader ran ahead. */
export function recordFigures(s: StreamsSummary | null, o: RunRecord['observed']): Items {
  return [
    [
      'Processed',
      s ? `${formatMb(s.bytesProcessed)} of ${formatMb(s.fileBytes)}` : o?.readings.bytesProcessed !== undefined ? formatMb(o.readings.bytesProcessed) : '–',
    ],
    ['Throughput', s ? `${s.mbPerSec.toFixed(1)} MB/s` : '–'],
  ];
}

/** What the streams lab adds to the memory figures: how far the reader ran ahead of its consumer. */
export function recordMemory(s: StreamsSummary | null): Items {
  return [['Reader ahead by', s ? formatMb(s.peakBufferedBytes) : '–']];
}
