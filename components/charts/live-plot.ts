/**
 * One canvas chart apart from React: subscribes to its sources, takes their new rows into its
 * columns, and draws with uPlot when the draw scheduler says so. The uPlot instance is built on the
 * chart's first draw, not when React mounts it, so a dozen cards appearing at once are built over
 * several frames (and a card out of view is not built until it is scrolled to).
 */
import uPlot from 'uplot';
import { recordDrawnSamples } from '@/components/instrumentation';
import { cancelDraw, requestDraw, type Drawable } from './draw-scheduler';
import { maxOfLines, type ChartColumns } from './line-columns';
import type { HoverStore } from './hover';
import type { ScaleGroup } from './scale-group';
import { pickScale, type DisplayScale } from './units';
import { niceTop, plotOptions, type ReferenceLine, type TimeBand } from './uplot-options';

/** Width before the first ResizeObserver report (a card's plot is about this wide at 1280 px). */
const INITIAL_WIDTH = 300;

export interface LivePlotConfig {
  columns: ChartColumns<unknown>;
  height: number;
  log: boolean;
  fixedScale: DisplayScale | null;
  referenceLines: readonly ReferenceLine[];
  bands: readonly TimeBand[];
  scaleGroup: ScaleGroup | null;
  hover: HoverStore;
  /** The chart's element, on which data-points, data-y-unit and data-y-max are kept current. */
  root(): HTMLElement | null;
  reportsTiming: boolean;
}

type Added = ReturnType<ChartColumns<unknown>['pull']>;

function recordTiming(added: Added): void {
  const drawn = added
    .filter((a) => a.source.runId !== null)
    .map((a) => ({ runId: a.source.runId!, ats: a.rows.map((r) => (r as { at?: number }).at ?? Date.now()) }));
  if (drawn.length > 0) recordDrawnSamples(drawn);
}

/** True when the x axis shows less than all the data (the user dragged a zoom). */
function isZoomed(u: uPlot): boolean {
  const xs = u.data?.[0];
  const { min, max } = u.scales.x;
  if (!xs || xs.length === 0 || min == null || max == null) return false;
  return min > Math.min(0, xs[0]) || max < xs[xs.length - 1];
}

/** Shows the y unit the axis picked, on the chart element (data-y-unit) and in its toolbar. */
export function writeUnit(root: HTMLElement, suffix: string): void {
  if (root.dataset.yUnit === suffix) return;
  root.dataset.yUnit = suffix;
  const label = root.querySelector('.chart-unit');
  if (label) label.textContent = suffix;
}

export class LivePlot implements Drawable {
  visible = true;
  lastDrawAt = 0;
  private u: uPlot | null = null;
  private hidden: ReadonlySet<string> = new Set();
  private zoomable = false;
  private ownMax = 0;
  private width = INITIAL_WIDTH;
  /** Rows taken in while out of view count as drawn when they are first on screen. */
  private undrawn: Added = [];
  private readonly refMax: number;
  private readonly disposers: Array<() => void> = [];

  constructor(
    private readonly el: HTMLElement,
    private readonly c: LivePlotConfig,
  ) {
    this.refMax = Math.max(0, ...c.referenceLines.map((r) => r.y));
    const leave = c.scaleGroup?.join(this, () => requestDraw(this));
    if (leave) this.disposers.push(leave);
    for (const g of c.columns.groups) this.disposers.push(g.source.subscribe(() => requestDraw(this)));
    const seen = new IntersectionObserver((entries) => {
      this.visible = entries.at(-1)?.isIntersecting ?? true;
      if (!this.visible) return;
      this.lastDrawAt = 0;
      requestDraw(this);
    });
    seen.observe(el);
    // Reading the element's width directly would force a layout per chart; the observer reports it after the browser's own.
    const resized = new ResizeObserver((entries) => {
      const width = Math.round(entries.at(-1)?.contentRect.width ?? 0);
      if (width <= 0 || Math.abs(width - this.width) <= 1) return;
      this.width = width;
      this.u?.setSize({ width, height: c.height });
    });
    resized.observe(el);
    this.disposers.push(
      () => seen.disconnect(),
      () => resized.disconnect(),
    );
    // The sources may already hold rows (a reload, a finished run).
    requestDraw(this);
  }

