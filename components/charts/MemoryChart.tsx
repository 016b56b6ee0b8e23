'use client';

/**
 * The one chart wrapper: every chart on the page goes through it, so all share colours, units
 * (MB over seconds unless a chart asks for KB or for the unit that fits its data), axes and
 * decimation. Callers pass raw points (x in ms, y in bytes).
 */
import { memo, useMemo } from 'react';
import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { decimateMinMax, MAX_POINTS_PER_SERIES, type Point } from '@/lib/decimate';
import { MIB } from '@/lib/params';
import { useStaggered } from '@/components/charts/stagger';

export interface ChartSeries {
  id: string;
  label: string;
  color: string;
  dashed?: boolean;
  /** Drawn thicker: the series the chart is about. */
  emphasis?: boolean;
  /** x = ms since the run started, y = bytes; ascending x. */
  points: readonly Point[];
}

/** A dashed horizontal line across the whole chart (a limit such as a highWaterMark), listed in the legend. */
export interface ChartReferenceLine {
  /** Bytes. */
  y: number;
  label: string;
  /** Defaults to black. */
  color?: string;
}

/** 'auto' picks KB when the largest value (series and reference lines) is under 1 MB, else MB. */
export type ChartUnit = 'MB' | 'KB' | 'auto';

export interface MemoryChartProps {
  series: readonly ChartSeries[];
  /** How many source samples the chart represents (exposed as data-points for tests). */
  sampleCount: number;
  /** Accessible name of the chart. */
  label: string;
  testId?: string;
  height?: number;
  maxPointsPerSeries?: number;
  /** Unit of the y axis, its ticks and the tooltip; MB unless given. */
  unit?: ChartUnit;
  referenceLines?: readonly ChartReferenceLine[];
  /** Extra data-* attributes for the chart's element (tests read figures from them). */
  [dataAttribute: `data-${string}`]: string | number | undefined;
}

const UNIT_BYTES = { MB: MIB, KB: 1024 } as const;
const REFERENCE_COLOR = '#000000';

const toSeconds = (ms: number) => ms / 1000;
// Below 1 (MB or KB), one decimal repeats labels ("0.1, 0.1, 0.0"): show enough digits to tell ticks apart.
const formatValueTick = (v: number) => (v >= 10 || v === 0 ? v.toFixed(0) : v >= 1 ? v.toFixed(1) : Number(v.toPrecision(2)).toString());
// Short runs last well under a second: two decimals keep neighbouring ticks apart.
const formatSecondsTick = (s: number) => `${s >= 10 ? Math.round(s) : Number(s.toFixed(2))} s`;
// Samples can be 50 ms apart: two decimals under 10 s so neighbouring points don't share a time.
const formatSecondsTooltip = (s: number) => `${s.toFixed(s < 10 ? 2 : 1)} s`;

function resolveUnit(unit: ChartUnit, series: readonly ChartSeries[], referenceLines: readonly ChartReferenceLine[]): 'MB' | 'KB' {
  if (unit !== 'auto') return unit;
  let maxBytes = 0;
  for (const s of series) for (const p of s.points) maxBytes = Math.max(maxBytes, p.y);
  for (const r of referenceLines) maxBytes = Math.max(maxBytes, r.y);
  return maxBytes >= MIB ? 'MB' : 'KB';
}

const NO_REFERENCE_LINES: readonly ChartReferenceLine[] = [];

function MemoryChartImpl({
  series: liveSeries,
  sampleCount,
  label,
  testId,
  height = 180,
  maxPointsPerSeries = MAX_POINTS_PER_SERIES,
  unit = 'MB',
  referenceLines = NO_REFERENCE_LINES,
  ...dataAttributes
}: MemoryChartProps) {
  // Live charts redraw one per frame (see stagger.ts); a chart whose data does not change never waits.
  const series = useStaggered(liveSeries);
  const { drawn, unitName } = useMemo(() => {
    const name = resolveUnit(unit, series, referenceLines);
    const bytes = UNIT_BYTES[name];
    return {
      unitName: name,
      drawn: series.map((s) => ({
        ...s,
        data: decimateMinMax(s.points, maxPointsPerSeries).map((p) => ({ x: toSeconds(p.x), y: p.y / bytes })),
      })),
    };
  }, [series, maxPointsPerSeries, unit, referenceLines]);
  const empty = drawn.every((s) => s.data.length === 0);

  return (
    <div className="chart" data-testid={testId} data-points={sampleCount} {...dataAttributes} role="group" aria-label={label}>
      {empty ? (
        <div className="chart-empty" style={{ height }}>
          Waiting for samples…
        </div>
      ) : (
        <LineChart responsive style={{ width: '100%', height }} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#e3e6ea" strokeDasharray="3 3" />
          <XAxis
            type="number"
            dataKey="x"
            domain={[0, 'dataMax']}
            tickFormatter={formatSecondsTick}
            tick={{ fontSize: 11 }}
            allowDuplicatedCategory={false}
          />
          <YAxis
            width={44}
            tickFormatter={formatValueTick}
            tick={{ fontSize: 11 }}
            label={{ value: unitName, angle: -90, position: 'insideLeft', offset: 12, fontSize: 11 }}
          />
          <Tooltip
            isAnimationActive={false}
            labelFormatter={(x) => formatSecondsTooltip(Number(x))}
            formatter={(value) => `${Number(value).toFixed(1)} ${unitName}`}
            contentStyle={{ fontSize: 12 }}
          />
          {referenceLines.map((r) => (
            <ReferenceLine
              key={`ref-${r.label}`}
              y={r.y / UNIT_BYTES[unitName]}
              stroke={r.color ?? REFERENCE_COLOR}
              strokeWidth={1.5}
              strokeDasharray="5 3"
              // The line is part of what the chart shows: the y axis grows to include it.
              ifOverflow="extendDomain"
            />
          ))}
          {drawn.map((s) => (
            <Line
              key={s.id}
              data={s.data}
              dataKey="y"
              name={s.label}
              type="linear"
              stroke={s.color}
              strokeWidth={s.emphasis ? 2.5 : 1.5}
              strokeDasharray={s.dashed ? '5 3' : undefined}
              dot={false}
              activeDot={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      )}
      <ul className="chart-legend" aria-label="Series">
        {series.map((s) => (
          <li key={s.id}>
            <svg width="18" height="8" aria-hidden="true">
              <line x1="0" y1="4" x2="18" y2="4" stroke={s.color} strokeWidth={s.emphasis ? 3 : 2} strokeDasharray={s.dashed ? '4 2' : undefined} />
            </svg>
            {s.label}
          </li>
        ))}
        {referenceLines.map((r) => (
          <li key={`ref-${r.label}`}>
            <svg width="18" height="8" aria-hidden="true">
              <line x1="0" y1="4" x2="18" y2="4" stroke={r.color ?? REFERENCE_COLOR} strokeWidth={2} strokeDasharray="4 2" />
            </svg>
            {r.label}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Line chart of memory (MB by default) over seconds, decimated to a bounded number of points per series. */
export const MemoryChart = memo(MemoryChartImpl);
