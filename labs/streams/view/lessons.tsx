/** The streams lab's lessons as the lessons' header, index and the dashboard list them (data only: no page component, so the lessons' header can import it without a cycle). */
import type { LessonInfo } from '@/components/lab-view';
import { LAB_ID } from '../shared/id';

export const lessons: readonly LessonInfo[] = [
  {
    lab: LAB_ID,
    slug: 'modes',
    nav: 'Stream modes',
    heading: 'Stream modes: flowing or paused?',
    title: 'Stream modes · Stream Lab',
    blurb: (
      <>
        What <code>readableFlowing</code> is after each way of touching a stream: a &apos;data&apos; listener, an async iterator, pipe, pipeline, pause, unpipe
        and more, measured in a fresh Node process every time.
      </>
    ),
  },
  {
    lab: LAB_ID,
    slug: 'backpressure',
    // Why push readers buffer: what the dashboard shows, explained (the modes explorer comes first on the index).
    onDashboard: true,
    nav: 'Push vs pull',
    heading: 'Push vs pull, step by step',
    title: 'Push vs pull, step by step · Stream Lab',
    blurb: (
      <>
        Seven short live runs: push vs pull, where the file goes in memory, how fromEvent + takeUntil loses data, garbage vs retained memory, the out-of-memory
        failure under a memory budget, who holds the file, and how many calls are in flight.
      </>
    ),
  },
];
