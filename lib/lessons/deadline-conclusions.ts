/**
 * What each step of the deadlines walkthrough concludes from the runs that just happened. Every
 * number comes from a summary and the threshold is the deadlines verdict's (LATE_TIMER_MS), so a
 * step and a run card never disagree; when the figures contradict the lesson, the text says so. Pure.
 */
import type { DeadlineSummary } from '../protocol';
import { coresText, LATE_TIMER_MS, outcomesText } from '../readouts/deadline-verdict';
import { formatMs } from '../readouts/format';
import type { Conclusion } from './conclusions';
import { unfinished } from './unfinished';

const sent = (s: DeadlineSummary) => `${s.sent} of ${s.requestsPlanned} requests sent`;
// Unbounded may still owe answers after the schedule (it does not always recover): that is a result here.
const ENDED = ['completed', 'data-lost'] as const;

const timers = (s: DeadlineSummary) => `p99 ${formatMs(s.latenessP99Ms)}, max ${formatMs(s.latenessMaxMs)}`;

/** Step 1: one event loop with more work than a core: its timers fire late; a pool keeps them on time. */
export function concludeLateTimers(unbounded: DeadlineSummary, pool: DeadlineSummary): Conclusion {
  const stop = unfinished([[unbounded, ENDED], [pool, ['completed']]], sent);
  if (stop) return stop;
  const facts =
    `The spike asked for ${coresText(unbounded.spikeDemandCores)} of work. unbounded: timers ${timers(unbounded)} late, ${outcomesText(unbounded)}. ` +
    `worker-pool: timers ${timers(pool)} late, ${outcomesText(pool)}.`;
  if (unbounded.latenessMaxMs > 2 * LATE_TIMER_MS && pool.latenessP99Ms <= LATE_TIMER_MS && pool.latenessMaxMs < unbounded.latenessMaxMs) {
    return { asExpected: true, text: `${facts} The work on the main thread held the deadline timers back; moved to the pool's threads, it left the loop free to fire them on time.` };
  }
  return { asExpected: false, text: `${facts} Not what this lesson expects: unbounded's timers should be late (over ${formatMs(2 * LATE_TIMER_MS)}) and the pool's on time (p99 under ${formatMs(LATE_TIMER_MS)}).` };
}

/** Step 2: limiting the GETs paces the work but keeps it on the loop; shedding refuses the excess. */
export function concludeLimitVsShed(limited: DeadlineSummary, shed: DeadlineSummary): Conclusion {
  const stop = unfinished([[limited, ENDED], [shed, ENDED]], sent);
  if (stop) return stop;
  const facts = `limited-concurrency: timers ${timers(limited)} late, ${outcomesText(limited)}. shed-load: timers ${timers(shed)} late, ${outcomesText(shed)}.`;
  const chunk = `one request's own work (${shed.params.objects} × ${formatMs(shed.workMsPerObject)})`;
  if (shed.refused > 0 && shed.errors === 0) {
    return { asExpected: true, text: `${facts} shed-load answered the excess with 503 at once instead of letting it wait; its timers are still as late as ${chunk}, which it cannot split.` };
  }
  return { asExpected: false, text: `${facts} Not what this lesson expects: shed-load should refuse part of the spike with 503.` };
}
