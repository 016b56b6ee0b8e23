/**
 * What a run card shows under its charts, per lab: progress (the bar and the words beside it) and a
 * few figures. A finished run shows its summary's peaks and maxima; a running one its latest
 * sample, labelled "now". Pure, so each lab's card module only says what is its own.
 */
import type { ProcSample, RunState, RunSummary, Sample } from '@/lib/protocol';
import { formatMb, formatMs, formatSeconds } from '@/lib/readouts/format';
import { peakRssOf } from '@/lib/readouts/outcome-text';

export interface Figure {
  id: string;
  term: string;
  value: number | null;
  text: string;
  /**
   * "now" while running, "peak"/"max" from the summary once ended, "total" for a sum over the run,
   * "overall" for a rate or percentile over the whole run, "last" for a run without a summary.
   */
  kind: 'now' | 'peak' | 'max' | 'last' | 'total' | 'overall';
  /** Marked on the card: the figure shows the fault the strategy is there to show (the leaky pool's listeners). */
  alert?: boolean;
}

export interface CardProgress {
  /** 0..1 of the run's work done. */
  fraction: number;
  /** Beside the bar: "12 of 31 MB (40%) · 6.2 MB/s · ETA 3.1 s". */
  text: string;
  /** The bar's accessible name: what the fraction is a share of. */
  label: string;
}

/** What a card's figures may read beyond the latest samples: the run (its params) and all its samples so far (a rate over the recent ones). */
export interface FigureContext {
  run: Pick<RunState, 'lab' | 'params'>;
  samples: readonly Sample[];
}

/** What a lab's card adds to the frame every card shares. */
export interface CardLab {
  /** While the lab prepares the run's data ("Preparing the data file"). */
  preparing(run: RunState): string;
  progress(run: RunState, samples: readonly Sample[], active: boolean): CardProgress;
  /** `role`: the strategy's declared role in its lab (the catalog's), when known. */
  figures(summary: RunSummary | null, last: Sample | undefined, lastProc: ProcSample | undefined, role?: string | null, context?: FigureContext): Figure[];
}

/** "· 6.2 MB/s · ETA 3.1 s": the rate and time left of a live run, when they are known. */
export function paceText(rate: string | null, etaMs: number | null, fraction: number, live: boolean): string {
  const parts: string[] = [];
  if (live && rate !== null) parts.push(rate);
  if (live && etaMs !== null && fraction < 1) parts.push(`ETA ${formatSeconds(etaMs)}`);
  return parts.map((p) => ` · ${p}`).join('');
}

/** The event-loop delay: the summary's maximum, or the latest sample's. */
export function eventLoopFigure(summary: RunSummary | null, last: Sample | undefined): Figure {
  if (summary)
    return {
      id: 'el-delay',
      term: 'Event-loop delay',
      value: summary.eventLoopDelayMs.max,
      text: `${summary.eventLoopDelayMs.max.toFixed(1)} ms`,
      kind: 'max',
    };
  return { id: 'el-delay', term: 'Event-loop delay', value: last?.elMaxMs ?? null, text: last ? `${last.elMaxMs.toFixed(1)} ms` : '–', kind: 'now' };
}

/** CPU: the whole run's time and peak once ended (none for runs recorded before CPU was measured), the latest % while running. */
export function cpuFigures(summary: RunSummary | null, last: Sample | undefined, lastProc: ProcSample | undefined, term = 'CPU'): Figure[] {
  if (summary) {
    const cpu = summary.cpu;
    if (!cpu) return [];
    const ms = cpu.userMs + cpu.systemMs;
    return [{ id: 'cpu', term, value: ms, text: `up to ${cpu.peakPct.toFixed(0)}% of a core, ${formatSeconds(ms)}`, kind: 'total' }];
  }
  const pct = last?.cpuPct ?? lastProc?.cpuPct;
  return [{ id: 'cpu', term, value: pct ?? null, text: pct === undefined ? '–' : `${pct.toFixed(0)}% of a core`, kind: 'now' }];
}

/** One memory field of the run's own process: the summary's peak, or the latest sample's. */
function memoryFigure(field: 'heapUsed' | 'arrayBuffers', id: string, summary: RunSummary | null, last: Sample | undefined): Figure {
  if (summary) {
    const peak = summary.peak?.[field] ?? null;
    return { id, term: field, value: peak, text: formatMb(peak), kind: 'peak' };
  }
  return { id, term: field, value: last?.[field] ?? null, text: last ? formatMb(last[field]) : '–', kind: 'now' };
}

/**
 * RSS: once ended, the run's peak as the results table gives it (the higher of the child's own
 * samples and the /proc readings: an out-of-memory kill is seen from outside first); while it runs,
 * the latest /proc reading.
 */
function rssOutsideFigure(summary: RunSummary | null, lastProc: ProcSample | undefined): Figure {
  if (summary) {
    const peak = peakRssOf(summary);
    return { id: 'rss-outside', term: 'RSS', value: peak, text: formatMb(peak), kind: 'peak' };
  }
  return { id: 'rss-outside', term: 'RSS from outside', value: lastProc?.rss ?? null, text: lastProc ? formatMb(lastProc.rss) : '–', kind: 'now' };
}

/** The figures of a card about one process's memory: event-loop delay, one memory field, RSS from outside, CPU. */
export function processFigures(
  field: 'heapUsed' | 'arrayBuffers',
  summary: RunSummary | null,
  last: Sample | undefined,
  lastProc: ProcSample | undefined,
): Figure[] {
  const id = field === 'heapUsed' ? 'heap-used' : 'array-buffers';
  return [eventLoopFigure(summary, last), memoryFigure(field, id, summary, last), rssOutsideFigure(summary, lastProc), ...cpuFigures(summary, last, lastProc)];
}

/**
 * The frame's last word on a card's figures, for every lab. While the loop is blocked (`blockedMs`,
 * lib/readouts/blocked.ts) the child's latest sample is stale: the event-loop delay is at least the
 * block so far, the CPU is the /proc reading's, and the heap the watcher thread's when it read one. A run that ended with no sample measured
 * nothing: every figure is a dash, not a 0 (a run stopped before it started).
 */
export function truthfulFigures(figures: Figure[], summary: RunSummary | null, blockedMs: number | null, lastProc: ProcSample | undefined): Figure[] {
  if (summary && summary.sampleCount === 0) return figures.map((f) => ({ ...f, value: null, text: '–' }));
  if (blockedMs === null) return figures;
  return figures.map((f) => {
    if (f.id === 'el-delay' && f.kind === 'now') return { ...f, value: blockedMs, text: `≥ ${formatSeconds(blockedMs)} (blocked)`, alert: true };
    if (f.id === 'cpu' && f.kind === 'now' && lastProc?.cpuPct !== undefined)
      return { ...f, value: lastProc.cpuPct, text: `${lastProc.cpuPct.toFixed(0)}% of a core (from /proc)` };
    // The child's watcher thread read the heap mid-block (server/child/block-heap.ts).
    if (f.id === 'heap-used' && f.kind === 'now' && lastProc?.heapUsed !== undefined)
      return { ...f, value: lastProc.heapUsed, text: `${formatMb(lastProc.heapUsed)} (read while blocked)` };
    return f;
  });
}

/** A latency as a card writes it, "–" before there is one. */
export function latencyText(ms: number | undefined): string {
  return ms === undefined ? '–' : formatMs(ms);
}
