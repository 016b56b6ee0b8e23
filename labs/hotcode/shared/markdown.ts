/** The hotcode lab's table in a Markdown export of recorded runs: its own columns, between a run's outcome and its Node version. */
import { fixed, text, type MarkdownTable } from '../../../lib/history/markdown-table';
import type { HotcodeParams } from './params';
import type { HotcodeSummary } from './schema';

export const markdownTable: MarkdownTable = {
  head: ['Rows', 'Reports', 'Sweep', 'Report min (ms)', 'Report max (ms)', '/health p50 (ms)', '/health max (ms)', 'Exponent', 'OK'],
  align: ['---:', '---:', '---', '---:', '---:', '---:', '---:', '---:', '---:'],
  cells: (r) => {
    const p = r.run.params as HotcodeParams;
    const s = r.run.summary as HotcodeSummary | null;
    return [
      text(p?.rows),
      text(p?.requests),
      p ? (p.sweep ? 'yes' : 'no') : '–',
      fixed(s?.reportMsMin, 1),
      fixed(s?.reportMsMax, 1),
      fixed(s?.probeP50Ms, 0),
      fixed(s?.probeMaxMs, 0),
      s && s.sweep.length > 1 ? fixed(s.sweepExponent, 2) : '–',
      s ? `${s.reportsOk} / ${s.reportsPlanned}` : '–',
    ];
  },
};
