'use client';

/**
 * The SVG renderer (recharts) of TimeChart, for recorded runs: what it draws can be exported as SVG
 * and PNG (history/chart-export.ts clones the <svg>). Rows are read once per set of lines; a
 * transparent layer over the plot area gives the same hover readout and drag-to-zoom as the canvas.
 */
import { memo, useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { CartesianGrid, Line, LineChart, ReferenceArea, ReferenceLine, XAxis, YAxis } from 'recharts';
import { decimateMinMax, MAX_POINTS_PER_SERIES, type Point } from '@/lib/series/decimate';
import { maxOfLines } from './line-columns';
import { writeUnit, type PlotProps } from './CanvasPlot';
import { formatScaled, formatSecondsTick, pickScale, ticksBetween } from './units';
import { BAND_COLOR, niceTop, REFERENCE_COLOR } from './uplot-options';

// Plot area inside the recharts surface: margins plus the axes' sizes (kept in step with the JSX).
const MARGIN = { top: 8, right: 12, bottom: 0, left: 0 };
const Y_AXIS_WIDTH = 44;
const X_AXIS_HEIGHT = 30;
/** A drag shorter than this is a click, not a zoom. */
const MIN_DRAG_PX = 5;

/** The line's points in display units with a null inside each gap: recharts breaks the line there (connectNulls is off). */
function withBreaks(points: readonly Point[], gaps: ReadonlyArray<readonly [number, number]>, divisor: number): Array<{ x: number; y: number | null }> {
  const out: Array<{ x: number; y: number | null }> = [];
  let g = 0;
  for (const p of points) {
    while (g < gaps.length && gaps[g][1] <= p.x) {
      out.push({ x: (gaps[g][0] + gaps[g][1]) / 2, y: null });
      g++;
    }
    out.push({ x: p.x, y: p.y / divisor });
  }
  return out;
}

/** A dot at a reading with a gap on both sides (a line alone would not show it), nothing elsewhere. */
function loneDot(times: ReadonlySet<number>, color: string) {
  function LoneDot(props: { cx?: number; cy?: number; payload?: { x: number }; index?: number }) {
    if (!props.payload || !times.has(props.payload.x) || props.cx === undefined || props.cy === undefined) return <g key={props.index} />;
    return <circle key={props.index} cx={props.cx} cy={props.cy} r={2.5} fill={color} />;
  }
  return LoneDot;
}

export interface SvgPlotProps extends PlotProps {
  maxPointsPerSeries?: number;
  /** The y axis reaches at least this value (charts compared side by side). */
  yAtLeast?: number;
}

function SvgPlotImpl({
  columns,
  height,
  hidden,
  log,
  zoomable,
  fixedScale,
  referenceLines,
  bands,
  rootRef,
  hover,
  maxPointsPerSeries = MAX_POINTS_PER_SERIES,
  yAtLeast = 0,
}: SvgPlotProps) {
  const [zoom, setZoom] = useState<[number, number] | null>(null);
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null);
  const layer = useRef<HTMLDivElement>(null);

  const unit = columns.lines[0]?.unit ?? 'bytes';
  const { points, breaks, xMax, rows } = useMemo(() => {
    columns.pull();
    const lineBreaks = columns.lines.map((_, i) => columns.breaksOf(i));
    const pts = columns.lines.map((_, i) => {
      const { x, y } = columns.columnsOf(i);
      const out: Point[] = [];
      // A log axis has no place for zero: those points are left out rather than drawn at the bottom.
      for (let k = 0; k < x.length; k++) if (Number.isFinite(y[k]) && (!log || y[k] > 0)) out.push({ x: x[k], y: y[k] });
      return decimateMinMax(out, maxPointsPerSeries);
    });
    const last = Math.max(0, ...columns.groups.map((g) => (g.x.length > 0 ? g.x.view()[g.x.length - 1] : 0)));
    return { points: pts, breaks: lineBreaks, xMax: last, rows: columns.rowCount() };
  }, [columns, log, maxPointsPerSeries]);

  const refMax = Math.max(0, ...referenceLines.map((r) => r.y));
  const top = niceTop(Math.max(maxOfLines(columns, hidden), refMax, yAtLeast), unit);
  const scale = fixedScale ?? pickScale(unit, top);
  const domain: [number, number] = zoom ?? [0, xMax > 0 ? xMax : 1];

  // A passive effect: the chart element's ref is attached after its children's layout effects run.
  useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    root.dataset.points = String(rows);
    root.dataset.drawn = String(rows > 0);
    writeUnit(root, scale.suffix);
    root.dataset.yMax = String(top);
  }, [rows, scale.suffix, top, rootRef]);

  const timeAt = (e: MouseEvent) => {
    const r = layer.current!.getBoundingClientRect();
    const left = Math.min(Math.max(0, e.clientX - r.left), r.width);
    return { t: domain[0] + (left / r.width) * (domain[1] - domain[0]), left, width: r.width, yMax: top };
  };
  const onMove = (e: MouseEvent) => {
    const h = timeAt(e);
    hover.set(h);
    if (drag) setDrag({ ...drag, to: h.t });
  };
  const onUp = (e: MouseEvent) => {
    if (!drag) return;
    const end = timeAt(e);
    const r = layer.current!.getBoundingClientRect();
    const px = (Math.abs(end.t - drag.from) / (domain[1] - domain[0])) * r.width;
    if (px >= MIN_DRAG_PX) setZoom([Math.min(drag.from, end.t), Math.max(drag.from, end.t)]);
    setDrag(null);
  };
  const toPct = (t: number) => `${((t - domain[0]) / (domain[1] - domain[0])) * 100}%`;
  const lowY = log ? top / scale.divisor / 1e4 : 0;

  return (
    <div className="chart-plot" style={{ height, position: 'relative' }}>
      <LineChart responsive style={{ width: '100%', height }} margin={MARGIN}>
        <CartesianGrid stroke="#e3e6ea" strokeDasharray="3 3" />
        <XAxis
          type="number"
          dataKey="x"
          domain={domain}
          allowDataOverflow
          ticks={ticksBetween(domain[0] / 1000, domain[1] / 1000, 5).map((sec) => sec * 1000)}
          tickFormatter={(ms: number) => formatSecondsTick(ms / 1000)}
          tick={{ fontSize: 11 }}
          height={X_AXIS_HEIGHT}
          allowDuplicatedCategory={false}
        />
        <YAxis
          width={Y_AXIS_WIDTH}
          scale={log ? 'log' : 'linear'}
          domain={[lowY, top / scale.divisor]}
          allowDataOverflow
          ticks={log ? undefined : ticksBetween(0, top / scale.divisor)}
          tickFormatter={formatScaled}
          tick={{ fontSize: 11 }}
          label={{ value: scale.suffix, angle: -90, position: 'insideLeft', offset: 12, fontSize: 11 }}
        />
        {bands.map((b) => (
          <ReferenceArea key={`band-${b.label}`} x1={b.fromMs} x2={b.toMs} fill={b.color ?? BAND_COLOR} fillOpacity={1} ifOverflow="hidden" />
        ))}
        {referenceLines.map((r) => (
          <ReferenceLine key={`ref-${r.label}`} y={r.y / scale.divisor} stroke={r.color ?? REFERENCE_COLOR} strokeWidth={1.5} strokeDasharray="5 3" />
        ))}
        {columns.lines.map((line, i) =>
          hidden.has(line.key) ? null : (
            <Line
              key={line.key}
              data={withBreaks(points[i], breaks[i].gaps, scale.divisor)}
              dataKey="y"
              name={line.label}
              type="linear"
              stroke={line.color}
              strokeWidth={line.emphasis ? 2.5 : 1.5}
              strokeDasharray={line.dash && line.dash.length > 0 ? line.dash.join(' ') : undefined}
              dot={breaks[i].isolated.length > 0 ? loneDot(new Set(breaks[i].isolated), line.color) : false}
              activeDot={false}
              isAnimationActive={false}
            />
          ),
        )}
      </LineChart>
      <div
        ref={layer}
        className="chart-hit-layer"
        style={{ left: MARGIN.left + Y_AXIS_WIDTH, right: MARGIN.right, top: MARGIN.top, bottom: X_AXIS_HEIGHT }}
        onMouseMove={onMove}
        onMouseLeave={() => {
          hover.set(null);
          setDrag(null);
        }}
        onMouseDown={(e) => zoomable && setDrag({ from: timeAt(e).t, to: timeAt(e).t })}
        onMouseUp={onUp}
        onDoubleClick={() => setZoom(null)}
      >
        {drag && (
          <div
            className="chart-selection"
            style={{
              left: toPct(Math.min(drag.from, drag.to)),
              width: `calc(${toPct(Math.max(drag.from, drag.to))} - ${toPct(Math.min(drag.from, drag.to))})`,
            }}
          />
        )}
      </div>
    </div>
  );
}

/** recharts SVG of a chart's lines (recorded data), decimated to a bounded number of points per series. */
export const SvgPlot = memo(SvgPlotImpl);
