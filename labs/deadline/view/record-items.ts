/** The deadline lab's figures on a recorded run's page (beside every lab's memory and event-loop figures). */
import type { DeadlineSummary } from '../shared/schema';
import type { RunRecord } from '@/lib/history';
import { measuredRate } from '@/lib/protocol';
import type { Items } from '@/components/lab-view';
import { formatCount, formatMs } from '@/lib/readouts/format';
import { coresText, outcomesText, recoveryText } from './verdict';

/** What the deadlines lab measured: the answers by outcome, latency at the load, the service's timer lateness, recovery and the capacity arithmetic. */
export function recordFigures(s: DeadlineSummary | null, o: RunRecord['observed']): Items {
  const sent = o?.readings.sent;
  const spike = s && measuredRate(s, s.spikeDemandCores);
  return [
    ['Answers', s ? outcomesText(s) : sent !== undefined ? `${formatCount(sent)} sent (until interrupted)` : '–'],
    ['Latency p50 / p99 / max', s ? `${formatMs(s.latencyP50Ms)} / ${formatMs(s.latencyP99Ms)} / ${formatMs(s.latencyMaxMs)}` : '–'],
    ['Timer lateness p50 / p99 / max', s ? `${formatMs(s.latenessP50Ms)} / ${formatMs(s.latenessP99Ms)} / ${formatMs(s.latenessMaxMs)}` : '–'],
    ['Timer lateness in the spike p99', s ? formatMs(s.spikeLatenessP99Ms) : '–'],
    [
      'Deadline timers fired',
      s ? `${formatCount(s.deadlineTimersFired)}${s.deadlineTimersFired > 0 ? `, the latest ${formatMs(s.deadlineLatenessMaxMs)} late` : ''}` : '–',
    ],
    ['After the spike', s ? recoveryText(s) : '–'],
    ['Work per object', s ? formatMs(s.workMsPerObject) : '–'],
    // Older records of a run that never started hold 0 cores for it: not measured, a dash.
    [
      'Work asked: baseline / spike',
      s && spike !== null ? `${coresText(measuredRate(s, s.baselineDemandCores))} / ${coresText(spike)} (${s.cores} cores)` : '–',
    ],
    ['In flight peak', s ? formatCount(s.peakInFlight) : '–'],
  ];
}
