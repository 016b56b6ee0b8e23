'use client';

/** A recorded deadlines run under its chart: every timer's lateness, the spike shaded. */
import type { RecordPanelsProps } from '@/components/lab-view';
import { LatenessScatter } from './LatenessScatter';
import { spikeBand } from './series';
import { LAB_ID } from '../shared/id';

export function DeadlineRecordPanels({ summary, label }: RecordPanelsProps) {
  if (summary.lab !== LAB_ID || summary.lateness.length === 0) return null;
  const band = spikeBand(summary.params, summary.scheduleStartMs);
  return <LatenessScatter points={summary.lateness} band={band ? { ...band, label: 'spike' } : null} label={`Timers of the ${label} run`} />;
}
