'use client';

/** A recorded CPU run under its chart: the request timeline and each thread's CPU over the run. */
import type { RecordPanelsProps } from '@/components/lab-view';
import { layoutTimeline } from './timeline-layout';
import { RequestTimeline } from './RequestTimeline';
import { ThreadCpuList } from './ThreadCpuList';
import { LAB_ID } from '../shared/id';

export function CpuRecordPanels({ summary, label }: RecordPanelsProps) {
  if (summary.lab !== LAB_ID) return null;
  const timeline = summary.timeline.length > 0 ? summary.timeline : null;
  return (
    <>
      {timeline && <RequestTimeline bars={timeline} label={`Request timeline of the ${label} run`} />}
      {summary.threadCpu.length > 0 && (
        <ThreadCpuList threads={summary.threadCpu} live={false} colorOf={timeline ? layoutTimeline(timeline).colorOf : undefined} />
      )}
    </>
  );
}
