/**
 * What each step of the hot-code walkthrough concludes from the runs that just happened. Every
 * number comes from a summary and the thresholds are the hot-code verdict's
 * (labs/hotcode/view/verdict.ts); when the figures contradict the lesson, the text says so. Pure.
 */
import type { HotcodeSummary } from '../shared/schema';
import { exponentText, healthText, NO_LOSS, SUPERLINEAR } from './verdict';
import { formatMs, formatTimes } from '../../../lib/readouts/format';
import type { Conclusion } from '../../../lib/lessons/unfinished';
import { unfinished } from '../../../lib/lessons/unfinished';

const done = (s: HotcodeSummary) => `${s.reportsOk} of ${s.reportsPlanned} reports`;

/** Step 1: the slow report blocks the server; /health waits as long as the report runs. */
export function concludeFrozen(slow: HotcodeSummary, fixed: HotcodeSummary): Conclusion {
  const stop = unfinished(
    [
      [slow, ['completed']],
      [fixed, ['completed']],
    ],
    done,
  );
  if (stop) return stop;
  const ratio = fixed.reportMsMin > 0 ? slow.reportMsMin / fixed.reportMsMin : 0;
  const facts =
    `The report as found took ${formatMs(slow.reportMsMin)} of synchronous work and /health waited up to ${formatMs(slow.probeMaxMs)}; ` +
    `fixed, ${formatMs(fixed.reportMsMin)} and ${healthText(fixed)}`;
  if (ratio >= NO_LOSS && slow.probeMaxMs > fixed.probeMaxMs)
    return { asExpected: true, text: `${facts}: ${formatTimes(ratio)} faster, and the server answers other requests again.` };
  return { asExpected: false, text: `${facts}. Not what this lesson expects: the fix should be at least ${NO_LOSS}× faster and /health should wait less.` };
}

/** Step 2: toLocaleString with a time zone builds a formatter per call; a cached one does not. */
export function concludeDates(locale: HotcodeSummary, cached: HotcodeSummary, iso: HotcodeSummary): Conclusion {
  const stop = unfinished(
    [
      [locale, ['completed']],
      [cached, ['completed']],
      [iso, ['completed']],
    ],
    done,
  );
  if (stop) return stop;
  const ratio = cached.reportMsMin > 0 ? locale.reportMsMin / cached.reportMsMin : 0;
  const facts = `toLocaleString with a time zone: ${formatMs(locale.reportMsMin)}; a cached Intl.DateTimeFormat: ${formatMs(cached.reportMsMin)} (${formatTimes(ratio)} faster); toISOString: ${formatMs(iso.reportMsMin)}`;
  if (ratio >= NO_LOSS) return { asExpected: true, text: `${facts}. The formatter, not the formatting, was the cost.` };
  return { asExpected: false, text: `${facts}. Not what this lesson expects: caching the formatter should save at least ${NO_LOSS}×.` };
}

/** Step 3: the spreading groupBy grows as rows², push as rows. */
export function concludeGrowth(spread: HotcodeSummary, push: HotcodeSummary): Conclusion {
  const stop = unfinished(
    [
      [spread, ['completed']],
      [push, ['completed']],
    ],
    done,
  );
  if (stop) return stop;
  const facts = `groupBy with spread: ${exponentText(spread.sweepExponent)}; with push: ${exponentText(push.sweepExponent)}`;
  if (spread.sweepExponent >= SUPERLINEAR && push.sweepExponent < SUPERLINEAR)
    return { asExpected: true, text: `${facts}. Ten times the rows cost the spread about ${formatTimes(10 ** spread.sweepExponent)} the time.` };
  return { asExpected: false, text: `${facts}. Not what this lesson expects: the spread should grow faster than linear (k ≥ ${SUPERLINEAR}) and push not.` };
}
