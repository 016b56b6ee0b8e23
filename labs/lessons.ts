/**
 * Every lab's lessons as data (labs/<lab>/view/lessons.tsx), for the lessons' header and index and
 * the dashboard's link. Kept apart from labs/views.ts: the lessons' pages import the header, and
 * the header importing the views (which import the pages) was an import cycle that broke pages.
 */
import type { LessonInfo } from '@/components/lab-view';
import { FOUND_LESSONS } from './generated/lessons';
import { LAB_IDS } from './schemas';

/** Every lesson, in the lab switch's order (labs/<lab>/view/lessons.tsx, found by scripts/lab-index.mjs). */
export const LESSONS: readonly LessonInfo[] = LAB_IDS.flatMap((id) => FOUND_LESSONS.flat().filter((l: LessonInfo) => l.lab === id));

/** The lesson at /lessons/<slug>, or undefined. */
export function findLessonInfo(slug: string): LessonInfo | undefined {
  return LESSONS.find((l) => l.slug === slug);
}

/** The lesson the dashboard links for a lab (the one marked onDashboard, else its first), or undefined. */
export function firstLessonOf(lab: string): LessonInfo | undefined {
  return LESSONS.find((l) => l.lab === lab && l.onDashboard) ?? LESSONS.find((l) => l.lab === lab);
}
