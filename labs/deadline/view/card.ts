/**
 * The deadlines lab's part of a run card: requests sent of those the schedule plans (and how many
 * wait), then the outcomes (they sum to sent), how late the service's timers fired, whether it
 * recovered after the spike, and the capacity arithmetic; live, the latest second's readings.
 */
import { paramsOfLab, progressReadingOf } from '@/lib/labs';
import { coresText, LATE_TIMER_MS, outcomesText, recoveryText } from './verdict';
import { runProgress } from '@/lib/readouts/progress';
import { formatCount, formatMs, formatPercent } from '@/lib/readouts/format';
import { cpuFigures, eventLoopFigure, paceText, type CardLab, type Figure } from '../../../components/run-card/figures';
import { LAB_ID } from '../shared/id';

/** The reading that counts requests sent, as the lab's schema names it. */
const DONE = progressReadingOf(LAB_ID);

export const deadlineCard: CardLab = {
  preparing: () => 'Preparing: starting the object store, the service and the load generator',

  progress(run, samples, active) {
    const s = run.summary?.lab === LAB_ID ? run.summary : null;
    const p = paramsOfLab(run, LAB_ID);
    const planned = s?.requestsPlanned ?? run.preparedUnits ?? 0;
    const live = runProgress(samples, planned, DONE);
    const done = s?.sent ?? live.done;
    const fraction = planned > 0 ? Math.min(1, done / planned) : 0;
    const inFlight = samples.at(-1)?.inFlight;
    const waiting = active && inFlight ? ` · ${formatCount(inFlight)} in flight` : '';
    const rate = live.perSec === null ? null : `${live.perSec.toFixed(1)} requests/s`;
    const of = planned > 0 ? ` of ${formatCount(planned)}` : p ? ` over ${p.durationS} s` : '';
    return {
      fraction,
      text: `${formatCount(done)}${of} requests sent (${formatPercent(fraction)})${waiting}${paceText(rate, live.etaMs, fraction, active)}`,
      label: 'share of the schedule sent',
    };
  },

  figures(summary, last, lastProc) {
    const s = summary?.lab === LAB_ID ? summary : null;
    if (summary && s) {
      return [
        { id: 'outcomes', term: 'Answers', value: s.sent, text: outcomesText(s), kind: 'total', alert: s.errors > 0 },
        { id: 'latency', term: 'Latency p99 / max', value: s.latencyMaxMs, text: `${formatMs(s.latencyP99Ms)} / ${formatMs(s.latencyMaxMs)}`, kind: 'overall' },
        {
          id: 'lateness',
          term: 'Timer lateness p99 / max',
          value: s.latenessMaxMs,
          text: `${formatMs(s.latenessP99Ms)} / ${formatMs(s.latenessMaxMs)}`,
          kind: 'overall',
          alert: s.latenessP99Ms > LATE_TIMER_MS,
        },
        { id: 'recovery', term: 'After the spike', value: s.recoveryMs, text: `the loop ${recoveryText(s)}`, kind: 'overall', alert: s.recoveryMs < 0 },
        {
          id: 'demand',
          term: 'Spike demand',
          value: s.spikeDemandCores,
          text: s.spikeDemandCores === null ? '–' : `${coresText(s.spikeDemandCores)} of work, ${s.cores} cores (${formatMs(s.workMsPerObject)} per object)`,
          kind: 'overall',
        },
        ...cpuFigures(summary, last, lastProc, 'Service CPU'),
        eventLoopFigure(summary, last),
      ];
    }
    const now = (id: string, term: string, value: number | undefined, text: string, alert = false): Figure => ({
      id,
      term,
      value: value ?? null,
      text: value === undefined ? '–' : text,
      kind: 'now',
      alert,
    });
    return [
      now(
        'lateness',
        'Timer lateness (last second)',
        last?.latenessMaxMs,
        `p99 ${formatMs(last?.latenessP99Ms ?? 0)}, max ${formatMs(last?.latenessMaxMs ?? 0)}`,
        (last?.latenessP99Ms ?? 0) > LATE_TIMER_MS,
      ),
      now('rates', 'Offered / completed', last?.offeredRps, `${(last?.offeredRps ?? 0).toFixed(1)} / ${(last?.completedRps ?? 0).toFixed(1)} req/s`),
      now(
        'outcomes',
        'On time / late / timed out / refused / errors',
        last?.sent,
        `${last?.onTime ?? 0} / ${last?.late ?? 0} / ${last?.timedOut ?? 0} / ${last?.refused ?? 0} / ${last?.errors ?? 0}`,
      ),
      ...cpuFigures(null, last, lastProc, 'Service CPU'),
      eventLoopFigure(null, last),
    ];
  },
};
