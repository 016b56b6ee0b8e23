/** The hot-code lab's figures: the load's final report and a sweep's steps. Pure. */
import type { Sample } from '../../../lib/protocol';
import type { FigureRecorder } from '../../types';
import { findCliff, localSlopes, measuredPoints, type SweepStep } from '../child/sweep-steps';

const NUMBERS = [
  'reportsOk',
  'badReports',
  'reportMsMin',
  'reportMsMax',
  'latencyP50Ms',
  'probeP50Ms',
  'probeMaxMs',
  'probes',
  'sweepExponent',
  'sweepSkipped',
  'sweepStopped',
] as const;

export class HotcodeFigures implements FigureRecorder {
  private final: Partial<Record<(typeof NUMBERS)[number], number>> = {};
  private steps: SweepStep[] = [];
  private problem: string | null = null;
  private last = { ok: 0, bad: 0, probeMax: 0 };

  constructor(private readonly reportsPlanned: number) {}

  addSample(s: Sample): void {
    this.last.ok = s.reportsOk ?? this.last.ok;
    this.last.bad = s.badReports ?? this.last.bad;
    this.last.probeMax = Math.max(this.last.probeMax, s.probeMs ?? 0);
  }

  addFinal(extras: Record<string, number>, note: string | null = null, details: Record<string, unknown> = {}): void {
    for (const k of NUMBERS) if (typeof extras[k] === 'number') this.final[k] = extras[k];
    this.problem = note;
    if (Array.isArray(details.sweepSteps))
      this.steps = (details.sweepSteps as SweepStep[]).map(({ rows, status, ms, wallMs, projectedMs }) => ({ rows, status, ms, wallMs, projectedMs }));
  }

  figures() {
    const f = this.final;
    const slopes = localSlopes(this.steps);
    return {
      reportsPlanned: this.reportsPlanned,
      // A run that never reported its end (stopped, timed out) keeps what its samples last said.
      reportsOk: f.reportsOk ?? this.last.ok,
      badReports: f.badReports ?? this.last.bad,
      reportMsMin: f.reportMsMin ?? 0,
      reportMsMax: f.reportMsMax ?? 0,
      latencyP50Ms: f.latencyP50Ms ?? 0,
      probeP50Ms: f.probeP50Ms ?? 0,
      probeMaxMs: f.probeMaxMs ?? this.last.probeMax,
      probes: f.probes ?? 0,
      sweepExponent: f.sweepExponent ?? 0,
      sweepSkipped: f.sweepSkipped ?? 0,
      // The measured steps, the exponent's points (a field from before every step was kept).
      sweep: measuredPoints(this.steps),
      sweepStopped: f.sweepStopped ?? 0,
      sweepSteps: this.steps,
      sweepSlopes: slopes,
      sweepCliff: findCliff(slopes, this.steps, f.sweepExponent ?? 0),
    };
  }

  /**
   * Every report asked for was answered and counted every row. A sweep's skipped steps were never
   * asked for, and its stopped ones were ended on purpose: neither lost anything.
   */
  judge(): { outcome: 'completed' | 'data-lost'; reason: string | null } {
    const { reportsOk, badReports, sweepSkipped, sweepStopped } = this.figures();
    const missing = this.reportsPlanned - reportsOk - sweepSkipped - sweepStopped;
    if (missing === 0 && badReports === 0) return { outcome: 'completed', reason: null };
    const first = this.problem ? ` (first: ${this.problem})` : '';
    return { outcome: 'data-lost', reason: `${missing} of ${this.reportsPlanned} reports got no right answer${first}` };
  }
}
