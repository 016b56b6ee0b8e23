/** The deadline lab's view half, as the page asks for it (components/lab-view.ts). */
import type { DeadlineSummary } from '@/lib/protocol';
import type { LabView } from '@/components/lab-view';
import { deadlineCard } from './card';
import { DeadlineCharts } from './Charts';
import { deadlineVerdict } from './verdict';
import { DeadlineResultsTable } from './ResultsTable';
import { DeadlineRecordPanels } from './RecordPanels';

export const view: LabView = {
  id: 'deadline',
  card: deadlineCard,
  RunCharts: DeadlineCharts,
  ResultsTable: DeadlineResultsTable,
  resultsNote:
    'Outcomes as the load generator counted them (on time + late + timed out + refused + errors = sent); timer lateness measured in the ' +
    'service: every timer that fired, deadline and probe, actual fire time minus due time.',
  comparesSiblings: false,
  recordChart: null,
  RecordPanels: DeadlineRecordPanels,
  verdict: (s) => deadlineVerdict(s as DeadlineSummary),
};
