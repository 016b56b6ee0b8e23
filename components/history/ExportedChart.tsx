'use client';

/** A MemoryChart (SVG renderer) with "PNG" and "SVG" download buttons that export exactly what is drawn, hidden series left out. */
import { useRef, useState } from 'react';
import { MemoryChart, type ChartSeries } from '@/components/charts/MemoryChart';
import { downloadBlob } from './api';
import { chartToSvg, legendFromChart, svgToPng } from './chart-export';

export interface ExportedChartProps {
  series: readonly ChartSeries[];
  sampleCount: number;
  /** Accessible name, also the title written into the exported image. */
  title: string;
  /** File name without extension. */
  fileName: string;
  testId: string;
  height?: number;
  /** Hide the export buttons (embeds). */
  bare?: boolean;
}

/** Chart plus its image exports. */
export function ExportedChart({ series, sampleCount, title, fileName, testId, height = 300, bare = false }: ExportedChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);

  const exportAs = async (format: 'svg' | 'png') => {
    setError(null);
    try {
      const doc = chartToSvg(ref.current!, title, legendFromChart(ref.current!));
      const blob = format === 'svg' ? new Blob([doc.svg], { type: 'image/svg+xml' }) : await svgToPng(doc.svg, doc.width, doc.height);
      downloadBlob(blob, `${fileName}.${format}`);
    } catch (err) {
      setError(`Could not export the chart: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  return (
    <div className="exported-chart" ref={ref}>
      <MemoryChart series={series} sampleCount={sampleCount} label={title} testId={testId} height={height} zoomable />
      {!bare && (
        <div className="export-buttons" role="group" aria-label="Download the chart">
          <button type="button" data-testid="export-png" onClick={() => void exportAs('png')}>
            PNG
          </button>
          <button type="button" data-testid="export-svg" onClick={() => void exportAs('svg')}>
            SVG
          </button>
        </div>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
