'use client';

/**
 * How far the reader is ahead of the consumer over time: bytesRead − bytesProcessed, the stream's
 * own readableLength, and a dashed line at its highWaterMark. Same colours, axes and decimation as
 * MemoryChart, but the unit follows the data (KB for a pull reader's few chunks, MB for a push
 * reader's whole file), because MemoryChart's MB ticks would round a 64 KB sawtooth to 0.1.
 */
import { memo, useMemo } from 'react';
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { decimateMinMax, type Point } from '@/lib/decimate';
import { bufferLevel, highWaterMarkBytes } from '@/lib/lessons-buffer';
import { MIB } from '@/lib/params';
import type { Sample } from '@/lib/protocol';

export interface BufferLevelChartProps {
  samples: readonly Sample[];
  chunkKb: number;
  /** Accessible name of the chart. */
  label: string;
  height?: number;
}

const POINTS_PER_SERIES = 200;
const COLORS = { buffered: '#D55E00', readableLength: '#0072B2', hwm: '#000000' } as const;

interface Drawn {
  id: string;
  label: string;
  color: string;
  dashed?: boolean;
  emphasis?: boolean;
  data: Point[];
}

const formatSecondsTick = (s: number) => `${s >= 10 ? Math.round(s) : Number(s.toFixed(2))} s`;

function BufferLevelChartImpl({ samples, chunkKb, label, height = 150 }: BufferLevelChartProps) {
  const hwm = highWaterMarkBytes(chunkKb);
  const { series, unit, peak } = useMemo(() => {
    const level = bufferLevel(samples);
    const peakBytes = Math.max(0, ...level.buffered.map((p) => p.y), ...level.readableLength.map((p) => p.y));
    const scale = Math.max(peakBytes, hwm) >= MIB ? { name: 'MB', div: MIB } : { name: 'KB', div: 1024 };
    const toUnit = (points: readonly Point[]) => decimateMinMax(points, POINTS_PER_SERIES).map((p) => ({ x: p.x / 1000, y: p.y / scale.div }));
    const lastT = samples.at(-1)?.t ?? 0;
    const drawn: Drawn[] = [
      { id: 'buffered', label: 'read − processed', color: COLORS.buffered, emphasis: true, data: toUnit(level.buffered) },
      { id: 'readableLength', label: 'readableLength', color: COLORS.readableLength, data: toUnit(level.readableLength) },
      { id: 'hwm', label: `highWaterMark (${chunkKb} KB)`, color: COLORS.hwm, dashed: true, data: toUnit([{ x: 0, y: hwm }, { x: lastT, y: hwm }]) },
    ];
    return { series: drawn, unit: scale.name, peak: peakBytes };
  }, [samples, hwm, chunkKb]);

  return (
    <div className="chart" data-testid="buffer-level-chart" data-points={samples.length} data-peak-bytes={peak} role="group" aria-label={label}>
      {samples.length === 0 ? (
        <div className="chart-empty" style={{ height }}>
          Waiting for samples…
        </div>
      ) : (
        <LineChart responsive style={{ width: '100%', height }} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#e3e6ea" strokeDasharray="3 3" />
          <XAxis type="number" dataKey="x" domain={[0, 'dataMax']} tickFormatter={formatSecondsTick} tick={{ fontSize: 11 }} allowDuplicatedCategory={false} />
          <YAxis
            width={44}
            tickFormatter={(v: number) => (v >= 10 || v === 0 ? v.toFixed(0) : v.toFixed(1))}
            tick={{ fontSize: 11 }}
            label={{ value: unit, angle: -90, position: 'insideLeft', offset: 12, fontSize: 11 }}
          />
          <Tooltip
            isAnimationActive={false}
            labelFormatter={(x) => `${Number(x).toFixed(2)} s`}
            formatter={(value) => `${Number(value).toFixed(1)} ${unit}`}
            contentStyle={{ fontSize: 12 }}
          />
          {series.map((s) => (
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

/** Buffer level of one run, in KB or MB over seconds. */
export const BufferLevelChart = memo(BufferLevelChartImpl);
