/** The cpu lab's lessons as the lessons' header, index and the dashboard list them (data only: no page component, so the lessons' header can import it without a cycle). */
import type { LessonInfo } from '@/components/lab-view';
import { LAB_ID } from '../shared/id';

export const lessons: readonly LessonInfo[] = [
  {
    lab: LAB_ID,
    slug: LAB_ID,
    nav: 'CPU-bound requests',
    heading: 'CPU-bound requests: one thread, processes, threads, pools',
    title: 'CPU-bound requests, step by step · Stream Lab',
    blurb: (
      <>
        Four live runs of the CPU lab: one thread queueing requests, processes up to the cores, what spawning per request costs against a pool, and the leaky
        pool that answers requests with each other&apos;s results.
      </>
    ),
  },
];
