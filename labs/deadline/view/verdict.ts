/**
 * The deadlines lab's verdict, from a finished run's figures: did the requests meet the deadline,
 * how late did the service's timers fire, did it recover after the spike and how long that took,
 * and the capacity arithmetic (rate × K × CPU per object against the cores). When the figures
 * contradict what the strategy is there to show, the sentence says so. Pure.
 */
import type { DeadlineSummary } from '../shared/schema';
import type { Role } from '../shared/roles';
import type { Verdict } from '../../../lib/protocol';
import type { LabVerdict, StrategyTraits } from '../../../components/lab-view';
import { formatCount, formatMb, formatMs, formatSeconds } from '../../../lib/readouts/format';
import { completedExpected, memoryLimitText, outcomeExpected, peakRssFigures, peakRssOf, reasonSuffix, refusedText } from '../../../lib/readouts/outcome-text';

type Figures = Verdict['figures'];

/** Timers later than this mean the loop was held (the same line as the lab's recovery, labs/deadline/shared/schema.ts). */
export const LATE_TIMER_MS = 100;
/** Roles that are there to keep the timers on time through the spike (the rest to show that they don't). */
const KEEPS_TIMERS: ReadonlySet<Role> = new Set(['offloads', 'sheds']);

/** "1.2 cores": a demand in cores, one decimal; a dash when it was not measured. */
export function coresText(cores: number | null): string {
  if (cores === null) return '–';
  return `${cores.toFixed(cores < 10 ? 1 : 0)} core${cores.toFixed(1) === '1.0' ? '' : 's'}`;
}

/** Whether the spike asked more than `cores` of the CPU; false when its demand was not measured. */
export function spikeAsksMoreThan(s: Pick<DeadlineSummary, 'spikeDemandCores'>, cores: number): boolean {
  return s.spikeDemandCores !== null && s.spikeDemandCores > cores;
}

/** The figures outcomesText quotes. */
function outcomesFigures(s: DeadlineSummary): Figures {
  return { onTime: s.onTime, late: s.late, timedOut: s.timedOut, refused: s.refused, errors: s.errors, sent: s.sent };
}

/** "214 on time, 12 late, 30 timed out, 0 refused, 0 errors of 256 sent". */
export function outcomesText(s: DeadlineSummary): string {
  return `${formatCount(s.onTime)} on time, ${formatCount(s.late)} late, ${formatCount(s.timedOut)} timed out, ${formatCount(s.refused)} refused, ${formatCount(s.errors)} errors of ${formatCount(s.sent)} sent`;
}

/** "recovered 2.1 s after the spike" / "had not recovered by the end" / "never fell behind". */
export function recoveryText(s: Pick<DeadlineSummary, 'recoveryMs' | 'latenessMaxMs' | 'recoveredBelowMs'>): string {
  const line = `timers under ${formatMs(s.recoveredBelowMs)}, as before the spike`;
  if (s.recoveryMs < 0) return `had not recovered by the end of the schedule (${line})`;
  if (s.latenessMaxMs <= s.recoveredBelowMs) return 'never fell behind';
  return s.recoveryMs === 0 ? `was back as soon as the spike ended (${line})` : `was back ${formatSeconds(s.recoveryMs)} after the spike ended (${line})`;
}

/** The capacity arithmetic: what the spike asked of the CPU, against one thread and the cores. */
function capacityPart(s: DeadlineSummary): string {
  const p = s.params;
  // Every run that reports its end has its demand; one without it has no arithmetic to show.
  if (s.spikeDemandCores === null) return `The spike's demand on the CPU was not measured`;
  const ask = `${p.spikeRps} req/s × ${p.objects} objects × ${formatMs(s.workMsPerObject)} per object = ${coresText(s.spikeDemandCores)} of work in the spike (baseline ${coresText(s.baselineDemandCores)})`;
  if (spikeAsksMoreThan(s, s.cores)) return `${ask}: more than all ${s.cores} cores, so something had to give`;
  if (spikeAsksMoreThan(s, 1)) return `${ask}: more than the one main thread can do, within the ${s.cores} cores`;
  // The average fit in one core, yet the run fell behind: say so rather than contradict the sentence before.
  const missed = s.sent - s.onTime;
  const behind = missed > 0 ? `${formatCount(missed)} requests missed the deadline` : s.spikeLatenessP99Ms > 2 * LATE_TIMER_MS ? 'timers were late' : '';
  if (behind) {
    const burstMs = s.params.objects * s.workMsPerObject;
    return `${ask}: within one core on average, yet ${behind}: the lateness came from bursts (a request's ${s.params.objects} objects arrive together, ${formatMs(burstMs)} of work at once) or from other work on this machine, not from the average demand`;
  }
  return `${ask}: within one core, so no strategy needed to fall behind`;
}

