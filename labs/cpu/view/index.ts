/** The cpu lab's view half, as the page asks for it (components/lab-view.ts). */
import type { CpuSummary } from '@/lib/protocol';
import type { LabView } from '@/components/lab-view';
import { cpuCard } from './card';
import { CpuCharts } from './Charts';
import { cpuVerdict } from './verdict';
import { CpuResultsTable } from './ResultsTable';
import { CPU_MEMORY_SERIES } from './series';
import { CpuRecordPanels } from './RecordPanels';

export const view: LabView = {
  id: 'cpu',
  card: cpuCard,
  RunCharts: CpuCharts,
  ResultsTable: CpuResultsTable,
  resultsNote:
    null,
  comparesSiblings: true,
  recordChart: { what: 'process-tree memory', series: CPU_MEMORY_SERIES },
  RecordPanels: CpuRecordPanels,
  verdict: (s, siblings) => cpuVerdict(s as CpuSummary, siblings as readonly CpuSummary[]),
};
