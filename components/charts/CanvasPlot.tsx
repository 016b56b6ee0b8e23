'use client';

/**
 * The canvas renderer (uPlot) of TimeChart, for charts that stream. Samples never pass through
 * React: a LivePlot subscribes to the sources and draws on animation frames (see draw-scheduler),
 * only while on screen. React only builds it and passes on hidden series and zoomability.
 */
import { memo, useEffect, useRef, type RefObject } from 'react';
import 'uplot/dist/uPlot.min.css';
import type { ChartColumns } from './line-columns';
import type { HoverStore } from './hover';
import type { ScaleGroup } from './scale-group';
import type { DisplayScale } from './units';
import type { ReferenceLine, TimeBand } from './uplot-options';
import { LivePlot } from './live-plot';

export { writeUnit } from './live-plot';

export interface PlotProps {
  columns: ChartColumns<unknown>;
  height: number;
  hidden: ReadonlySet<string>;
  log: boolean;
  zoomable: boolean;
  scaleGroup: ScaleGroup | null;
  fixedScale: DisplayScale | null;
  referenceLines: readonly ReferenceLine[];
  /** Stretches of the time axis shaded behind the lines. */
  bands: readonly TimeBand[];
  /** The chart's element: the plot keeps data-points and data-y-unit on it current. */
  rootRef: RefObject<HTMLDivElement | null>;
  hover: HoverStore;
  /** Record when samples of live runs reach the screen (window.__streamLab, for the benchmark). */
  reportsTiming: boolean;
}

function CanvasPlotImpl({ columns, height, hidden, log, zoomable, scaleGroup, fixedScale, referenceLines, bands, rootRef, hover, reportsTiming }: PlotProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<LivePlot | null>(null);

  useEffect(() => {
    const p = new LivePlot(box.current!, {
      columns,
      height,
      log,
      fixedScale,
      referenceLines,
      bands,
      scaleGroup,
      hover,
      reportsTiming,
      root: () => rootRef.current,
    });
    plot.current = p;
    return () => {
      p.destroy();
      plot.current = null;
    };
  }, [columns, height, log, fixedScale, referenceLines, bands, rootRef, hover, reportsTiming, scaleGroup]);

  // Neither needs a new plot. Declared after the effect above, so they also run for a new plot.
  useEffect(
    () => plot.current?.setHidden(hidden),
    [hidden, columns, height, log, fixedScale, referenceLines, bands, rootRef, hover, reportsTiming, scaleGroup],
  );
  useEffect(
    () => plot.current?.setZoomable(zoomable),
    [zoomable, columns, height, log, fixedScale, referenceLines, bands, rootRef, hover, reportsTiming, scaleGroup],
  );

  return <div ref={box} className="chart-plot" style={{ height }} />;
}

/** uPlot canvas of a chart's lines, drawn from their sources on animation frames. */
export const CanvasPlot = memo(CanvasPlotImpl);
