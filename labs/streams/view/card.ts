/** The streams lab's part of a run card: bytes of the file processed, arrayBuffers and RSS from outside. */
import { MIB } from '@/lib/protocol/params';
import { paramsOfLab } from '@/lib/labs';
import { runProgress } from '@/lib/readouts/progress';
import { formatMb, formatPercent } from '@/lib/readouts/format';
import { paceText, processFigures, type CardLab } from '../../../components/run-card/figures';
import { LAB_ID } from '../shared/id';

export const streamsCard: CardLab = {
  preparing: () => 'Preparing the data file',

  progress(run, samples, active) {
    const s = run.summary?.lab === LAB_ID ? run.summary : null;
    const fileBytes = s?.fileBytes ?? run.preparedUnits ?? (paramsOfLab(run, LAB_ID)?.sizeMb ?? 0) * MIB;
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

  figures: (summary, last, lastProc) => processFigures('arrayBuffers', summary, last, lastProc),
};
