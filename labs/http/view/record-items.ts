/** The http lab's figures on a recorded run's page (beside every lab's memory and event-loop figures). */
import type { HttpSummary } from '../shared/schema';
import type { RunRecord } from '@/lib/history';
import { measuredRate } from '@/lib/protocol';
import type { Items } from '@/components/lab-view';
import { formatCount, formatMb, formatMs, formatSeconds } from '@/lib/readouts/format';

/** What the HTTP lab measured at the load: responses, their pace and latencies. */
export function recordFigures(s: HttpSummary | null, o: RunRecord['observed']): Items {
  const ok = o?.readings.responsesOk;
  const reqPerSec = s && measuredRate(s, s.reqPerSec);
  return [
    [
      'Responses',
      s
        ? `${formatCount(s.responsesOk)} of ${formatCount(s.requestsPlanned)} right, ${formatCount(s.badResponses)} wrong`
        : ok !== undefined
          ? `${formatCount(ok)} right (until interrupted)`
          : '–',
    ],
    // A run the load never reported on has no rate (null; 0 in older records of a run that never started).
    ['Throughput', reqPerSec !== null ? `${reqPerSec.toFixed(1)} responses/s` : '–'],
    // Not measured (null: no response timed): a dash, not "0.0 ms".
    ['Latency p50 / p99', s?.latencyP50Ms != null ? `${formatMs(s.latencyP50Ms)} / ${formatMs(s.latencyP99Ms)}` : '–'],
    ['First byte p50', formatMs(s?.ttfbP50Ms ?? null)],
    ['Transfer p50', formatMs(s?.transferP50Ms ?? null)],
    ['Bytes received', s ? formatMb(s.bytesReceived) : '–'],
    ...(s && s.params.slowClients > 0 ? ([['Slow client p50', formatMs(s.slowP50Ms)]] as Items) : []),
  ];
}

/** What the HTTP lab adds to the memory figures: the server's socket buffers and open responses, and the load's CPU. */
export function recordMemory(s: HttpSummary | null): Items {
  return [
    ['Socket buffers peak', s ? formatMb(s.peakWritableBytes) : '–'],
    ['Open responses peak', s ? String(s.peakOpenResponses) : '–'],
    ['Load generator CPU', s?.loadCpuMs != null ? formatSeconds(s.loadCpuMs) : '–'],
  ];
}