  private yTop = (): number => {
    const own = Math.max(this.ownMax, this.refMax);
    const shared = this.c.scaleGroup?.max() ?? 0;
    return shared > 0 ? shared : own > 0 ? niceTop(own, this.c.columns.lines[0]?.unit ?? 'bytes') : 0;
  };

  private displayScale = (top: number): DisplayScale => this.c.fixedScale ?? pickScale(this.c.columns.lines[0]?.unit ?? 'bytes', top);

  private build(): uPlot {
    const { columns, height, log, referenceLines, bands, hover } = this.c;
    const u = new uPlot(
      plotOptions({
        lines: columns.lines,
        width: this.width,
        height,
        log,
        hidden: this.hidden,
        referenceLines,
        bands,
        breaksOf: (i) => columns.breaksOf(i),
        yTop: this.yTop,
        displayScale: this.displayScale,
        onCursor: (plot) => {
          const left = plot.cursor.left ?? -1;
          hover.set(left >= 0 ? { t: plot.posToVal(left, 'x'), left, width: plot.bbox.width / devicePixelRatio, yMax: plot.scales.y.max ?? 0 } : null);
        },
      }),
      undefined,
      this.el,
    );
    u.cursor.drag!.x = u.cursor.drag!.setScale = this.zoomable;
    return u;
  }

  sync(): void {
    const added = this.c.columns.pull();
    if (this.c.reportsTiming && added.length > 0) this.undrawn = this.undrawn.concat(added);
    const root = this.c.root();
    if (root) root.dataset.points = String(this.c.columns.rowCount());
  }

  draw(): void {
    this.sync();
    const u = (this.u ??= this.build());
    this.ownMax = maxOfLines(this.c.columns, this.hidden);
    this.c.scaleGroup?.report(this, Math.max(this.ownMax, this.refMax));
    // batch() draws now rather than in a microtask, so the scheduler's frame budget sees the cost;
    // a zoomed chart keeps its zoom.
    const data = this.c.columns.aligned();
    u.batch(() => u.setData(data, !(this.zoomable && isZoomed(u))));
    const root = this.c.root();
    if (root) {
      // The earliest time drawn (the x axis' unit): tests tell a run's restored history from new samples by it.
      root.dataset.firstX = data[0].length > 0 ? String(data[0][0]) : '';
      writeUnit(root, this.displayScale(u.scales.y.max ?? 0).suffix);
      root.dataset.yMax = String(u.scales.y.max ?? 0);
      root.dataset.drawn = String(this.c.columns.rowCount() > 0);
    }
    if (this.undrawn.length > 0) recordTiming(this.undrawn);
    this.undrawn = [];
    // Until a sample is on screen every draw is a "first" one: the first sample must not wait for a round.
    if (this.c.columns.rowCount() === 0) this.lastDrawAt = 0;
  }

  /** Hides and shows series; the y range follows on the redraw. */
  setHidden(hidden: ReadonlySet<string>): void {
    this.hidden = hidden;
    this.c.columns.lines.forEach((line, i) => {
      const show = !hidden.has(line.key);
      if (this.u && this.u.series[i + 1].show !== show) this.u.setSeries(i + 1, { show });
    });
    this.lastDrawAt = 0;
    requestDraw(this);
  }

  /** Drag-to-zoom on or off (on once a run's data stops changing). */
  setZoomable(zoomable: boolean): void {
    this.zoomable = zoomable;
    if (this.u) this.u.cursor.drag!.x = this.u.cursor.drag!.setScale = zoomable;
  }

  destroy(): void {
    cancelDraw(this);
    for (const d of this.disposers) d();
    this.c.hover.set(null);
    this.u?.destroy();
    this.u = null;
  }
}
