'use client';

/**
 * An HTTP run card's charts: the server's memory with its socket buffers, always; below it the
 * load's view, one unit at a time (latency, responses/s, CPU of server and load, event-loop delay).
 * The lab runs one strategy at a time, so its second chart costs one more live canvas, not one per card.
 */
import { useMemo, useState } from 'react';
import { TimeChart } from '@/components/charts/TimeChart';
import { viewLines } from '@/components/charts/chart-lines';
import { httpSchema } from '../shared/schema';
import { ViewButtons } from '@/components/run-card/ViewButtons';
import type { RunChartsProps } from '@/components/lab-view';
import { HTTP_LOAD_VIEWS, HTTP_MEMORY_SERIES, type HttpLoadView } from './series';

export function HttpCharts({ run, label, source, outside, active, scaleGroups }: RunChartsProps) {
  const [view, setView] = useState<HttpLoadView>('latency');
  const sampleMs = run.params.sampleMs;
  const memory = useMemo(() => viewLines(source, outside, HTTP_MEMORY_SERIES, sampleMs, httpSchema.watchesBlockedHeap), [source, outside, sampleMs]);
  const chosen = HTTP_LOAD_VIEWS.find((v) => v.id === view)!;
  const load = useMemo(() => viewLines(source, outside, chosen.specs, sampleMs, httpSchema.watchesBlockedHeap), [source, outside, chosen, sampleMs]);
  return (
    <>
      <TimeChart
        testId="run-chart"
        label={`Memory and socket buffers of the server under test (${label}) over seconds`}
        lines={memory}
        height={170}
        scaleGroup={scaleGroups?.of('memory', 1024) ?? null}
        zoomable={!active}
        reportsTiming
      />
      <ViewButtons<HttpLoadView> label={label} views={HTTP_LOAD_VIEWS} value={view} onChange={setView} />
      <TimeChart
        testId="run-chart-load"
        label={`${chosen.label} of the ${label} run over seconds`}
        lines={load}
        height={130}
        scaleGroup={scaleGroups?.of(view) ?? null}
        zoomable={!active}
      />
    </>
  );
}
