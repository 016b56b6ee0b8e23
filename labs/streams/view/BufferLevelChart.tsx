'use client';

/**
 * How far the reader is ahead of the consumer over time: bytesRead − bytesProcessed, the stream's
 * own readableLength, and a dashed line at its highWaterMark. Drawn by MemoryChart in the unit that
 * fits the data (KB for a pull reader's few chunks, MB for a push reader's whole file), because MB
 * ticks would round a 64 KB sawtooth to 0.1.
 */
import { memo, useMemo } from 'react';
import { bufferLevel, highWaterMarkBytes } from './buffer';
import type { Sample } from '@/lib/protocol';
import { MemoryChart, type ChartReferenceLine, type ChartSeries } from '@/components/charts/MemoryChart';

export interface BufferLevelChartProps {
  samples: readonly Sample[];
  chunkKb: number;
  /** Accessible name of the chart. */
  label: string;
  height?: number;
  /** The y axis reaches at least this (the step's other runs), so side-by-side charts compare. */
  yAtLeast?: number;
}

const POINTS_PER_SERIES = 200;
const COLORS = { buffered: '#D55E00', readableLength: '#0072B2' } as const;

function BufferLevelChartImpl({ samples, chunkKb, label, height = 150, yAtLeast = 0 }: BufferLevelChartProps) {
  const { series, peak } = useMemo(() => {
    const level = bufferLevel(samples);
    const drawn: ChartSeries[] = [
      { id: 'buffered', label: 'read − processed', color: COLORS.buffered, emphasis: true, points: level.buffered },
      { id: 'readableLength', label: 'readableLength', color: COLORS.readableLength, points: level.readableLength },
    ];
    const peakBytes = Math.max(0, ...level.buffered.map((p) => p.y), ...level.readableLength.map((p) => p.y));
    return { series: drawn, peak: peakBytes };
  }, [samples]);
  const referenceLines = useMemo<ChartReferenceLine[]>(() => [{ y: highWaterMarkBytes(chunkKb), label: `highWaterMark (${chunkKb} KB)` }], [chunkKb]);

  return (
    <MemoryChart
      testId="buffer-level-chart"
      data-peak-bytes={peak}
      label={label}
      series={series}
      sampleCount={samples.length}
      unit="auto"
      referenceLines={referenceLines}
      height={height}
      maxPointsPerSeries={POINTS_PER_SERIES}
      yAtLeast={yAtLeast}
    />
  );
}

/** Buffer level of one run, in KB or MB over seconds. */
export const BufferLevelChart = memo(BufferLevelChartImpl);
