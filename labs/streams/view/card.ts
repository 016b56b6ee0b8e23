/** The streams lab's part of a run card: bytes of the file processed, arrayBuffers and RSS from outside. */
import { MIB } from '@/lib/params';
import { paramsOfLab } from '@/lib/labs';
import { runProgress } from '@/lib/readouts/progress';
import { formatMb, formatPercent } from '@/lib/readouts/format';
import { cpuFigures, eventLoopFigure, paceText, type CardLab } from '../../../components/run-card/figures';

export const streamsCard: CardLab = {
  preparing: () => 'Preparing the data file',

  progress(run, samples, active) {
    const s = run.summary?.lab === 'streams' ? run.summary : null;
    const fileBytes = s?.fileBytes ?? run.fileBytes ?? (paramsOfLab(run, 'streams')?.sizeMb ?? 0) * MIB;
    const p = runProgress(samples, fileBytes);
    const processed = s?.bytesProcessed ?? p.done;
    const fraction = fileBytes > 0 ? Math.min(1, processed / fileBytes) : 0;
    const rate = p.perSec === null ? null : `${(p.perSec / MIB).toFixed(1)} MB/s`;
    return {
      fraction,
      text: `${formatMb(processed).replace(/ MB$/, '')} of ${formatMb(fileBytes)} (${formatPercent(fraction)})${paceText(rate, p.etaMs, fraction, active)}`,
      label: 'share of the file processed',
    };
  },

  figures(summary, last, lastProc) {
    if (summary) {
      return [
        eventLoopFigure(summary, last),
        { id: 'array-buffers', term: 'arrayBuffers', value: summary.peak.arrayBuffers, text: formatMb(summary.peak.arrayBuffers), kind: 'peak' },
        { id: 'rss-outside', term: 'RSS from outside', value: summary.procPeakRss, text: formatMb(summary.procPeakRss), kind: 'peak' },
        ...cpuFigures(summary, last, lastProc),
      ];
    }
    return [
      eventLoopFigure(null, last),
      { id: 'array-buffers', term: 'arrayBuffers', value: last?.arrayBuffers ?? null, text: last ? formatMb(last.arrayBuffers) : '–', kind: 'now' },
      { id: 'rss-outside', term: 'RSS from outside', value: lastProc?.rss ?? null, text: lastProc ? formatMb(lastProc.rss) : '–', kind: 'now' },
      ...cpuFigures(null, last, lastProc),
    ];
  },
};
