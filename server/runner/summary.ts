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
import { emptyMemory, foldPeaks } from '../../lib/series';
import type { FigureRecorder } from '../../labs/types';

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
  readonly peak: Memory = emptyMemory();
  idle: Memory | null = null;
  last: Sample | null = null;
  procPeakRss = 0;
  sampleCount = 0;
  eventLoop = { p50: 0, p99: 0, max: 0 };
  cpu: { userMs: number; systemMs: number } | null = null;
  peakCpuPct = 0;
  /** The Node the child said it runs (its 'ready'); until then the runtime the run asked for. */
  nodeVersion: string = process.versions.node;
  /** A profiled run's profile in brief (server/runner/profiler.ts); unset for other runs. */
  profile: ProfileSummary | undefined = undefined;
  /** A heap-profiled run's allocations in brief, and the run's heap snapshots (server/runner/heap-watch.ts). */
  heapProfile: HeapProfileSummary | undefined = undefined;
  heapSnapshots: HeapSnapshotSummary[] | undefined = undefined;
  /** The child's long tasks, named by the profile when there is one. */
  longTasks: Array<{ endUs: number; durationMs: number; top: string[] }> | undefined = undefined;

  constructor(readonly figures: FigureRecorder) {}

  addSample(s: Sample): void {
    foldPeaks(this.peak, s);
    this.eventLoop.max = Math.max(this.eventLoop.max, s.elMaxMs);
    this.peakCpuPct = Math.max(this.peakCpuPct, s.cpuPct ?? 0);
    this.figures.addSample(s);
    this.last = s;
    this.sampleCount += 1;
  }

  addProc(p: ProcSample): void {
    this.procPeakRss = Math.max(this.procPeakRss, p.rss);
    this.peakCpuPct = Math.max(this.peakCpuPct, p.cpuPct ?? 0);
  }

  summarize(run: RunFacts): RunSummary {
    const last = this.last;
    const aboveIdle = this.idle ? emptyMemory() : null;
    if (aboveIdle && this.idle) {
      for (const f of MEMORY_FIELDS) aboveIdle[f] = Math.max(0, this.peak[f] - this.idle[f]);
    }
    return {
      ...this.figures.figures(run.durationMs),
      ...run,
      peak: { ...this.peak },
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
