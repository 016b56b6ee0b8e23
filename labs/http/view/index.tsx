/** The http lab's view half, as the page asks for it (components/lab-view.ts). */
import type { LabView } from '@/components/lab-view';
import { httpCard } from './card';
import { HttpCharts } from './Charts';
import { HttpResultsTable } from './ResultsTable';
import { HTTP_MEMORY_SERIES } from './series';
import { HttpWalkthrough } from './Walkthrough';
import { recordFigures, recordMemory } from './record-items';
import { lessons } from './lessons';
import { LAB_ID } from '../shared/id';

export const view: LabView = {
  id: LAB_ID,
  tagline: (
    <>A buffered JSON response holds every row in the server&apos;s heap; a streamed one stays flat. Watch its memory, socket buffers and latency under load.</>
  ),
  lessons,
  lessonPages: { http: HttpWalkthrough },
  pickerGroups: [
    { mode: 'push', title: 'Push', blurb: 'the server writes without waiting for the client' },
    { mode: 'pull', title: 'Pull', blurb: 'the server writes as the client reads (drain)' },
  ],
  card: httpCard,
  RunCharts: HttpCharts,
  ResultsTable: HttpResultsTable,
  resultsNote:
    'Memory of the server under test, peaks in MB (MiB); socket buffers are the bytes queued in its open responses. Latencies are ' +
    'measured at the load generator, per response, in ms.',
  ResultsChart: null,
  comparesSiblings: true,
  recordChart: { what: 'memory and socket buffers', series: HTTP_MEMORY_SERIES },
  RecordPanels: null,
  recordItems: (s, o) => ({ figures: recordFigures(s?.lab === LAB_ID ? s : null, o), memory: recordMemory(s?.lab === LAB_ID ? s : null) }),
};
