/**
 * The deadlines lab's figures: the load's counts and latencies, the service's timer lateness and
 * recovery, the capacity arithmetic, and the lateness scatter from the scenario's details. Pure.
 */
import type { Sample } from '../../../lib/protocol';
import type { FigureRecorder } from '../../types';
import { latenessPointSchema, OUTCOMES, type LatenessPoint } from '../shared/schema';

const NUMBERS = [
  'sent',
  ...OUTCOMES,
  'latencyP50Ms',
  'latencyP99Ms',
  'latencyMaxMs',
  'latenessP50Ms',
  'latenessP99Ms',
  'latenessMaxMs',
  'deadlineTimersFired',
  'deadlineLatenessMaxMs',
  'spikeLatenessP99Ms',
  'recoveryMs',
  'recoveredBelowMs',
  'peakInFlight',
  'workMsPerObject',
  'baselineDemandCores',
  'spikeDemandCores',
  'cores',
  'objectsFetched',
  'objectsWorked',
  'scheduleStartMs',
] as const;
type NumberFigure = (typeof NUMBERS)[number];

export class DeadlineFigures implements FigureRecorder {
  private final: Partial<Record<NumberFigure, number>> = {};
  private last: Partial<Record<NumberFigure, number>> = {};
  private lateness: LatenessPoint[] = [];
  private problem: string | null = null;
  private peakLatenessMs = 0;

  constructor(private readonly requestsPlanned: number) {}

  addSample(s: Sample): void {
    // A run that never reports its end (stopped, crashed) keeps what its samples last said.
    for (const k of ['sent', ...OUTCOMES, 'scheduleStartMs'] as const) if (typeof s[k] === 'number') this.last[k] = s[k];
    this.last.peakInFlight = Math.max(this.last.peakInFlight ?? 0, s.inFlight ?? 0);
    this.peakLatenessMs = Math.max(this.peakLatenessMs, s.latenessMaxMs ?? 0);
  }

  addFinal(extras: Record<string, number>, note: string | null = null, details: Record<string, unknown> = {}): void {
    for (const k of NUMBERS) if (typeof extras[k] === 'number') this.final[k] = extras[k];
    this.problem = note;
    const parsed = latenessPointSchema.array().safeParse(details.lateness);
    if (parsed.success) this.lateness = parsed.data;
  }

  figures() {
    const get = (k: NumberFigure, fallback = 0) => this.final[k] ?? this.last[k] ?? fallback;
    return {
      requestsPlanned: this.requestsPlanned,
      ...(Object.fromEntries(NUMBERS.map((k) => [k, get(k)])) as Record<NumberFigure, number>),
      latenessMaxMs: this.final.latenessMaxMs ?? this.peakLatenessMs,
      scheduleStartMs: get('scheduleStartMs', -1),
      recoveryMs: get('recoveryMs', -1),
      // Rate × K × the cost per object the scenario measured, in its end report: a run without one
      // (it never started, or was stopped first) asked nothing measured of the CPU, null not 0 cores.
      baselineDemandCores: this.final.baselineDemandCores ?? null,
      spikeDemandCores: this.final.spikeDemandCores ?? null,
      lateness: this.lateness,
    };
  }

  /** Every request sent must be accounted for, and none may have failed (late and timed out are results, not failures). */
  judge(): { outcome: 'completed' | 'data-lost'; reason: string | null } {
    const f = this.figures();
    const answered = OUTCOMES.reduce((n, k) => n + f[k], 0);
    if (f.sent !== answered) return { outcome: 'data-lost', reason: `sent ${f.sent} requests but counted ${answered} answers` };
    if (f.sent < this.requestsPlanned) return { outcome: 'data-lost', reason: `${f.sent} of ${this.requestsPlanned} requests were sent` };
    if (f.errors > 0) return { outcome: 'data-lost', reason: `${f.errors} of ${f.sent} requests failed${this.problem ? ` (first: ${this.problem})` : ''}` };
    return { outcome: 'completed', reason: null };
  }
}
