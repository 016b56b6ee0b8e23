/** The deadline lab's lessons as the lessons' header, index and the dashboard list them (data only: no page component, so the lessons' header can import it without a cycle). */
import type { LessonInfo } from '@/components/lab-view';
import { LAB_ID } from '../shared/id';

export const lessons: readonly LessonInfo[] = [
  {
    lab: LAB_ID,
    slug: LAB_ID,
    nav: 'Deadlines',
    heading: 'Deadlines under a traffic spike',
    title: 'Deadlines under a traffic spike, step by step · Stream Lab',
    blurb: (
      <>
        Two live runs of the deadlines lab: a service whose timers fire late once a spike asks more than a core of its event loop, against a worker pool; then a
        limit on the GETs against shedding load with 503.
      </>
    ),
  },
];
