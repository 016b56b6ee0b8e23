/** The cpu lab's table in a Markdown export of recorded runs: its own columns, between a run's outcome and its Node version. */
import { mb, fixed, text, type MarkdownTable } from '../../../lib/history/markdown-table';
import type { CpuParams } from './params';
import type { CpuSummary } from './schema';

export const markdownTable: MarkdownTable = {
  head: [
    'n',
    'Requests',
    'At once',
    'Workers',
    'Makespan (s)',
    'Speed-up',
    'p50 (ms)',
    'Spawn p50 (ms)',
    'Ping max (ms)',
    'Tree RSS (MB)',
    'Processes',
    'Threads',
    'Listeners',
    'OK',
  ],
  align: ['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
  cells: (r) => {
    const p = r.run.params as CpuParams;
    // The CSV row has no CPU columns (yet): these come from the summary, '–' for an interrupted run.
    const s = r.run.summary as CpuSummary | null;
    return [
      text(p?.n),
      text(p?.requests),
      text(p?.concurrency),
      p ? (p.workers === null ? 'cores' : String(p.workers)) : '–',
      fixed(s?.makespanMs != null ? s.makespanMs / 1000 : null, 2),
      s && s.speedup !== null ? `${fixed(s.speedup, 2)} of ${text(s.cores)}` : '–',
      fixed(s?.latencyP50Ms, 0),
      fixed(s?.spawnP50Ms, 0),
      fixed(s?.pingMaxMs, 0),
      mb(s?.peakTreeRss),
      text(s?.peakProcesses),
      text(s?.peakThreads),
      text(s?.peakMessageListeners),
      s ? `${s.requestsOk} / ${s.requestsPlanned}` : '–',
    ];
  },
};
