/**
 * A chart's own copy of what it draws: per source, a Float64Array of times and one per line,
 * filled incrementally from the source's rows (only rows added since the last pull are read).
 * Typed arrays go to uPlot as they are, without building point objects on every redraw.
 */
import uPlot from 'uplot';
import type { ChartLine } from './chart-lines';
import { GapFinder, isolatedTimes, lineGaps } from '@/lib/series/gaps';
import type { SampleSource } from './sample-source';

/** A growing Float64Array (capacity doubles); views share its memory. */
export class Column {
  private data = new Float64Array(64);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }

  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }

  clear(): void {
    this.length = 0;
  }
}

/** The columns of the lines that read one source. */
export class SourceColumns<R> {
  readonly x = new Column();
  readonly ys: Column[];
  /** Rows where the pause since the row before is a gap (lib/series/gaps.ts), kept as rows arrive. */
  readonly gapStarts: number[] = [];
  private readonly gaps = new GapFinder();
  private cursor = 0;
  private gen = -1;

  constructor(
    readonly source: SampleSource<R>,
    readonly lines: readonly ChartLine<R>[],
  ) {
    this.ys = lines.map(() => new Column());
  }

  /** Reads rows added since the last pull; returns them (empty when nothing changed). */
  pull(): readonly R[] {
    const rows = this.source.rows();
    if (this.source.generation() !== this.gen || rows.length < this.cursor) {
      this.gen = this.source.generation();
      this.cursor = 0;
      this.x.clear();
      for (const y of this.ys) y.clear();
      this.gapStarts.length = 0;
      this.gaps.reset();
    }
    if (rows.length === this.cursor) return [];
    const time = this.lines[0].time;
    const added = rows.slice(this.cursor);
    for (const row of added) {
      const t = time(row);
      if (this.gaps.push(t)) this.gapStarts.push(this.x.length);
      this.x.push(t);
      for (let i = 0; i < this.lines.length; i++) this.ys[i].push(this.lines[i].value(row));
    }
    this.cursor = rows.length;
    return added;
  }
}

/** Every line of a chart grouped by source, in line order within each group. */
export class ChartColumns<R> {
  readonly groups: SourceColumns<R>[];

  constructor(readonly lines: readonly ChartLine<R>[]) {
    const bySource = new Map<SampleSource<R>, ChartLine<R>[]>();
    for (const line of lines) {
      const list = bySource.get(line.source);
      if (list) list.push(line);
      else bySource.set(line.source, [line]);
    }
    this.groups = [...bySource].map(([source, ls]) => new SourceColumns(source, ls));
  }

  /** Pulls every source; returns the new rows per source that had any. */
  pull(): Array<{ source: SampleSource<R>; rows: readonly R[] }> {
    const out: Array<{ source: SampleSource<R>; rows: readonly R[] }> = [];
    for (const g of this.groups) {
      const rows = g.pull();
      if (rows.length > 0) out.push({ source: g.source, rows });
    }
    return out;
  }

  /** Rows held, summed over sources. */
  rowCount(): number {
    return this.groups.reduce((n, g) => n + g.x.length, 0);
  }

  /** The x and y columns of one line, by its index in `lines`. */
  columnsOf(lineIndex: number): { x: Float64Array; y: Float64Array } {
    const line = this.lines[lineIndex];
    const g = this.groups.find((gr) => gr.source === line.source)!;
    return { x: g.x.view(), y: g.ys[g.lines.indexOf(line)].view() };
  }

  /**
   * Where one line has nothing to draw, as [from, to] times (its source's stalls and its rows
   * without a number), and the times of its readings with a gap on both sides (drawn as dots).
   */
  breaksOf(lineIndex: number): { gaps: Array<[number, number]>; isolated: number[] } {
    const line = this.lines[lineIndex];
    const g = this.groups.find((gr) => gr.source === line.source)!;
    const { x, y } = this.columnsOf(lineIndex);
    const gaps = lineGaps(x, y, g.gapStarts);
    if (gaps.length === 0) return { gaps, isolated: [] };
    let first = 0;
    while (first < y.length && !Number.isFinite(y[first])) first++;
    let last = y.length - 1;
    while (last >= 0 && !Number.isFinite(y[last])) last--;
    return { gaps, isolated: last < first ? [] : isolatedTimes(gaps, x[first], x[last]) };
  }

  /** The joined columns, reused from draw to draw (views of them go to uPlot, which keeps nothing past the next setData). */
  private joined: Column[] = [];

  /**
   * Data for uPlot, series in line order: one source is used as is; several (runs sampled at
   * different times, a run's samples beside its /proc readings) are merged on their times into
   * typed columns, NaN where a source has no row at that time (uPlot's lines pass over a NaN; a
   * missing reading is a gap by breaksOf, not by the merge). Each source's times ascend.
   */
  aligned(): uPlot.AlignedData {
    if (this.groups.length === 0) return [new Float64Array(0)];
    if (this.groups.length === 1) {
      const g = this.groups[0];
      return [g.x.view(), ...g.ys.map((y) => y.view())];
    }
    const out = this.joined.length === this.lines.length + 1 ? this.joined : (this.joined = Array.from({ length: this.lines.length + 1 }, () => new Column()));
    for (const c of out) c.clear();
    // Where each group's lines go in the output (line order).
    const slots = this.groups.map((g) => g.lines.map((line) => 1 + this.lines.indexOf(line)));
    const xs = this.groups.map((g) => g.x.view());
    const ys = this.groups.map((g) => g.ys.map((y) => y.view()));
    const at = this.groups.map(() => 0);
    for (;;) {
      let t = Infinity;
      for (let k = 0; k < xs.length; k++) if (at[k] < xs[k].length && xs[k][at[k]] < t) t = xs[k][at[k]];
      if (t === Infinity) break;
      out[0].push(t);
      for (let k = 0; k < xs.length; k++) {
        const here = at[k] < xs[k].length && xs[k][at[k]] === t;
        for (let j = 0; j < slots[k].length; j++) out[slots[k][j]].push(here ? ys[k][j][at[k]] : NaN);
        if (here) at[k] += 1;
      }
    }
    return out.map((c) => c.view()) as uPlot.AlignedData;
  }
}

/** The value of a line nearest in time to `t` (binary search), or null when the line is empty or NaN there. */
export function valueNear(x: ArrayLike<number>, y: ArrayLike<number>, t: number): { t: number; value: number } | null {
  const n = Math.min(x.length, y.length);
  if (n === 0) return null;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (x[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  const i = lo > 0 && Math.abs(x[lo - 1] - t) <= Math.abs(x[lo] - t) ? lo - 1 : lo;
  return Number.isFinite(y[i]) ? { t: x[i], value: y[i] } : null;
}

/** Largest finite value of the visible lines (0 when none). */
export function maxOfLines(columns: ChartColumns<unknown>, hidden: ReadonlySet<string>): number {
  let max = 0;
  columns.lines.forEach((line, i) => {
    if (hidden.has(line.key)) return;
    const { y } = columns.columnsOf(i);
    for (let k = 0; k < y.length; k++) if (y[k] > max) max = y[k];
  });
  return max;
}
