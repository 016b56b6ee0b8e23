/** The http lab's view half, as the page asks for it (components/lab-view.ts). */
import type { HttpSummary } from '@/lib/protocol';
import type { LabView } from '@/components/lab-view';
import { httpCard } from './card';
import { HttpCharts } from './Charts';
import { httpVerdict } from './verdict';
import { HttpResultsTable } from './ResultsTable';
import { HTTP_MEMORY_SERIES } from './series';

export const view: LabView = {
  id: 'http',
  card: httpCard,
  RunCharts: HttpCharts,
  ResultsTable: HttpResultsTable,
  resultsNote:
    'Memory of the server under test, peaks in MB (MiB); socket buffers are the bytes queued in its open responses. Latencies are ' +
    'measured at the load generator, per response, in ms.',
  comparesSiblings: true,
  recordChart: { what: 'memory and socket buffers', series: HTTP_MEMORY_SERIES },
  RecordPanels: null,
  verdict: (s, siblings) => httpVerdict(s as HttpSummary, siblings as readonly HttpSummary[]),
};