/** The deadline part: how many requests met it, and what the load saw. */
function deadlinePart(s: DeadlineSummary): string {
  const met = s.sent > 0 && s.onTime === s.sent;
  const head = met
    ? `Every request met the ${formatMs(s.params.deadlineMs)} deadline`
    : `${formatCount(s.sent - s.onTime)} of ${formatCount(s.sent)} requests missed the ${formatMs(s.params.deadlineMs)} deadline`;
  return `${head} (${outcomesText(s)}; latency p99 ${formatMs(s.latencyP99Ms)}, max ${formatMs(s.latencyMaxMs)})`;
}

/** The timers part: how late the service's timers fired, and whether that held through the spike. */
function timersPart(s: DeadlineSummary): string {
  const deadlines =
    s.deadlineTimersFired > 0 ? `; ${formatCount(s.deadlineTimersFired)} deadline timers fired, the latest ${formatMs(s.deadlineLatenessMaxMs)} late` : '';
  return `timers fired up to ${formatMs(s.latenessMaxMs)} late (p99 ${formatMs(s.latenessP99Ms)}, in the spike ${formatMs(s.spikeLatenessP99Ms)})${deadlines}; the loop ${recoveryText(s)}`;
}

/**
 * How the figures stand to what the strategy is there to show: where they contradict it, one clause
 * saying so (expected false); else '' and whether they confirm it (true) or can't tell (null: no
 * known role, or a strategy that should fall behind in a spike that never asked for more than one core).
 */
function contradiction(s: DeadlineSummary, role: Role | undefined): { clause: string; expected: boolean | null } {
  // Without a known role there is no lesson to hold the figures to.
  if (role === undefined) return { clause: '', expected: null };
  const lateTimers = s.spikeLatenessP99Ms > 2 * LATE_TIMER_MS;
  const fellBehind = lateTimers || s.late + s.timedOut > 0;
  if (KEEPS_TIMERS.has(role) && lateTimers) {
    return {
      clause: `Not what ${s.strategy} should show: its timers were late in the spike (p99 ${formatMs(s.spikeLatenessP99Ms)}, more than ${formatMs(2 * LATE_TIMER_MS)}). `,
      expected: false,
    };
  }
  if (!KEEPS_TIMERS.has(role) && spikeAsksMoreThan(s, 1) && !fellBehind) {
    return {
      clause: `Not the failure ${s.strategy} should show: the spike asked for more than one core, yet timers stayed near on time and every request met its deadline (the machine may have been faster than its calibration). `,
      expected: false,
    };
  }
  if (role === 'sheds' && spikeAsksMoreThan(s, 1) && s.refused === 0)
    return { clause: `Not what ${s.strategy} should show: the spike needed more than one core, yet it refused nothing. `, expected: false };
  if (KEEPS_TIMERS.has(role)) return { clause: '', expected: true };
  return { clause: '', expected: fellBehind ? true : null };
}

/** The figures a completed run's sentence quotes: its outcomes, timers and capacity arithmetic. */
function completedFigures(s: DeadlineSummary, role: Role | undefined): Figures {
  return {
    ...outcomesFigures(s),
    'params.deadlineMs': s.params.deadlineMs,
    latencyP99Ms: s.latencyP99Ms,
    latencyMaxMs: s.latencyMaxMs,
    latenessMaxMs: s.latenessMaxMs,
    latenessP99Ms: s.latenessP99Ms,
    spikeLatenessP99Ms: s.spikeLatenessP99Ms,
    ...(s.deadlineTimersFired > 0 && { deadlineTimersFired: s.deadlineTimersFired, deadlineLatenessMaxMs: s.deadlineLatenessMaxMs }),
    recoveryMs: s.recoveryMs,
    recoveredBelowMs: s.recoveredBelowMs,
    'params.spikeRps': s.params.spikeRps,
    'params.objects': s.params.objects,
    workMsPerObject: s.workMsPerObject,
    ...(s.spikeDemandCores !== null && { spikeDemandCores: s.spikeDemandCores }),
    ...(s.baselineDemandCores !== null && { baselineDemandCores: s.baselineDemandCores }),
    cores: s.cores,
    ...((role === 'sheds' || role === 'no-limit') && { chunkMs: s.params.objects * s.workMsPerObject }),
  };
}

