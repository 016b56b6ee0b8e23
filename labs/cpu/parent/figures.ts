/**
 * The CPU lab's figures: the load's final report (requests, latencies, the timeline, ping) and the
 * scenario's peaks of the process tree. Pure.
 */
import type { Sample } from '../../../lib/protocol';
import type { FigureRecorder } from '../../types';
import type { RequestBar, ThreadCpuRow } from '../shared/schema';

const NUMBERS = [
  'requestsOk',
  'badRequests',
  'makespanMs',
  'latencyP50Ms',
  'latencyMaxMs',
  'computeMsAlone',
  'computeMsMin',
  'spawnP50Ms',
  'pingP50Ms',
  'pingMaxMs',
  'servers',
  'cores',
  'peakTreeRss',
  'peakProcesses',
  'peakThreads',
  'peakMessageListeners',
  'otherCpuMs',
  'cpuWindowMs',
] as const;

export class CpuFigures implements FigureRecorder {
  private final: Partial<Record<(typeof NUMBERS)[number], number>> = {};
  private timeline: RequestBar[] = [];
  private threadCpu: ThreadCpuRow[] = [];
  private problem: string | null = null;
  private lastOk = 0;
  private lastBad = 0;
  private peakTreeRss = 0;
  private peakProcesses = 0;
  private peakThreads = 0;
  private peakListeners = 0;

  constructor(private readonly requestsPlanned: number) {}

  addSample(s: Sample): void {
    this.lastOk = s.requestsOk ?? this.lastOk;
    this.lastBad = s.badRequests ?? this.lastBad;
    this.peakTreeRss = Math.max(this.peakTreeRss, s.treeRss ?? 0);
    this.peakProcesses = Math.max(this.peakProcesses, s.processes ?? 0);
    this.peakThreads = Math.max(this.peakThreads, s.threads ?? 0);
    this.peakListeners = Math.max(this.peakListeners, s.messageListeners ?? 0);
  }

  addFinal(extras: Record<string, number>, note: string | null = null, details: Record<string, unknown> = {}): void {
    for (const k of NUMBERS) if (typeof extras[k] === 'number') this.final[k] = extras[k];
    this.problem = note;
    if (Array.isArray(details.timeline)) {
      this.timeline = (details.timeline as Array<RequestBar & { spawnMs?: number; computeMs?: number }>).map(
        ({ startMs, firstByteMs, endMs, servedBy, ok }) => ({ startMs, firstByteMs, endMs, servedBy, ok }),
      );
    }
    if (Array.isArray(details.threadCpu)) this.threadCpu = (details.threadCpu as ThreadCpuRow[]).map(({ pid, tid, cpuMs }) => ({ pid, tid, cpuMs }));
  }

  figures() {
    const f = this.final;
    return {
      requestsPlanned: this.requestsPlanned,
      // A run that never reported its end (stopped, crashed) keeps what its samples last said.
      requestsOk: f.requestsOk ?? this.lastOk,
      badRequests: f.badRequests ?? this.lastBad,
      // What the load (or the scenario: cores) never reported is null, not 0: a run that never
      // started or ended before the load's report, a ping or worker start that nothing timed.
      makespanMs: f.makespanMs ?? null,
      latencyP50Ms: f.latencyP50Ms ?? null,
      latencyMaxMs: f.latencyMaxMs ?? null,
      computeMsAlone: f.computeMsAlone ?? null,
      computeMsMin: f.computeMsMin ?? null,
      spawnP50Ms: f.spawnP50Ms ?? null,
      pingP50Ms: f.pingP50Ms ?? null,
      pingMaxMs: f.pingMaxMs ?? null,
      peakTreeRss: Math.max(f.peakTreeRss ?? 0, this.peakTreeRss),
      peakProcesses: Math.max(f.peakProcesses ?? 0, this.peakProcesses),
      peakThreads: Math.max(f.peakThreads ?? 0, this.peakThreads),
      peakMessageListeners: Math.max(f.peakMessageListeners ?? 0, this.peakListeners),
      speedup: this.speedup(),
      speedupMeasured: this.speedupMeasured(),
      servers: f.servers ?? null,
      cores: f.cores ?? null,
      timeline: this.timeline,
      threadCpu: this.threadCpu,
      otherCpuMs: f.otherCpuMs ?? null,
      cpuWindowMs: f.cpuWindowMs ?? null,
    };
  }

  /**
   * Against the shortest computation seen (an upper bound of the cost alone), so it errs low; only a
   * machine whose speed changes mid-run (measured here: fib(40) alone 0.99–1.88 s) takes it past the
   * cores, which no program can beat: the reported figure stops there.
   */
  private speedup(): number | null {
    const measured = this.speedupMeasured();
    return measured === null ? null : Math.min(measured, this.final.cores ?? Infinity);
  }

  /** Computations' worth of work per makespan: null without a makespan or a computation's cost (no request was timed, e.g. a run that never started). */
  private speedupMeasured(): number | null {
    const f = this.final;
    return f.makespanMs && f.computeMsMin ? ((f.requestsOk ?? 0) * f.computeMsMin) / f.makespanMs : null;
  }

  /** Every request must have been answered with the right fib(n). */
  judge(): { outcome: 'completed' | 'data-lost'; reason: string | null } {
    const { requestsOk, badRequests } = this.figures();
    if (requestsOk === this.requestsPlanned && badRequests === 0) return { outcome: 'completed', reason: null };
    const first = this.problem ? ` (first: ${this.problem})` : '';
    return { outcome: 'data-lost', reason: `${this.requestsPlanned - requestsOk} of ${this.requestsPlanned} requests got no right answer${first}` };
  }
}
