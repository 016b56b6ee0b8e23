/** The hotcode lab's view half, as the page asks for it (components/lab-view.ts). */
import type { LabView } from '@/components/lab-view';
import { hotcodeCard } from './card';
import { HotcodeCharts } from './Charts';
import { HotcodeResultsTable } from './ResultsTable';
import { HotcodeRecordPanels } from './RecordPanels';
import { HotcodeWalkthrough } from './Walkthrough';
import { recordFigures } from './record-items';
import { lessons } from './lessons';
import { LAB_ID } from '../shared/id';

export const view: LabView = {
  id: LAB_ID,
  tagline: (
    <>
      Two lines made a report take 200 s: <code>toLocaleString</code> with a time zone, and a <code>groupBy</code> that copies its array per row. Profile a run,
      find them in the flame graph, and watch the /health probe wait while they block the server.
    </>
  ),
  lessons,
  lessonPages: { hotcode: HotcodeWalkthrough },
  pickerGroups: [{ mode: null, title: 'How the report computes', blurb: 'each runs synchronously in the request handler, as the write-up’s did' }],
  card: hotcodeCard,
  RunCharts: HotcodeCharts,
  ResultsTable: HotcodeResultsTable,
  resultsNote:
    'Report times are the strategy’s synchronous work in the request handler; /health is a probe sent every probeMs meanwhile, ' +
    'so its wait is what any other request waited. A sweep’s exponent is fitted to CPU time.',
  ResultsChart: null,
  comparesSiblings: true,
  recordChart: null,
  RecordPanels: HotcodeRecordPanels,
  recordItems: (s, o) => ({ figures: recordFigures(s?.lab === LAB_ID ? s : null, o), memory: [] }),
};
