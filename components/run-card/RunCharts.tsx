'use client';

/**
 * A run card's charts, per lab, from the one TimeChart layer. Streams: memory, or CPU on request.
 * HTTP: the server's memory with its socket buffers, always; below it the load's view, one unit at
 * a time (latency, responses/s, CPU of server and load, event-loop delay). The HTTP lab runs one
 * strategy at a time, so its second chart costs one more live canvas, not one per card. CPU: the
 * process tree's memory, then its CPU, processes and threads, or /ping (it too runs alone).
 */
import { useMemo, useState } from 'react';
import type { LabId } from '@/lib/labs';
import type { Sample } from '@/lib/protocol';
import { TimeChart } from '@/components/charts/TimeChart';
import { EXTRA_SERIES, MEMORY_SERIES, sampleLines, type SeriesSpec } from '@/components/charts/chart-lines';
import { HTTP_LOAD_VIEWS, HTTP_MEMORY_SERIES, type HttpLoadView } from '@/labs/http/view/series';
import { CPU_LOAD_VIEWS, CPU_MEMORY_SERIES, type CpuLoadView } from '@/labs/cpu/view/series';
import { DEADLINE_LOAD_VIEWS, type DeadlineLoadView } from '@/labs/deadline/view/series';
import type { TimeBand } from '@/components/charts/TimeChart';
import { HOTCODE_PROBE_SERIES, HOTCODE_VIEWS, type HotcodeView } from '@/labs/hotcode/view/series';
import type { SampleSource } from '@/components/charts/sample-source';
import type { ScaleGroups } from '@/components/charts/scale-group';

export interface RunChartsProps {
  lab: LabId;
  /** The strategy's label, for the charts' accessible names. */
  label: string;
  source: SampleSource<Sample>;
  /** Still changing: no drag-to-zoom yet. */
  active: boolean;
  /** The experiment's shared y-scales; null for each chart's own. */
  scaleGroups: ScaleGroups | null;
  /** Stretches shaded on the time axis (the deadlines lab's spike). */
  bands?: readonly TimeBand[];
}

interface ViewButtonsProps<V extends string> {
  label: string;
  views: ReadonlyArray<{ id: V; label: string }>;
  value: V;
  onChange(view: V): void;
}

function ViewButtons<V extends string>({ label, views, value, onChange }: ViewButtonsProps<V>) {
  return (
    <div className="chart-view" role="group" aria-label={`${label}: chart shows`}>
      {views.map((v) => (
        <button key={v.id} type="button" aria-pressed={value === v.id} data-testid={`run-view-${v.id}`} onClick={() => onChange(v.id)}>
          {v.label}
        </button>
      ))}
    </div>
  );
}

const STREAMS_VIEWS = [
  { id: 'memory', label: 'Memory', specs: MEMORY_SERIES },
  { id: 'cpu', label: 'CPU', specs: [EXTRA_SERIES.cpuPct] as readonly SeriesSpec<Sample>[] },
  { id: 'loop', label: 'Long tasks', specs: [EXTRA_SERIES.longTaskMs, EXTRA_SERIES.elMaxMs] as readonly SeriesSpec<Sample>[] },
] as const;

function StreamsCharts({ label, source, active, scaleGroups }: Omit<RunChartsProps, 'lab'>) {
  // Memory by default; CPU (% of one core, from the child's samples) on request.
  const [view, setView] = useState<'memory' | 'cpu' | 'loop'>('memory');
  const specs = STREAMS_VIEWS.find((v) => v.id === view)!.specs;
  const lines = useMemo(() => sampleLines(source, specs), [source, specs]);
  return (
    <>
      <ViewButtons<'memory' | 'cpu' | 'loop'> label={label} views={STREAMS_VIEWS} value={view} onChange={setView} />
      <TimeChart
        testId="run-chart"
        label={`${STREAMS_VIEWS.find((v) => v.id === view)!.label} of the ${label} run over seconds`}
        lines={lines}
        height={170}
        scaleGroup={view === 'memory' ? (scaleGroups?.of('memory', 1024) ?? null) : null}
        zoomable={!active}
        reportsTiming
      />
    </>
  );
}

