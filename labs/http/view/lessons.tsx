/** The http lab's lessons as the lessons' header, index and the dashboard list them (data only: no page component, so the lessons' header can import it without a cycle). */
import type { LessonInfo } from '@/components/lab-view';
import { LAB_ID } from '../shared/id';

export const lessons: readonly LessonInfo[] = [
  {
    lab: LAB_ID,
    slug: LAB_ID,
    nav: 'HTTP responses',
    heading: 'HTTP responses: buffered or streamed',
    title: 'HTTP responses, step by step · Stream Lab',
    blurb: (
      <>
        Three live runs of the HTTP lab: a buffered JSON response against a cursor streamed into the response, a response streamed out but buffered in, and slow
        clients against writes that ignore <code>drain</code>.
      </>
    ),
  },
];
