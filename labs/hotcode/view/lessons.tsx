/** The hotcode lab's lessons as the lessons' header, index and the dashboard list them (data only: no page component, so the lessons' header can import it without a cycle). */
import type { LessonInfo } from '@/components/lab-view';
import { LAB_ID } from '../shared/id';

export const lessons: readonly LessonInfo[] = [
  {
    lab: LAB_ID,
    slug: LAB_ID,
    nav: 'Hot code',
    heading: 'Hot code: toLocaleString and a spreading groupBy',
    title: 'Hot code, step by step · Stream Lab',
    blurb: (
      <>
        Three live runs of the hot-code lab: a report that freezes the server (and its fix), what a time-zone <code>toLocaleString</code> costs against a cached
        formatter, and a sweep showing rows² against rows.
      </>
    ),
  },
];
