/** The cpu lab's figures on a recorded run's page (beside every lab's memory and event-loop figures). */
import type { CpuSummary } from '../shared/schema';
import type { RunRecord } from '@/lib/history';
import { measuredRate } from '@/lib/protocol';
import type { Items } from '@/components/lab-view';
import { formatCount, formatMb, formatMs, formatDuration } from '@/lib/readouts/format';
import { speedupFigureText } from './verdict';

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
    ['Latency p50 / max', s ? `${formatMs(s.latencyP50Ms)} / ${formatMs(s.latencyMaxMs)}` : '–'],
    ['fib(n) alone', s ? formatMs(s.computeMsAlone) : '–'],
    ['Worker start p50', s ? formatMs(s.spawnP50Ms) : '–'],
    ['/ping p50 / max', s ? `${formatMs(s.pingP50Ms)} / ${formatMs(s.pingMaxMs)}` : '–'],
    ['Process tree RSS peak', s ? formatMb(s.peakTreeRss) : '–'],
    ['Processes / threads peak', s ? `${s.peakProcesses} / ${s.peakThreads}` : '–'],
    ["'message' listeners peak", s ? formatCount(s.peakMessageListeners) : '–'],
  ];
}
