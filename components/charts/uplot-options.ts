/**
 * The uPlot options of a live chart: time axis in seconds, one y axis whose unit follows the
 * values shown (or a scale shared with other charts), reference lines, drag-to-zoom when asked.
 * uPlot's own legend is off: the chart frame renders the legend and the readout in React.
 */
import uPlot from 'uplot';
import type { ChartLine } from './chart-lines';
import { niceCeil } from './scale-group';
import { formatScaled, formatSecondsTick, ticksBetween, type DisplayScale, type SeriesUnit } from './units';

export interface ReferenceLine {
  /** In the chart's raw unit (bytes for memory). */
  y: number;
  label: string;
  color?: string;
}

export const REFERENCE_COLOR = '#000000';

/** A stretch of the time axis shaded behind the lines (the deadlines lab's spike, a heap snapshot's pause), in ms since the run's start. */
export interface TimeBand {
  fromMs: number;
  toMs: number;
  /** Unique among a chart's bands. */
  label: string;
  /** Fill; BAND_COLOR unless said. */
  color?: string;
}

export const BAND_COLOR = 'rgba(213, 94, 0, 0.12)';

export interface PlotSettings {
  lines: readonly ChartLine<unknown>[];
  width: number;
  height: number;
  log: boolean;
  hidden: ReadonlySet<string>;
  referenceLines: readonly ReferenceLine[];
  bands: readonly TimeBand[];
  /** Where line i (in `lines` order) has no reading, and its lone readings (line-columns.ts breaksOf). */
  breaksOf(lineIndex: number): { gaps: Array<[number, number]>; isolated: number[] };
  /** The top of the y axis in raw units (own maximum or the shared one); 0 = nothing yet. */
  yTop(): number;
  /** The display scale of the y axis for a top value (fixed or chosen from it). */
  displayScale(top: number): DisplayScale;
  onCursor(u: uPlot): void;
}

/** A y axis top with some headroom, on a round number (1024-steps for bytes). */
export function niceTop(max: number, unit: SeriesUnit): number {
  return niceCeil(max * 1.05, unit === 'bytes' ? 1024 : 1000);
}

function yRange(s: PlotSettings): uPlot.Range.Function {
  return (_u, dataMin, _dataMax) => {
    const top = s.yTop() > 0 ? s.yTop() : 1;
    if (!s.log) return [0, top];
    // Zero and below have no place on a log axis: start a few decades under the top, or at the data.
    return [dataMin > 0 ? Math.max(top / 1e6, Math.min(dataMin, top / 10)) : top / 1e4, top];
  };
}

/** Ticks on round numbers (1, 2 or 5 × 10ⁿ) of the display unit (0, 20, 40 MB), not of raw bytes (23.8, 47.7 MB). */
function linearSplits(s: PlotSettings): uPlot.Axis.Splits {
  return (_u, _axisIdx, min, max) => {
    const { divisor } = s.displayScale(max);
    return ticksBetween(min / divisor, max / divisor).map((v) => v * divisor);
  };
}

/** Time ticks on round seconds (0, 2, 4, 6 s; 0, 0.5, 1 s), about five across. */
const secondSplits: uPlot.Axis.Splits = (_u, _axisIdx, min, max) => ticksBetween(min / 1000, max / 1000, 5).map((v) => v * 1000);

/** Log ticks at 1, 2 and 5 × 10^k of the display unit (1, 10, 100 MB), not of raw bytes. */
function logSplits(s: PlotSettings): uPlot.Axis.Splits {
  return (_u, _axisIdx, min, max) => {
    const { divisor } = s.displayScale(max);
    const out: number[] = [];
    for (let k = Math.floor(Math.log10(min / divisor)); k <= Math.ceil(Math.log10(max / divisor)); k++) {
      for (const m of [1, 2, 5]) {
        const v = m * 10 ** k * divisor;
        if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9)) out.push(v);
      }
    }
    return out;
  };
}

function drawReferenceLines(u: uPlot, refs: readonly ReferenceLine[]): void {
  if (refs.length === 0) return;
  const ctx = u.ctx;
  ctx.save();
  ctx.lineWidth = 1.5 * devicePixelRatio;
  ctx.setLineDash([5 * devicePixelRatio, 3 * devicePixelRatio]);
  for (const r of refs) {
    const y = Math.round(u.valToPos(r.y, 'y', true));
    ctx.strokeStyle = r.color ?? REFERENCE_COLOR;
    ctx.beginPath();
    ctx.moveTo(u.bbox.left, y);
    ctx.lineTo(u.bbox.left + u.bbox.width, y);
    ctx.stroke();
  }
  ctx.restore();
}

