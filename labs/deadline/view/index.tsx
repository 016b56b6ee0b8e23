/** The deadline lab's view half, as the page asks for it (components/lab-view.ts). */
import type { LabView } from '@/components/lab-view';
import { deadlineCard } from './card';
import { DeadlineCharts } from './Charts';
import { DeadlineResultsTable } from './ResultsTable';
import { DeadlineRecordPanels } from './RecordPanels';
import { DeadlineWalkthrough } from './Walkthrough';
import { recordFigures } from './record-items';
import { lessons } from './lessons';
import { LAB_ID } from '../shared/id';

export const view: LabView = {
  id: LAB_ID,
  tagline: (
    <>
      A traffic spike asks more CPU of one event loop than it has: every timer, the deadline&apos;s too, fires late. Watch the timers&apos; lateness, the
      requests on time, late, timed out and refused, and whether the service recovers after the spike.
    </>
  ),
  lessons,
  lessonPages: { deadline: DeadlineWalkthrough },
  pickerGroups: [{ mode: null, title: 'Where the work per object runs', blurb: 'the main thread (all at once, limited, or shedding load) or a worker pool' }],
  card: deadlineCard,
  RunCharts: DeadlineCharts,
  ResultsTable: DeadlineResultsTable,
  resultsNote:
    'Outcomes as the load generator counted them (on time + late + timed out + refused + errors = sent); timer lateness measured in the ' +
    'service: every timer that fired, deadline and probe, actual fire time minus due time.',
  ResultsChart: null,
  comparesSiblings: false,
  recordChart: null,
  RecordPanels: DeadlineRecordPanels,
  recordItems: (s, o) => ({ figures: recordFigures(s?.lab === LAB_ID ? s : null, o), memory: [] }),
};
