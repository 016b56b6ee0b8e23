/**
 * The HTTP lab's figures, folded by the parent from the run's samples (the server's socket
 * buffers and open responses) and the load's final report (responses, latencies, bytes). Pure.
 */
import type { Sample } from '../../../lib/protocol';
import type { FigureRecorder } from '../../types';

const LOAD_FIGURES = [
  'responsesOk',
  'badResponses',
  'reqPerSec',
  'latencyP50Ms',
  'latencyP99Ms',
  'ttfbP50Ms',
  'transferP50Ms',
  'bytesReceived',
  'slowP50Ms',
  'loadCpuMs',
] as const;

export class HttpFigures implements FigureRecorder {
  private peakWritableBytes = 0;
  private peakOpenResponses = 0;
  private lastResponses = 0;
  private lastBad = 0;
  private load: Partial<Record<(typeof LOAD_FIGURES)[number], number>> = {};

  constructor(
    private readonly rows: number,
    private readonly requestsPlanned: number,
  ) {}

  addSample(s: Sample): void {
    this.peakWritableBytes = Math.max(this.peakWritableBytes, s.writableBytes ?? 0);
    this.peakOpenResponses = Math.max(this.peakOpenResponses, s.openResponses ?? 0);
    this.lastResponses = s.responses ?? this.lastResponses;
    this.lastBad = s.badResponses ?? this.lastBad;
  }

  addFinal(extras: Record<string, number>, note: string | null = null): void {
    this.problem = note;
    for (const k of LOAD_FIGURES) if (typeof extras[k] === 'number') this.load[k] = extras[k];
  }

  figures() {
    const l = this.load;
    return {
      rows: this.rows,
      requestsPlanned: this.requestsPlanned,
      // A run that never reported its end (stopped, crashed) keeps what its samples last said.
      responsesOk: l.responsesOk ?? Math.max(0, this.lastResponses - this.lastBad),
      badResponses: l.badResponses ?? this.lastBad,
      // The load's own rate over its clients' time: a run it never reported on (it never started, or
      // was stopped or crashed first) has no rate, null rather than 0.
      reqPerSec: l.reqPerSec ?? null,
      // Times the load never reported (or timed nothing for) are null too: not measured, never 0 ms.
      latencyP50Ms: l.latencyP50Ms ?? null,
      latencyP99Ms: l.latencyP99Ms ?? null,
      ttfbP50Ms: l.ttfbP50Ms ?? null,
      transferP50Ms: l.transferP50Ms ?? null,
      bytesReceived: l.bytesReceived ?? 0,
      peakWritableBytes: this.peakWritableBytes,
      peakOpenResponses: this.peakOpenResponses,
      slowP50Ms: l.slowP50Ms ?? null,
      loadCpuMs: l.loadCpuMs ?? null,
    };
  }

  /** Every planned response must have come back complete, with the right rows. */
  judge(): { outcome: 'completed' | 'data-lost'; reason: string | null } {
    const { responsesOk, badResponses } = this.figures();
    if (responsesOk === this.requestsPlanned && badResponses === 0) return { outcome: 'completed', reason: null };
    const problem = this.problem ? ` (first: ${this.problem})` : '';
    return { outcome: 'data-lost', reason: `${this.requestsPlanned - responsesOk} of ${this.requestsPlanned} responses were wrong or missing${problem}` };
  }

  /** The load's first problem, when it named one. */
  problem: string | null = null;
}
