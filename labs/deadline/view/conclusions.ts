/**
 * What each step of the deadlines walkthrough concludes from the runs that just happened. Every
 * number comes from a summary and "late timers" is the deadlines verdict's line (a spike p99 over
 * 2 × LATE_TIMER_MS), so a step and a run card never disagree; when the figures contradict the
 * lesson, the text says so. Pure.
 */
import type { DeadlineSummary } from '../shared/schema';
import { coresText, LATE_TIMER_MS, outcomesText, spikeAsksMoreThan } from './verdict';
import { formatCount, formatMs } from '../../../lib/readouts/format';
import type { Conclusion } from '../../../lib/lessons/unfinished';
import { unfinished } from '../../../lib/lessons/unfinished';

const sent = (s: DeadlineSummary) => `${s.sent} of ${s.requestsPlanned} requests sent`;
// Unbounded may still owe answers after the schedule (it does not always recover): that is a result here.
const ENDED = ['completed', 'data-lost'] as const;
/** Timers count as late when their p99 in the spike is over this, as on the run card. */
export const LATE_IN_SPIKE_MS = 2 * LATE_TIMER_MS;

const lateTimers = (s: DeadlineSummary) => s.spikeLatenessP99Ms > LATE_IN_SPIKE_MS;
const missed = (s: DeadlineSummary) => s.late + s.timedOut;
const timers = (s: DeadlineSummary) => `timers ${formatMs(s.spikeLatenessP99Ms)} late in the spike (p99), ${formatMs(s.latenessMaxMs)} at most`;
const run = (s: DeadlineSummary) => `${s.strategy}: ${timers(s)}; ${outcomesText(s)}, the slowest answered ${formatMs(s.latencyMaxMs)} after it was due.`;
/** "50 objects × 2.6 ms = 1.0 core": what the spike asked of the thread(s) that did this run's work. */
const demand = (s: DeadlineSummary) =>
  `${s.params.spikeRps} req/s × ${s.params.objects} objects × ${formatMs(s.workMsPerObject)} = ${coresText(s.spikeDemandCores)}`;

/** Why a pool that kept its timers on time still missed deadlines: its threads' CPU, from its figures. */
function poolMisses(pool: DeadlineSummary): string {
  if (missed(pool) === 0) return ` Every one of worker-pool's ${formatCount(pool.sent)} requests met the ${formatMs(pool.params.deadlineMs)} deadline.`;
  const room = spikeAsksMoreThan(pool, pool.cores)
    ? `more than all ${pool.cores} cores`
    : `on ${pool.cores} cores shared with the store, the load and the main thread`;
  const cut =
    pool.timedOut > 0 && pool.deadlineTimersFired > 0
      ? `; its deadline timers fired at most ${formatMs(pool.deadlineLatenessMaxMs)} late, so the ${formatCount(pool.timedOut)} that timed out were cut at the deadline, not answered seconds late`
      : '';
  return ` worker-pool still missed ${formatCount(missed(pool))} deadlines: its threads took ${formatMs(pool.workMsPerObject)} an object, so the spike asked ${demand(pool)} of them, ${room}${cut}.`;
}

/** Step 1: one event loop with more work than a core: its timers fire late; a pool keeps them on time. */
export function concludeLateTimers(unbounded: DeadlineSummary, pool: DeadlineSummary): Conclusion {
  const stop = unfinished(
    [
      [unbounded, ENDED],
      [pool, ['completed']],
    ],
    sent,
  );
  if (stop) return stop;
  const facts = `The spike asked ${demand(unbounded)} of unbounded's main thread. ${run(unbounded)} ${run(pool)}`;
  if (!spikeAsksMoreThan(unbounded, 1)) {
    return {
      asExpected: false,
      text: `${facts} Not what this lesson expects: the spike should ask more than one core of the main thread, and this time its objects took ${formatMs(unbounded.workMsPerObject)} each (the preset asks ${formatMs(unbounded.params.cpuMs)}). Run the step again.`,
    };
  }
  if (lateTimers(unbounded) && !lateTimers(pool)) {
    return {
      asExpected: true,
      text: `${facts} The work on the main thread held every timer back, the deadline's too; moved to the pool's threads, it left the loop free to fire them on time.${poolMisses(pool)}`,
    };
  }
  return {
    asExpected: false,
    text: `${facts} Not what this lesson expects: unbounded's timers should be late in the spike (p99 over ${formatMs(LATE_IN_SPIKE_MS)}) and worker-pool's not.`,
  };
}

/** What the limiter's and shed-load's timers did, each from its own figures. */
function timersSaid(limited: DeadlineSummary, shed: DeadlineSummary): string {
  const lim = lateTimers(limited)
    ? ` The limiter's timers were late too (${formatMs(limited.spikeLatenessP99Ms)} p99 in the spike).`
    : ` The limiter's timers were not late by the run card's line (${formatMs(limited.spikeLatenessP99Ms)} p99 in the spike, under ${formatMs(LATE_IN_SPIKE_MS)}): ${limited.params.concurrency} objects at most wait in a turn, and the requests waited in its queue instead.`;
  const chunk = `${shed.params.objects} × ${formatMs(shed.workMsPerObject)} = ${formatMs(shed.params.objects * shed.workMsPerObject)}`;
  const sh = lateTimers(shed)
    ? ` shed-load's own timers were still ${formatMs(shed.spikeLatenessP99Ms)} late in the spike (p99): it refuses only once the loop is ${formatMs(shed.params.shedLagMs)} late, and an admitted request's work (${chunk}) runs on the main thread, mostly in one turn.`
    : ` shed-load's timers were not late by that line either (${formatMs(shed.spikeLatenessP99Ms)} p99 in the spike).`;
  return lim + sh;
}

/** Step 2: limiting the GETs paces the work but adds no CPU, so requests wait and miss; shedding refuses the excess at once. */
export function concludeLimitVsShed(limited: DeadlineSummary, shed: DeadlineSummary): Conclusion {
  const stop = unfinished(
    [
      [limited, ENDED],
      [shed, ENDED],
    ],
    sent,
  );
  if (stop) return stop;
  const facts = `The spike asked ${demand(limited)} of limited-concurrency's main thread. ${run(limited)} ${run(shed)}`;
  const problems = [
    missed(limited) === 0 && 'limited-concurrency should miss deadlines once the spike asks more than its one thread does',
    shed.refused === 0 && 'shed-load should refuse part of the spike with 503',
    shed.errors > 0 && 'shed-load should answer or refuse every request, without errors',
    missed(shed) >= missed(limited) && missed(limited) > 0 && 'shed-load should miss fewer deadlines than the limiter',
  ].filter((p): p is string => typeof p === 'string');
  if (problems.length > 0) return { asExpected: false, text: `${facts} Not what this lesson expects: ${problems.join('; ')}.${timersSaid(limited, shed)}` };
  return {
    asExpected: true,
    text:
      `${facts} The limiter adds no CPU: ${formatCount(missed(limited))} requests waited their turn past the deadline. shed-load answered ${formatCount(shed.refused)} with 503 at once ` +
      `and missed ${formatCount(missed(shed))} of the ${formatCount(shed.sent - shed.refused)} it took.${timersSaid(limited, shed)}`,
  };
}
