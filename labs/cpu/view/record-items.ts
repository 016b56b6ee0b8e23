/** The cpu lab's figures on a recorded run's page (beside every lab's memory and event-loop figures). */
import type { CpuSummary } from '../shared/schema';
import type { RunRecord } from '@/lib/history';
import { measuredRate } from '@/lib/protocol';
import type { Items } from '@/components/lab-view';
import { formatCount, formatMb, formatMs, formatDuration } from '@/lib/readouts/format';
import { speedupFigureText } from './verdict';

/** "12.3 ms / 40.1 ms", or one dash when neither was measured. */
function pair(a: number | null | undefined, b: number | null | undefined): string {
  return (a ?? null) === null && (b ?? null) === null ? '–' : `${formatMs(a ?? null)} / ${formatMs(b ?? null)}`;
}

/** What the CPU lab measured: requests, makespan against the cores, worker start, ping, and the process tree. */
export function recordFigures(s: CpuSummary | null, o: RunRecord['observed'], role: string | null = null): Items {
  const ok = o?.readings.requestsOk;
  return [
    [
      'Requests',
      s
        ? `${formatCount(s.requestsOk)} of ${formatCount(s.requestsPlanned)} right, ${formatCount(s.badRequests)} wrong`
        : ok !== undefined
          ? `${formatCount(ok)} right (until interrupted)`
          : '–',
    ],
    ['Makespan', s ? formatDuration(s.makespanMs) : '–'],
    // Older records of a run that never started hold 0 for it: not measured, a dash.
    ['Speed-up', s ? speedupFigureText({ ...s, speedup: measuredRate(s, s.speedup) }, role) : '–'],
    // Not measured (null: no request timed, no worker start timed, no /ping answered): a dash, not "0.0 ms".
    ['Latency p50 / max', pair(s?.latencyP50Ms, s?.latencyMaxMs)],
    ['fib(n) alone', formatMs(s?.computeMsAlone ?? null)],
    ['Worker start p50', formatMs(s?.spawnP50Ms ?? null)],
    ['/ping p50 / max', pair(s?.pingP50Ms, s?.pingMaxMs)],
    ['Process tree RSS peak', s ? formatMb(s.peakTreeRss) : '–'],
    ['Processes / threads peak', s ? `${s.peakProcesses} / ${s.peakThreads}` : '–'],
    ["'message' listeners peak", s ? formatCount(s.peakMessageListeners) : '–'],
  ];
}
