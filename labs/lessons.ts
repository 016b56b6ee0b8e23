/**
 * Every lab's lessons as data (labs/<lab>/view/lessons.tsx), for the lessons' header and index and
 * the dashboard's link. Kept apart from labs/views.ts: the lessons' pages import the header, and
 * the header importing the views (which import the pages) was an import cycle that broke pages.
 */
import type { LessonInfo } from '@/components/lab-view';
import { lessons as streams } from './streams/view/lessons';
import { lessons as http } from './http/view/lessons';
import { lessons as cpu } from './cpu/view/lessons';
import { lessons as deadline } from './deadline/view/lessons';
import { lessons as hotcode } from './hotcode/view/lessons';

/** Every lesson, in lab order. */
export const LESSONS: readonly LessonInfo[] = [...streams, ...http, ...cpu, ...deadline, ...hotcode];

/** The lesson at /lessons/<slug>, or undefined. */
export function findLessonInfo(slug: string): LessonInfo | undefined {
  return LESSONS.find((l) => l.slug === slug);
}

/** The lesson the dashboard links for a lab (the one marked onDashboard, else its first), or undefined. */
export function firstLessonOf(lab: string): LessonInfo | undefined {
  return LESSONS.find((l) => l.lab === lab && l.onDashboard) ?? LESSONS.find((l) => l.lab === lab);
}
