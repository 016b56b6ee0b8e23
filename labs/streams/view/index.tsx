/** The streams lab's view half, as the page asks for it (components/lab-view.ts). */
import type { LabView } from '@/components/lab-view';
import { streamsCard } from './card';
import { StreamsCharts } from './Charts';
import { ARTICLE_RUN, ResultsTable } from './ResultsTable';
import { ModesExplorer } from './ModesExplorer';
import { FrontierChart } from './FrontierChart';
import { BackpressureWalkthrough } from './Walkthrough';
import { recordFigures, recordMemory } from './record-items';
import { lessons } from './lessons';
import { LAB_ID } from '../shared/id';

export const view: LabView = {
  id: LAB_ID,
  tagline: (
    <>
      Push readers buffer the whole file; pull readers stay flat. Watch <code>process.memoryUsage()</code> while a slow consumer reads.
    </>
  ),
  lessons,
  lessonPages: { modes: ModesExplorer, backpressure: BackpressureWalkthrough },
  pickerGroups: [
    { mode: 'push', title: 'Push', blurb: 'the source emits without waiting' },
    { mode: 'pull', title: 'Pull', blurb: 'the consumer asks for each chunk' },
  ],
  card: streamsCard,
  RunCharts: StreamsCharts,
  ResultsTable: ResultsTable,
  resultsNote:
    `Peak memory in MB (MiB). The Article column is the peak the source article published for that strategy, for a ${ARTICLE_RUN.sizeMb} MB ` +
    `file at ${ARTICLE_RUN.delayMs} ms per chunk; it is shown only beside runs with those parameters.`,
  ResultsChart: FrontierChart,
  comparesSiblings: false,
  recordChart: null,
  RecordPanels: null,
  recordItems: (s, o) => ({ figures: recordFigures(s?.lab === LAB_ID ? s : null, o), memory: recordMemory(s?.lab === LAB_ID ? s : null) }),
};
