/**
 * A run card for a lab whose pages have no card of their own yet (its server side came first):
 * progress from the lab's schema (its done reading of its total), and the figures every run has.
 */
import { labOf, progressReadingOf, progressTotalOf } from '@/lib/labs';
import { runProgress } from '@/lib/readouts/progress';
import { formatCount, formatPercent } from '@/lib/readouts/format';
import { paceText, processFigures, type CardLab } from './figures';

export const commonCard: CardLab = {
  preparing: () => 'Preparing the run',

  progress(run, samples, active) {
    const lab = labOf(run);
    const totalFigure = progressTotalOf(lab);
    const fromSummary = run.summary && totalFigure ? (run.summary as unknown as Record<string, unknown>)[totalFigure] : undefined;
    // The queue's total is the lab's prepared total; the summary has it as the progress figure.
    const total = typeof fromSummary === 'number' ? fromSummary : (run.preparedUnits ?? 0);
    const p = runProgress(samples, total, progressReadingOf(lab));
    const rate = p.perSec === null ? null : `${p.perSec.toFixed(1)}/s`;
    return {
      fraction: p.fraction,
      text: `${formatCount(p.done)} of ${formatCount(total)} (${formatPercent(p.fraction)})${paceText(rate, p.etaMs, p.fraction, active)}`,
      label: 'share of the work done',
    };
  },

  figures: (summary, last, lastProc) => processFigures('heapUsed', summary, last, lastProc),
};
