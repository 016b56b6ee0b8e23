/**
 * The common part of every run's summary, folded from what the runner learns (samples, /proc
 * readings, the child's final report); the lab's FigureRecorder adds its own figures. Pure.
 */
import {
  MEMORY_FIELDS,
  type Memory,
  type Outcome,
  type ProcSample,
  type ProfileSummary,
  type HeapProfileSummary,
  type HeapSnapshotSummary,
  type RunSummary,
  type Sample,
} from '../../lib/protocol';
import { emptyMemory, foldMax, foldPeaks } from '../../lib/series';
import type { FigureRecorder } from '../../labs/types';
import { availableParallelism } from 'node:os';

/**
 * CPU % over an interval shorter than this stays out of the peak: the first sample comes a few
 * microseconds after the sampler starts, and /proc counts 10 ms ticks, so a tick or two over a short
 * interval reads as hundreds of % (313.7 % on 2 cores, issue 38).
 */
export const MIN_CPU_INTERVAL_MS = 50;

export interface RunFacts {
  lab: string;
  runId: string;
  strategy: string;
  outcome: Outcome;
  reason: string | null;
  durationMs: number;
  params: Record<string, unknown>;
  library: { name: string; version: string };
  startedAt: number;
}

export class RunRecorder {
  /** Null until a sample comes, and so in a run that never started: not measured is not 0. */
  peak: Memory | null = null;
  idle: Memory | null = null;
  last: Sample | null = null;
  /** Null until /proc is read. */
  procPeakRss: number | null = null;
  /** The latest /proc reading since the strategy started: what a heap snapshot's "before" takes while the samples are held up. */
  lastProc: ProcSample | null = null;
  sampleCount = 0;
  eventLoop = { p50: 0, p99: 0, max: 0 };
  cpu: { userMs: number; systemMs: number } | null = null;
  peakCpuPct = 0;
  private lastProcT: number | null = null;
  /** The Node the child said it runs (its 'ready'); until then the runtime the run asked for. */
  nodeVersion: string = process.versions.node;
  /** A profiled run's profile in brief (server/runner/profiler.ts); unset for other runs. */
  profile: ProfileSummary | undefined = undefined;
  /** A heap-profiled run's allocations in brief, and the run's heap snapshots (server/runner/heap-watch.ts). */
  heapProfile: HeapProfileSummary | undefined = undefined;
  heapSnapshots: HeapSnapshotSummary[] | undefined = undefined;
  /** The child's long tasks, named by the profile when there is one. */
  longTasks: Array<{ endUs: number; durationMs: number; top: string[] }> | undefined = undefined;

  /** `maxCpuPct`: all of this machine's cores, the most any process can use (the peak stops there). */
  constructor(
    readonly figures: FigureRecorder,
    private readonly maxCpuPct: number = availableParallelism() * 100,
  ) {}

  /** A CPU reading over `intervalMs`, folded into the peak when the interval is long enough to mean it. */
  private foldCpu(pct: number | undefined, intervalMs: number): void {
    if (pct === undefined || intervalMs < MIN_CPU_INTERVAL_MS) return;
    this.peakCpuPct = Math.max(this.peakCpuPct, Math.min(pct, this.maxCpuPct));
  }

  addSample(s: Sample): void {
    this.peak = foldPeaks(this.peak, s);
    this.eventLoop.max = Math.max(this.eventLoop.max, s.elMaxMs);
    this.foldCpu(s.cpuPct, s.t - (this.last?.t ?? 0));
    this.figures.addSample(s);
    this.last = s;
    this.sampleCount += 1;
  }

  addProc(p: ProcSample): void {
    this.procPeakRss = foldMax(this.procPeakRss, p.rss);
    this.lastProc = p;
    // The heap the child's watcher thread read while the loop was blocked (server/child/block-heap.ts)
    // is the heap's too: a peak reached mid-block has no sample of its own.
    if (this.peak && p.heapUsed !== undefined && p.heapTotal !== undefined) {
      this.peak.heapUsed = Math.max(this.peak.heapUsed, p.heapUsed);
      this.peak.heapTotal = Math.max(this.peak.heapTotal, p.heapTotal);
    }
    // The first /proc reading has no rate; each later one is over the time since the previous.
    if (this.lastProcT !== null) this.foldCpu(p.cpuPct, p.t - this.lastProcT);
    this.lastProcT = p.t;
  }

  summarize(run: RunFacts): RunSummary {
    const last = this.last;
    const { peak, idle } = this;
    let aboveIdle: Memory | null = null;
    if (peak && idle) {
      aboveIdle = emptyMemory();
      for (const f of MEMORY_FIELDS) aboveIdle[f] = Math.max(0, peak[f] - idle[f]);
    }
    return {
      ...this.figures.figures(run.durationMs),
      ...run,
      peak: peak && { ...peak },
      idle: this.idle,
      aboveIdle,
      procPeakRss: this.procPeakRss,
      eventLoopDelayMs: { ...this.eventLoop },
      gc: { count: last?.gcCount ?? 0, totalMs: last?.gcMs ?? 0 },
      cpu: this.cpu && { ...this.cpu, peakPct: this.peakCpuPct },
      ...(this.profile && { profile: this.profile }),
      ...(this.heapProfile && { heapProfile: this.heapProfile }),
      ...(this.heapSnapshots && { heapSnapshots: this.heapSnapshots }),
      ...(this.longTasks && { longTasks: this.longTasks }),
      sampleCount: this.sampleCount,
      nodeVersion: this.nodeVersion,
    } as RunSummary;
  }
}
