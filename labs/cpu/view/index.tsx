/** The cpu lab's view half, as the page asks for it (components/lab-view.ts). */
import type { LabView } from '@/components/lab-view';
import { cpuCard } from './card';
import { CpuCharts } from './Charts';
import { CpuResultsTable } from './ResultsTable';
import { CPU_MEMORY_SERIES } from './series';
import { CpuRecordPanels } from './RecordPanels';
import { CpuWalkthrough } from './Walkthrough';
import { recordFigures } from './record-items';
import { lessons } from './lessons';
import { LAB_ID } from '../shared/id';

export const view: LabView = {
  id: LAB_ID,
  tagline: (
    <>
      One thread computes one request at a time; processes and threads spread them over the cores, up to the cores and no further. Watch the process tree, its
      CPU and each request&apos;s bar.
    </>
  ),
  lessons,
  lessonPages: { cpu: CpuWalkthrough },
  pickerGroups: [{ mode: null, title: 'Where fib(n) runs', blurb: 'the request handler’s thread, more processes, or more threads' }],
  card: cpuCard,
  RunCharts: CpuCharts,
  ResultsTable: CpuResultsTable,
  resultsNote: null,
  ResultsChart: null,
  comparesSiblings: true,
  recordChart: { what: 'process-tree memory', series: CPU_MEMORY_SERIES },
  RecordPanels: CpuRecordPanels,
  recordItems: (s, o, role) => ({ figures: recordFigures(s?.lab === LAB_ID ? s : null, o, role), memory: [] }),
};
