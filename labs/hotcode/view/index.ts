/** The hotcode lab's view half, as the page asks for it (components/lab-view.ts). */
import type { HotcodeSummary } from '@/lib/protocol';
import type { LabView } from '@/components/lab-view';
import { hotcodeCard } from './card';
import { HotcodeCharts } from './Charts';
import { hotcodeVerdict } from './verdict';
import { HotcodeResultsTable } from './ResultsTable';
import { HotcodeRecordPanels } from './RecordPanels';

export const view: LabView = {
  id: 'hotcode',
  card: hotcodeCard,
  RunCharts: HotcodeCharts,
  ResultsTable: HotcodeResultsTable,
  resultsNote:
    'Report times are the strategy’s synchronous work in the request handler; /health is a probe sent every probeMs meanwhile, ' +
    'so its wait is what any other request waited. A sweep’s exponent is fitted to CPU time.',
  comparesSiblings: true,
  recordChart: null,
  RecordPanels: HotcodeRecordPanels,
  verdict: (s, siblings) => hotcodeVerdict(s as HotcodeSummary, siblings as readonly HotcodeSummary[]),
};
