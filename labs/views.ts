/**
 * Every lab's view half (labs/<lab>/view/index.ts), for the page: shared components ask here for a
 * lab's charts and card and never name a lab themselves (a run's verdict: labs/verdict-of.ts).
 */
import type { ComponentType } from 'react';
import type { LabView, LessonInfo } from '@/components/lab-view';
import { findLessonInfo } from './lessons';
import type { Sample } from '@/lib/protocol';
import { memorySeries, specSeries } from '@/components/charts/series';
import type { ChartSeries } from '@/components/charts/MemoryChart';
import { FOUND_VIEWS } from './generated/views';
import { LAB_IDS } from './schemas';

/** Every lab's view (labs/<lab>/view/index.tsx, found by scripts/lab-index.mjs), in the lab switch's order. */
export const LAB_VIEWS: readonly LabView[] = LAB_IDS.flatMap((id) => FOUND_VIEWS.filter((v: LabView) => v.id === id));

/** The lesson served at /lessons/<slug> and its page, or undefined. */
export function findLesson(slug: string): (LessonInfo & { Page: ComponentType }) | undefined {
  const info = findLessonInfo(slug);
  const Page = info && labView(info.lab)?.lessonPages[slug];
  return info && Page ? { ...info, Page } : undefined;
}

/** The view of the lab with this id, or undefined for a lab the page has none for. */
export function labView(id: string): LabView | undefined {
  return LAB_VIEWS.find((v) => v.id === id);
}

/** A recorded run's main chart from its samples: its lab's record chart, or the five memory fields. */
export function recordSeries(lab: string, samples: readonly Sample[]): ChartSeries[] {
  const chart = labView(lab)?.recordChart;
  return chart ? specSeries(chart.series, samples) : memorySeries(samples);
}