/** shed-load bounds the backlog, not one request: its K objects' work can run in one turn of the loop. */
function chunkPart(s: DeadlineSummary, role: Role | undefined): string {
  if (role !== 'sheds' && role !== 'no-limit') return '';
  const chunkMs = s.params.objects * s.workMsPerObject;
  return ` One request's work is ${s.params.objects} × ${formatMs(s.workMsPerObject)} = ${formatMs(chunkMs)} on the main thread, and its objects mostly arrive together: no admission control makes a timer less late than that.`;
}

function completedVerdict(s: DeadlineSummary, role: Role | undefined): Verdict {
  const { clause, expected } = contradiction(s, role);
  return { text: `${clause}${deadlinePart(s)}; ${timersPart(s)}. ${capacityPart(s)}.${chunkPart(s, role)}`, figures: completedFigures(s, role), expected };
}

/** The verdict for a finished deadlines run. */
export function deadlineVerdict(s: DeadlineSummary, traits: StrategyTraits | undefined): Verdict {
  const part = `${formatCount(s.sent)} of ${formatCount(s.requestsPlanned)} requests sent`;
  const partFigures = { sent: s.sent, requestsPlanned: s.requestsPlanned };
  const ended = (text: string, figures: Figures): Verdict => ({ text, figures, expected: outcomeExpected(s.outcome, traits) });
  switch (s.outcome) {
    case 'completed': {
      const judged = completedVerdict(s, (traits?.role ?? undefined) as Role | undefined);
      return { ...judged, expected: completedExpected(traits, judged.expected) };
    }
    case 'data-lost':
      return ended(`Not every request was answered: ${outcomesText(s)}${reasonSuffix(s.reason)}. Timers fired up to ${formatMs(s.latenessMaxMs)} late.`, {
        ...outcomesFigures(s),
        latenessMaxMs: s.latenessMaxMs,
      });
    case 'out-of-memory':
      return ended(`Out of memory: RSS reached ${formatMb(peakRssOf(s))} and ${memoryLimitText(s)} after ${part}.`, { ...peakRssFigures(s), ...partFigures });
    case 'crashed':
      return ended(`Crashed after ${part}${reasonSuffix(s.reason)}.`, partFigures);
    case 'stopped':
      if (s.sampleCount === 0 && s.sent === 0) return ended('Stopped before it started: nothing was measured.', {});
      return ended(`Stopped after ${formatSeconds(s.durationMs)} with ${part} (${outcomesText(s)}); timers fired up to ${formatMs(s.latenessMaxMs)} late.`, {
        durationMs: s.durationMs,
        ...partFigures,
        ...outcomesFigures(s),
        latenessMaxMs: s.latenessMaxMs,
      });
    case 'timed-out':
      return ended(`Timed out after ${s.params.timeoutS} s with ${part}: the schedule lasts ${s.params.durationS} s plus the drain; raise the timeout.`, {
        'params.timeoutS': s.params.timeoutS,
        ...partFigures,
        'params.durationS': s.params.durationS,
      });
    case 'interrupted':
      return ended(`Interrupted after ${formatSeconds(s.durationMs)}: ${s.reason ?? 'the server shut down'}, so the run has no result; ${part} by then.`, {
        durationMs: s.durationMs,
        ...partFigures,
      });
    case 'refused':
      return ended(refusedText(s), { durationMs: s.durationMs });
    default: {
      const never: never = s.outcome;
      return ended(String(never), {});
    }
  }
}

/** What the lab registry picks up from this folder (scripts/lab-index.mjs). */
export const verdict: LabVerdict = (s, _siblings, traits) => deadlineVerdict(s as DeadlineSummary, traits);