function HttpCharts({ label, source, active, scaleGroups }: Omit<RunChartsProps, 'lab'>) {
  const [view, setView] = useState<HttpLoadView>('latency');
  const memory = useMemo(() => sampleLines(source, HTTP_MEMORY_SERIES), [source]);
  const chosen = HTTP_LOAD_VIEWS.find((v) => v.id === view)!;
  const load = useMemo(() => sampleLines(source, chosen.specs), [source, chosen]);
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

function CpuCharts({ label, source, active, scaleGroups }: Omit<RunChartsProps, 'lab'>) {
  // CPU first: the tree climbing to every core (or staying at one) is the lab's point.
  const [view, setView] = useState<CpuLoadView>('cpu');
  const memory = useMemo(() => sampleLines(source, CPU_MEMORY_SERIES), [source]);
  const chosen = CPU_LOAD_VIEWS.find((v) => v.id === view)!;
  const load = useMemo(() => sampleLines(source, chosen.specs), [source, chosen]);
  return (
    <>
      <TimeChart
        testId="run-chart"
        label={`RSS of the server's process tree (${label}) over seconds`}
        lines={memory}
        height={150}
        scaleGroup={scaleGroups?.of('memory', 1024) ?? null}
        zoomable={!active}
        reportsTiming
      />
      <ViewButtons<CpuLoadView> label={label} views={CPU_LOAD_VIEWS} value={view} onChange={setView} />
      <TimeChart
        testId="run-chart-load"
        label={`${chosen.label} of the ${label} run over seconds`}
        lines={load}
        height={130}
        scaleGroup={scaleGroups?.of(`cpu-${view}`) ?? null}
        zoomable={!active}
      />
    </>
  );
}

function DeadlineCharts({ label, source, active, scaleGroups, bands }: Omit<RunChartsProps, 'lab'>) {
  // The lateness chart comes first (LatenessPanel); this one shows the load and the service, one unit at a time.
  const [view, setView] = useState<DeadlineLoadView>('rates');
  const chosen = DEADLINE_LOAD_VIEWS.find((v) => v.id === view)!;
  const load = useMemo(() => sampleLines(source, chosen.specs), [source, chosen]);
  return (
    <>
      <ViewButtons<DeadlineLoadView> label={label} views={DEADLINE_LOAD_VIEWS} value={view} onChange={setView} />
      <TimeChart
        testId="run-chart-load"
        label={`${chosen.label} of the ${label} run over seconds`}
        lines={load}
        height={130}
        bands={bands}
        scaleGroup={scaleGroups?.of(`deadline-${view}`) ?? null}
        zoomable={!active}
      />
    </>
  );
}

function HotcodeCharts({ label, source, active, scaleGroups }: Omit<RunChartsProps, 'lab'>) {
  // The probe first: a frozen server is a wait for every other request.
  const [view, setView] = useState<HotcodeView>('cpu');
  const probe = useMemo(() => sampleLines(source, HOTCODE_PROBE_SERIES), [source]);
  const chosen = HOTCODE_VIEWS.find((v) => v.id === view)!;
  const load = useMemo(() => sampleLines(source, chosen.specs), [source, chosen]);
  return (
    <>
      <TimeChart testId="run-chart" label={`/health wait and event-loop delay of the ${label} run over seconds`} lines={probe} height={150} scaleGroup={scaleGroups?.of('hotcode-probe') ?? null} zoomable={!active} reportsTiming />
      <ViewButtons<HotcodeView> label={label} views={HOTCODE_VIEWS} value={view} onChange={setView} />
      <TimeChart testId="run-chart-load" label={`${chosen.label} of the ${label} run over seconds`} lines={load} height={120} scaleGroup={scaleGroups?.of(`hotcode-${view}`, view === 'memory' ? 1024 : 1000) ?? null} zoomable={!active} />
    </>
  );
}

/** The charts of one run card, drawn live from its samples. */
export function RunCharts({ lab, ...rest }: RunChartsProps) {
  if (lab === 'http') return <HttpCharts {...rest} />;
  if (lab === 'cpu') return <CpuCharts {...rest} />;
  if (lab === 'deadline') return <DeadlineCharts {...rest} />;
  if (lab === 'hotcode') return <HotcodeCharts {...rest} />;
  return <StreamsCharts {...rest} />;
}
