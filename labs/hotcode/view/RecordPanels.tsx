'use client';

/** A recorded hot-code run under its chart: the sweep, when it was one. */
import type { RecordPanelsProps } from '@/components/lab-view';
import { SweepChart } from './SweepChart';

export function HotcodeRecordPanels({ summary, label }: RecordPanelsProps) {
  return summary.lab === 'hotcode' && summary.params.sweep ? <SweepChart summary={summary} label={label} /> : null;
}
