'use client';

/**
 * The canvas renderer (uPlot) of TimeChart, for charts that stream. Samples never pass through
 * React: the plot subscribes to its sources, and on a coming animation frame (see draw-scheduler)
 * pulls the new rows into its typed-array columns and redraws, only while it is on screen.
 */
import { memo, useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { recordDrawnSamples } from '@/components/instrumentation';
import { cancelDraw, requestDraw, type Drawable } from './draw-scheduler';
import { maxOfLines, type ChartColumns } from './line-columns';
import type { HoverStore } from './hover';
import type { ScaleGroup } from './scale-group';
import { pickScale, type DisplayScale } from './units';
import { niceTop, plotOptions, type ReferenceLine } from './uplot-options';

export interface PlotProps {
  columns: ChartColumns<unknown>;
  height: number;
  hidden: ReadonlySet<string>;
  log: boolean;
  zoomable: boolean;
  scaleGroup: ScaleGroup | null;
  fixedScale: DisplayScale | null;
  referenceLines: readonly ReferenceLine[];
  /** The chart's element: the plot keeps data-points and data-y-unit on it current. */
  rootRef: RefObject<HTMLDivElement | null>;
  hover: HoverStore;
  /** Record when samples of live runs reach the screen (window.__streamLab, for the benchmark). */
  reportsTiming: boolean;
}

function recordTiming(added: ReturnType<ChartColumns<unknown>['pull']>): void {
  const drawn = added
    .filter((a) => a.source.runId !== null)
    .map((a) => ({ runId: a.source.runId!, ats: a.rows.map((r) => (r as { at?: number }).at ?? Date.now()) }));
  if (drawn.length > 0) recordDrawnSamples(drawn);
}

/** Shows the y unit the axis picked, on the chart element (data-y-unit) and in its toolbar. */
export function writeUnit(root: HTMLElement, suffix: string): void {
  if (root.dataset.yUnit === suffix) return;
  root.dataset.yUnit = suffix;
  const label = root.querySelector('.chart-unit');
  if (label) label.textContent = suffix;
}

/** True when the x axis shows less than all the data (the user dragged a zoom). */
function isZoomed(u: uPlot): boolean {
  const xs = u.data?.[0];
  const { min, max } = u.scales.x;
  if (!xs || xs.length === 0 || min == null || max == null) return false;
  return min > Math.min(0, xs[0]) || max < xs[xs.length - 1];
}

function CanvasPlotImpl({ columns, height, hidden, log, zoomable, scaleGroup, fixedScale, referenceLines, rootRef, hover, reportsTiming }: PlotProps) {
  const box = useRef<HTMLDivElement>(null);
  // Read by the draw loop, so prop changes that need no new uPlot take effect on the next draw.
  const live = useRef({ hidden, scaleGroup });
  useLayoutEffect(() => {
    live.current = { hidden, scaleGroup };
  });
  const plotRef = useRef<{ u: uPlot; drawable: Drawable } | null>(null);

  useEffect(() => {
    const el = box.current!;
    const unit = columns.lines[0]?.unit ?? 'bytes';
    const refMax = Math.max(0, ...referenceLines.map((r) => r.y));
    let ownMax = 0;
    const yTop = () => {
      const own = Math.max(ownMax, refMax);
      const shared = live.current.scaleGroup?.max() ?? 0;
      return shared > 0 ? shared : own > 0 ? niceTop(own, unit) : 0;
    };
    const displayScale = (top: number) => fixedScale ?? pickScale(unit, top);
    const u = new uPlot(
      plotOptions({
        lines: columns.lines,
        width: Math.max(100, el.clientWidth),
        height,
        log,
        zoomable,
        hidden: live.current.hidden,
        referenceLines,
        joined: columns.groups.length > 1,
        yTop,
        displayScale,
        onCursor: (plot) => {
          const left = plot.cursor.left ?? -1;
          hover.set(left >= 0 ? { t: plot.posToVal(left, 'x'), left, width: plot.bbox.width / devicePixelRatio, yMax: plot.scales.y.max ?? 0 } : null);
        },
      }),
      undefined,
      el,
    );
    const member = {};
    // Rows taken in while out of view count as drawn when they are first on screen.
    let undrawn: ReturnType<ChartColumns<unknown>['pull']> = [];
    const takeIn = () => {
      const added = columns.pull();
      if (reportsTiming && added.length > 0) undrawn = undrawn.concat(added);
      const root = rootRef.current;
      if (root) root.dataset.points = String(columns.rowCount());
    };
    const drawable: Drawable = {
      visible: true,
      lastDrawAt: 0,
      sync: takeIn,
      draw() {
        takeIn();
        const { hidden: h, scaleGroup: group } = live.current;
        ownMax = maxOfLines(columns, h);
        group?.report(member, Math.max(ownMax, refMax));
        // A zoomed chart keeps its zoom while (finished) data is redrawn.
        u.setData(columns.aligned(), !(zoomable && isZoomed(u)));
        const root = rootRef.current;
        if (root) {
          writeUnit(root, displayScale(u.scales.y.max ?? 0).suffix);
          root.dataset.yMax = String(u.scales.y.max ?? 0);
        }
        if (undrawn.length > 0) recordTiming(undrawn);
        undrawn = [];
      },
    };
    plotRef.current = { u, drawable };
    const leave = live.current.scaleGroup?.join(member, () => requestDraw(drawable));
    const unsubscribe = columns.groups.map((g) => g.source.subscribe(() => requestDraw(drawable)));
    const seen = new IntersectionObserver((entries) => {
      drawable.visible = entries.at(-1)?.isIntersecting ?? true;
      if (drawable.visible) {
        drawable.lastDrawAt = 0;
        requestDraw(drawable);
      }
    });
    seen.observe(el);
    const resized = new ResizeObserver(() => {
      if (el.clientWidth > 0 && Math.abs(el.clientWidth - u.width) > 1) u.setSize({ width: el.clientWidth, height });
    });
    resized.observe(el);
    // Columns may be new while the sources already hold rows (a reload, a finished run).
    requestDraw(drawable);
    return () => {
      cancelDraw(drawable);
      for (const un of unsubscribe) un();
      leave?.();
      seen.disconnect();
      resized.disconnect();
      hover.set(null);
      u.destroy();
      plotRef.current = null;
    };
    // scaleGroup joins are read through `live`; a new group is rare enough to rebuild for.
  }, [columns, height, log, zoomable, fixedScale, referenceLines, rootRef, hover, reportsTiming, scaleGroup]);

  // Hiding a series needs no new plot: toggle it and redraw (the y range follows what is shown).
  useEffect(() => {
    const plot = plotRef.current;
    if (!plot) return;
    columns.lines.forEach((line, i) => {
      const show = !hidden.has(line.key);
      if (plot.u.series[i + 1].show !== show) plot.u.setSeries(i + 1, { show });
    });
    plot.drawable.lastDrawAt = 0;
    requestDraw(plot.drawable);
  }, [hidden, columns]);

  return <div ref={box} className="chart-plot" style={{ height }} />;
}

/** uPlot canvas of a chart's lines, drawn from their sources on animation frames. */
export const CanvasPlot = memo(CanvasPlotImpl);
