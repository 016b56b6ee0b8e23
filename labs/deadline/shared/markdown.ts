/** The deadline lab's table in a Markdown export of recorded runs: its own columns, between a run's outcome and its Node version. */
import { fixed, text, type MarkdownTable } from '../../../lib/history/markdown-table';
import type { DeadlineParams } from './params';
import type { DeadlineSummary } from './schema';

export const markdownTable: MarkdownTable = {
  head: [
    'Baseline → spike (req/s)',
    'K',
    'CPU/object (ms)',
    'Deadline (ms)',
    'On time',
    'Late',
    'Timed out',
    'Refused',
    'Errors',
    'Lateness p99 / max (ms)',
    'Recovery (s)',
  ],
  align: ['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
  cells: (r) => {
    const p = r.run.params as DeadlineParams;
    const s = r.run.summary as DeadlineSummary | null;
    return [
      p ? `${p.baselineRps} → ${p.spikeRps} for ${p.spikeS} s` : '–',
      text(p?.objects),
      text(p?.cpuMs),
      text(p?.deadlineMs),
      text(s?.onTime),
      text(s?.late),
      text(s?.timedOut),
      text(s?.refused),
      text(s?.errors),
      s ? `${fixed(s.latenessP99Ms, 0)} / ${fixed(s.latenessMaxMs, 0)}` : '–',
      s ? (s.recoveryMs < 0 ? 'not by the end' : fixed(s.recoveryMs / 1000, 1)) : '–',
    ];
  },
};
