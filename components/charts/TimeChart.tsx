'use client';

/**
 * The one chart component: lines (series spec + source) over time since each run's start. Live
 * charts draw on canvas (uPlot) from their sources without React re-rendering per sample; recorded
 * ones render SVG (recharts) so they can be exported. Both share this frame: the hover readout of
 * every visible series, a legend that hides and shows series, a log-scale toggle, the unit the
 * y axis picked, and drag-to-zoom / double-click-to-reset where `zoomable`.
 */
import { memo, useContext, useMemo, useRef, useState } from 'react';
import { ChartPlaceholder } from './placeholder';
import { ChartBands } from './bands';
import type { ChartLine } from './chart-lines';
import { ChartColumns } from './line-columns';
import { HoverStore } from './hover';
import type { ScaleGroup } from './scale-group';
import type { DisplayScale } from './units';
import type { ReferenceLine, TimeBand } from './uplot-options';
import { CanvasPlot } from './CanvasPlot';
import { SvgPlot } from './SvgPlot';
import { ChartLegend } from './ChartLegend';
import { ChartReadout } from './ChartReadout';

export type { ReferenceLine, TimeBand } from './uplot-options';

export interface TimeChartProps {
  /** Memoise: new lines mean a new plot. */
  lines: readonly ChartLine<unknown>[];
  /** Accessible name of the chart. */
  label: string;
  testId?: string;
  height?: number;
  /** 'canvas' (default) for live data, 'svg' for recorded data that may be exported. */
  renderer?: 'canvas' | 'svg';
  /** Drag to zoom, double-click to reset: for data that no longer changes. */
  zoomable?: boolean;
  /** Share the y axis with other charts; null for the chart's own. */
  scaleGroup?: ScaleGroup | null;
  /** Fix the y unit (e.g. KB) instead of picking it from the values. */
  fixedScale?: DisplayScale | null;
  referenceLines?: readonly ReferenceLine[];
  /** Stretches of the time axis shaded behind the lines (the deadlines lab's spike); ChartBands adds the surrounding card's. */
  bands?: readonly TimeBand[];
  /** The y axis reaches at least this value: charts shown side by side share one scale (SVG charts). */
  yAtLeast?: number;
  /** Live cards record when samples reach the screen (for `npm run bench:ui`). */
  reportsTiming?: boolean;
  /** SVG renderer only: points per series after decimation. */
  maxPointsPerSeries?: number;
  /** Extra data-* attributes for the chart's element (tests read figures from them). */
  [dataAttribute: `data-${string}`]: string | number | undefined;
}

const NO_REFERENCE_LINES: readonly ReferenceLine[] = [];
const NO_BANDS: readonly TimeBand[] = [];
const PLOT_LEFT_PX = 44;

function TimeChartImpl({
  lines,
  label,
  testId,
  height = 180,
  renderer = 'canvas',
  zoomable = false,
  scaleGroup = null,
  fixedScale = null,
  referenceLines = NO_REFERENCE_LINES,
  bands = NO_BANDS,
  reportsTiming = false,
  maxPointsPerSeries,
  yAtLeast = 0,
  ...dataAttributes
}: TimeChartProps) {
  const root = useRef<HTMLDivElement>(null);
  const hover = useMemo(() => new HoverStore(), []);
  const columns = useMemo(() => new ChartColumns(lines), [lines]);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const placeholder = useContext(ChartPlaceholder);
  const marked = useContext(ChartBands);
  const shaded = useMemo(() => (marked.length === 0 ? bands : [...bands, ...marked]), [bands, marked]);
  const [log, setLog] = useState(false);
  const toggle = (key: string) =>
    setHidden((prev) => {
      const next = new Set(prev);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const plotProps = { columns, height, hidden, log, zoomable, scaleGroup, fixedScale, referenceLines, bands: shaded, rootRef: root, hover, reportsTiming };
  const hiddenKeys = lines.filter((l) => hidden.has(l.key)).map((l) => l.key);

  return (
    <div
      ref={root}
      className="chart"
      data-testid={testId}
      data-renderer={renderer}
      data-hidden-series={hiddenKeys.join(',')}
      data-log-scale={log ? 'true' : 'false'}
      data-zoomable={zoomable ? 'true' : 'false'}
      data-bands={shaded.length > 0 ? shaded.map((b) => b.label).join(',') : undefined}
      {...dataAttributes}
      role="group"
      aria-label={label}
    >
      <div className="chart-toolbar">
        {/* The plot writes the y unit it picked here ("MB", "KB", "ms"). */}
        <span className="chart-unit" data-testid="chart-y-unit" />
        <button
          type="button"
          className="chart-log-toggle"
          data-testid="chart-log-toggle"
          aria-pressed={log}
          onClick={() => setLog((v) => !v)}
          title="Logarithmic y axis"
        >
          log
        </button>
        {zoomable && <span className="chart-hint">drag to zoom · double-click to reset</span>}
      </div>
      <div className="chart-body">
        {renderer === 'canvas' ? <CanvasPlot {...plotProps} /> : <SvgPlot {...plotProps} maxPointsPerSeries={maxPointsPerSeries} yAtLeast={yAtLeast} />}
        <div className="chart-waiting" style={{ height }}>
          {placeholder}
        </div>
        <ChartReadout columns={columns} hidden={hidden} hover={hover} fixedScale={fixedScale} plotLeft={PLOT_LEFT_PX} />
      </div>
      <ChartLegend lines={lines} hidden={hidden} onToggle={toggle} referenceLines={referenceLines} />
    </div>
  );
}

/** A time-series chart of the given lines; see the file comment for what it offers. */
export const TimeChart = memo(TimeChartImpl);
