/** The streams lab's view half, as the page asks for it (components/lab-view.ts). */
import type { StreamsSummary } from '@/lib/protocol';
import type { LabView } from '@/components/lab-view';
import { streamsCard } from './card';
import { StreamsCharts } from './Charts';
import { streamsVerdict } from './verdict';
import { ARTICLE_RUN, ResultsTable } from './ResultsTable';

export const view: LabView = {
  id: 'streams',
  card: streamsCard,
  RunCharts: StreamsCharts,
  ResultsTable: ResultsTable,
  resultsNote:
    `Peak memory in MB (MiB). The Article column is the peak the source article published for that strategy, for a ${ARTICLE_RUN.sizeMb} MB ` +
    `file at ${ARTICLE_RUN.delayMs} ms per chunk; it is shown only beside runs with those parameters.`,
  comparesSiblings: false,
  recordChart: null,
  RecordPanels: null,
  verdict: (s, _siblings, info) => streamsVerdict(s as StreamsSummary, info),
};
