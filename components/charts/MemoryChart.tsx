'use client';

/**
 * TimeChart for callers that already hold points (x = ms since the run started, y = bytes):
 * the lessons and the history pages. Each series becomes a line over a fixed source, drawn as
 * SVG. Charts of live runs use TimeChart with sources directly (see RunCard).
 */
import { memo, useMemo } from 'react';
import type { Point } from '@/lib/series/decimate';
import { MAX_POINTS_PER_SERIES } from '@/lib/series/decimate';
import { TimeChart, type ReferenceLine } from './TimeChart';
import type { ChartLine } from './chart-lines';
import { staticSource } from './sample-source';
import { bytesScale, type SeriesUnit } from './units';

export interface ChartSeries {
  id: string;
  label: string;
  color: string;
  dashed?: boolean;
  /** Dash pattern; overrides `dashed`. */
  dash?: readonly number[];
  /** Drawn thicker: the series the chart is about. */
  emphasis?: boolean;
  /** x = ms since the run started, y = bytes (or `valueUnit`); ascending x. */
  points: readonly Point[];
  /** What y is measured in; bytes unless said (CPU %, utilization, latency ms, responses/s). */
  valueUnit?: SeriesUnit;
}

export type ChartReferenceLine = ReferenceLine;

/** 'auto' picks the unit that fits the largest value, like every TimeChart axis. */
export type ChartUnit = 'MB' | 'KB' | 'auto';

export interface MemoryChartProps {
  series: readonly ChartSeries[];
  /** Kept for callers; the chart counts the rows it draws itself (data-points). */
  sampleCount?: number;
  label: string;
  testId?: string;
  height?: number;
  maxPointsPerSeries?: number;
  unit?: ChartUnit;
  referenceLines?: readonly ChartReferenceLine[];
  zoomable?: boolean;
  /** The y axis reaches at least this value (charts compared side by side). */
  yAtLeast?: number;
  [dataAttribute: `data-${string}`]: string | number | undefined;
}

const DEFAULT_DASH = [6, 3];
const pointTime = (p: Point) => p.x;
const pointValue = (p: Point) => p.y;

/** Point series as chart lines, each over its own fixed source. */
export function pointLines(series: readonly ChartSeries[]): ChartLine<Point>[] {
  return series.map((s) => ({
    key: s.id,
    label: s.label,
    unit: s.valueUnit ?? 'bytes',
    color: s.color,
    dash: s.dash ?? (s.dashed ? DEFAULT_DASH : undefined),
    emphasis: s.emphasis,
    source: staticSource(s.points),
    time: pointTime,
    value: pointValue,
  }));
}

function MemoryChartImpl({ series, sampleCount: _sampleCount, unit = 'auto', maxPointsPerSeries = MAX_POINTS_PER_SERIES, ...rest }: MemoryChartProps) {
  const lines = useMemo(() => pointLines(series), [series]);
  const fixedScale = useMemo(() => (unit === 'auto' ? null : bytesScale(unit)), [unit]);
  return <TimeChart {...rest} lines={lines} renderer="svg" fixedScale={fixedScale} maxPointsPerSeries={maxPointsPerSeries} />;
}

/** Line chart of byte series over seconds (SVG), decimated to a bounded number of points per series. */
export const MemoryChart = memo(MemoryChartImpl);
