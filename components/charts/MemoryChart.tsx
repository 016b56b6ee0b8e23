'use client';

/**
 * The one chart wrapper: every chart on the page goes through it, so all share colours, units
 * (MB over seconds), axes and decimation. Callers pass raw points (x in ms, y in bytes).
 */
import { memo, useMemo } from 'react';
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { decimateMinMax, MAX_POINTS_PER_SERIES, type Point } from '@/lib/decimate';
import { MIB } from '@/lib/params';

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

export interface MemoryChartProps {
  series: readonly ChartSeries[];
  /** How many source samples the chart represents (exposed as data-points for tests). */
  sampleCount: number;
  /** Accessible name of the chart. */
  label: string;
  testId?: string;
  height?: number;
  maxPointsPerSeries?: number;
}

const toSeconds = (ms: number) => ms / 1000;
// Below 1 MB, one decimal repeats labels ("0.1, 0.1, 0.0"): show enough digits to tell ticks apart.
const formatMbTick = (mb: number) => (mb >= 10 || mb === 0 ? mb.toFixed(0) : mb >= 1 ? mb.toFixed(1) : Number(mb.toPrecision(2)).toString());
// Short runs last well under a second: two decimals keep neighbouring ticks apart.
const formatSecondsTick = (s: number) => `${s >= 10 ? Math.round(s) : Number(s.toFixed(2))} s`;

function MemoryChartImpl({ series, sampleCount, label, testId, height = 180, maxPointsPerSeries = MAX_POINTS_PER_SERIES }: MemoryChartProps) {
  const drawn = useMemo(
    () =>
      series.map((s) => ({
        ...s,
        data: decimateMinMax(s.points, maxPointsPerSeries).map((p) => ({ x: toSeconds(p.x), y: p.y / MIB })),
      })),
    [series, maxPointsPerSeries],
  );
  const empty = drawn.every((s) => s.data.length === 0);

  return (
    <div className="chart" data-testid={testId} data-points={sampleCount} role="group" aria-label={label}>
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
            tickFormatter={formatMbTick}
            tick={{ fontSize: 11 }}
            label={{ value: 'MB', angle: -90, position: 'insideLeft', offset: 12, fontSize: 11 }}
          />
          <Tooltip
            isAnimationActive={false}
            labelFormatter={(x) => `${Number(x).toFixed(1)} s`}
            formatter={(value) => `${Number(value).toFixed(1)} MB`}
            contentStyle={{ fontSize: 12 }}
          />
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
      </ul>
    </div>
  );
}

/** Line chart of memory in MB over seconds, decimated to a bounded number of points per series. */
export const MemoryChart = memo(MemoryChartImpl);
