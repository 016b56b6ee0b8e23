'use client';

/** The hover readout: every visible series at the hovered time, each at its own nearest sample. */
import type { ChartColumns } from './line-columns';
import { valueNear } from './line-columns';
import { useHover, type HoverStore } from './hover';
import { formatSecondsReadout, formatWithScale, pickScale, type DisplayScale } from './units';

export interface ChartReadoutProps {
  columns: ChartColumns<unknown>;
  hidden: ReadonlySet<string>;
  hover: HoverStore;
  fixedScale: DisplayScale | null;
  /** Left offset of the plot area within the chart, in px. */
  plotLeft: number;
}

/** A line's value at `t`: its nearest sample, or none when `t` lies outside the line's samples. */
function readAt(columns: ChartColumns<unknown>, index: number, t: number): number | null {
  const { x, y } = columns.columnsOf(index);
  if (x.length === 0) return null;
  // Past a run's end (or before its start), by more than two sample intervals, it has no value.
  const slack = x.length > 1 ? (2 * (x[x.length - 1] - x[0])) / (x.length - 1) : 0;
  if (t < x[0] - slack || t > x[x.length - 1] + slack) return null;
  return valueNear(x, y, t)?.value ?? null;
}

/** Floating box beside the pointer; nothing while the pointer is away. */
export function ChartReadout({ columns, hidden, hover, fixedScale, plotLeft }: ChartReadoutProps) {
  const h = useHover(hover);
  if (!h) return null;
  const unit = columns.lines[0]?.unit ?? 'bytes';
  const scale = fixedScale ?? pickScale(unit, h.yMax);
  const rows = columns.lines.flatMap((line, i) => (hidden.has(line.key) ? [] : [{ line, value: readAt(columns, i, h.t) }]));
  const onRight = h.left < h.width / 2;
  const style = onRight ? { left: plotLeft + h.left + 12 } : { right: `calc(100% - ${plotLeft + h.left - 12}px)` };
  return (
    <>
      <div className="chart-cursor" style={{ left: plotLeft + h.left }} aria-hidden="true" />
      <div className="chart-readout" data-testid="chart-readout" data-time-ms={Math.round(h.t)} style={style} aria-live="off">
        <div className="chart-readout-time">{formatSecondsReadout(Math.max(0, h.t))}</div>
        <ul>
          {rows.map(({ line, value }) => (
            <li key={line.key} data-series-key={line.key} data-value={value ?? ''}>
              <span className="chart-swatch" style={{ background: line.color }} aria-hidden="true" />
              <span className="chart-readout-label">{line.label}</span>
              <b>{value === null ? '–' : formatWithScale(value, scale)}</b>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
