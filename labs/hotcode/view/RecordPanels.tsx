'use client';

/** A recorded hot-code run under its chart: the sweep, when it was one. */
import type { RecordPanelsProps } from '@/components/lab-view';
import { SweepChart } from './SweepChart';
import { LAB_ID } from '../shared/id';

export function HotcodeRecordPanels({ summary, label }: RecordPanelsProps) {
  return summary.lab === LAB_ID && summary.params.sweep ? <SweepChart summary={summary} label={label} /> : null;
}
