/**
 * The hot-code lab's part of a run card: reports done of those planned (a sweep's steps and its
 * current row count), each report's synchronous time, what /health waited, and a sweep's exponent.
 */
import { paramsOfLab, progressReadingOf } from '@/lib/labs';
import { exponentText } from './verdict';
import { runProgress } from '@/lib/readouts/progress';
import { FEW_SAMPLES, formatCount, formatCountOf, formatMs, formatPercent, longTasksText } from '@/lib/readouts/format';
import { eventLoopFigure, latencyText, paceText, type CardLab, type Figure } from '../../../components/run-card/figures';
import { LAB_ID } from '../shared/id';

const DONE = progressReadingOf(LAB_ID);

function longTasksFigure(tasks: ReadonlyArray<{ durationMs: number; top: readonly string[] }>): Figure {
  return {
    id: 'long-tasks',
    term: 'Long tasks',
    value: tasks.length,
    text: longTasksText(tasks),
    kind: 'total',
    alert: tasks.some((t) => t.durationMs > 1000),
  };
}

export const hotcodeCard: CardLab = {
  preparing: () => 'Preparing: starting the report server and its load',

  progress(run, samples, active) {
    const s = run.summary?.lab === LAB_ID ? run.summary : null;
    const params = paramsOfLab(run, LAB_ID);
    const planned = s?.reportsPlanned ?? run.preparedUnits ?? params?.requests ?? 0;
    const live = runProgress(samples, planned, DONE);
    const done = s?.reportsOk ?? live.done;
    const fraction = planned > 0 ? Math.min(1, done / planned) : 0;
    const what = params?.sweep ? 'sweep steps' : 'reports';
    const rows = active && samples.at(-1)?.reportRows ? ` · ${formatCount(samples.at(-1)!.reportRows!)} rows now` : '';
    const rate = live.perSec === null ? null : `${live.perSec.toFixed(2)} ${what}/s`;
    return {
      fraction,
      text: `${formatCount(done)} of ${formatCount(planned)} ${what} (${formatPercent(fraction)})${rows}${paceText(rate, live.etaMs, fraction, active)}`,
      label: `share of the ${what} done`,
    };
  },

  figures(summary, last) {
    const s = summary?.lab === LAB_ID ? summary : null;
    if (summary && s) {
      // A p50 of a handful of probes says so (a blocked server answers few).
      const few = s.probes < FEW_SAMPLES ? ` (${formatCountOf(s.probes, 'probe')})` : '';
      const probe = s.params.probeMs === 0 ? 'off' : `${formatMs(s.probeP50Ms)} / ${formatMs(s.probeMaxMs)}${few}`;
      const figures: Figure[] = [
        { id: 'report', term: 'Report min / max', value: s.reportMsMax, text: `${formatMs(s.reportMsMin)} / ${formatMs(s.reportMsMax)}`, kind: 'overall' },
        { id: 'probe', term: '/health p50 / max', value: s.probeMaxMs, text: probe, kind: 'overall', alert: s.probeMaxMs > 1000 },
      ];
      if (s.longTasks) figures.push(longTasksFigure(s.longTasks));
      if (s.params.sweep && s.sweep.length > 1)
        figures.push({ id: 'exponent', term: 'Time ∝ rows^k', value: s.sweepExponent, text: exponentText(s.sweepExponent), kind: 'overall' });
      return [...figures, eventLoopFigure(summary, last)];
    }
    const now = (id: string, term: string, value: number | undefined, text: string): Figure => ({
      id,
      term,
      value: value ?? null,
      text: value === undefined ? '–' : text,
      kind: 'now',
    });
    return [
      now('probe', '/health', last?.probeMs, latencyText(last?.probeMs)),
      // The load reads 0 ms until a report has come back: no report yet is not a report of 0 ms.
      now('report', 'Last report', last?.reportsOk ? last.lastReportMs : undefined, formatMs(last?.lastReportMs ?? 0)),
      eventLoopFigure(null, last),
    ];
  },
};