function drawBands(u: uPlot, bands: readonly TimeBand[]): void {
  if (bands.length === 0) return;
  const ctx = u.ctx;
  ctx.save();
  for (const b of bands) {
    ctx.fillStyle = b.color ?? BAND_COLOR;
    const from = u.valToPos(b.fromMs, 'x', true);
    // A short stretch (a 100 ms pause in a minute's run) stays visible: at least 2 px wide.
    const to = Math.max(u.valToPos(b.toMs, 'x', true), from + 2 * devicePixelRatio);
    const left = Math.max(u.bbox.left, from);
    const right = Math.min(u.bbox.left + u.bbox.width, to);
    if (right > left) ctx.fillRect(left, u.bbox.top, right - left, u.bbox.height);
  }
  ctx.restore();
}

type Breaks = Map<number, { gaps: Array<[number, number]>; isolated: number[] }>;

/** A series' gaps as uPlot wants them (canvas px along x); its breaks are kept for the points drawn next. */
function pixelGaps(u: uPlot, s: PlotSettings, breaks: Breaks, seriesIdx: number): uPlot.Series.Gaps {
  const b = s.breaksOf(seriesIdx - 1);
  breaks.set(seriesIdx, b);
  return b.gaps.map(([from, to]) => [u.valToPos(from, 'x', true), u.valToPos(to, 'x', true)]);
}

/** Indices (in the drawn data) of a series' readings with a gap on both sides: a dot each, else they would not show. */
function lonePoints(u: uPlot, breaks: Breaks, seriesIdx: number): number[] | null {
  const lone = breaks.get(seriesIdx)?.isolated;
  if (!lone || lone.length === 0) return null;
  const xs = u.data[0];
  return lone.map((t) => {
    let lo = 0;
    let hi = xs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (xs[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  });
}

/** uPlot options for the settings; changing lines, log or zoomability means new options. */
export function plotOptions(s: PlotSettings): uPlot.Options {
  const axisFont = '11px system-ui, sans-serif';
  const breaks: Breaks = new Map();
  return {
    width: s.width,
    height: s.height,
    legend: { show: false },
    padding: [8, 12, 0, 0],
    cursor: {
      // uPlot's cursor lines are composited layers (will-change); a dozen charts' worth made every
      // frame's commit slow. The readout draws a plain line instead.
      x: false,
      y: false,
      // Switched on later (LivePlot.setZoomable) once the data stops changing.
      drag: { x: false, y: false, setScale: false },
      points: { show: false },
    },
    scales: {
      x: { time: false, range: (_u, min, max) => [Math.min(0, min), max > min ? max : min + 1000] },
      y: { distr: s.log ? 3 : 1, range: yRange(s) },
    },
    axes: [
      {
        font: axisFont,
        size: 28,
        splits: secondSplits,
        values: (_u, splits) => splits.map((ms) => formatSecondsTick(ms / 1000)),
        grid: { stroke: '#e3e6ea', dash: [3, 3] },
      },
      {
        font: axisFont,
        size: 44,
        splits: s.log ? logSplits(s) : linearSplits(s),
        values: (u, splits) => {
          const scale = s.displayScale(u.scales.y.max ?? 0);
          // A log axis filters its minor ticks to null: they get no label.
          return splits.map((v) => (v == null ? '' : formatScaled(v / scale.divisor)));
        },
        grid: { stroke: '#e3e6ea', dash: [3, 3] },
      },
    ],
    series: [
      {},
      ...s.lines.map((line) => ({
        label: line.label,
        stroke: line.color,
        width: line.emphasis ? 2.5 : 1.5,
        dash: line.dash && line.dash.length > 0 ? [...line.dash] : undefined,
        show: !s.hidden.has(line.key),
        // Gaps come from the lines' own times (lib/series/gaps.ts), not from nulls: the columns
        // are typed arrays, and several sources joined leave holes that are no missing reading.
        spanGaps: false,
        gaps: (u: uPlot, seriesIdx: number) => pixelGaps(u, s, breaks, seriesIdx),
        points: { show: false, size: 5, fill: line.color, filter: (u: uPlot, seriesIdx: number) => lonePoints(u, breaks, seriesIdx) },
      })),
    ],
    hooks: {
      // Behind the lines: drawn on the cleared canvas before the series.
      drawClear: [(u) => drawBands(u, s.bands)],
      draw: [(u) => drawReferenceLines(u, s.referenceLines)],
      setCursor: [s.onCursor],
    },
  };
}
