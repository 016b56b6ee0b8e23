/**
 * The hot-code walkthrough: three steps, each running a small preset experiment of the hot-code
 * lab and concluding from its runs. Client-safe, pure.
 */
import { DEFAULT_HOTCODE_PARAMS, type HotcodeParams } from '../shared/params';
import { concludeDates, concludeFrozen, concludeGrowth } from './conclusions';
import type { LessonStep } from '../../../lib/lessons/lesson';
import { LAB_ID } from '../shared/id';

export type HotcodeLessonStep = LessonStep<typeof LAB_ID>;

/** 1e4 rows: the slow report takes a few seconds here, the fixed one a fraction of a second. Short watchdog: the queue is shared. */
export const REPORT_PARAMS: HotcodeParams = { ...DEFAULT_HOTCODE_PARAMS, rows: 10_000, requests: 1, timeoutS: 120 };
/** Sweeps in the ranges where each groupBy stays in one regime (docs/results.md §11). */
export const SPREAD_SWEEP: HotcodeParams = { ...REPORT_PARAMS, sweep: true, rows: 10_000 };
export const PUSH_SWEEP: HotcodeParams = { ...REPORT_PARAMS, sweep: true, rows: 20_000 };

/** "10,000 rows, 1 report" or "sweep to 10,000 rows". */
export function describeHotcodeParams(p: HotcodeParams): string {
  return p.sweep
    ? `sweep to ${p.rows.toLocaleString('en-US')} rows`
    : `${p.rows.toLocaleString('en-US')} rows, ${p.requests} report${p.requests === 1 ? '' : 's'}`;
}

export const HOTCODE_LESSON_STEPS: readonly HotcodeLessonStep[] = [
  {
    lab: LAB_ID,
    n: 1,
    title: 'A report that freezes the server',
    paragraphs: [
      'report-slow is the write-up’s monthly report in small: days by toLocaleString with a time zone, tax rates by a groupBy that copies ' +
        'its array on every row. It runs synchronously in the request handler, so while it runs the server answers nothing, not even /health.',
      'Tick “CPU profile” on the dashboard to see the same run as a flame graph: groupBySpread and formatDayToLocale stand out.',
    ],
    watch:
      'Each run’s “/health max”: report-slow’s is about as long as its report, since the server answers nothing meanwhile; ' +
      'report-fixed’s report is usually over before the first /health probe (one every 100 ms), so it has none to show.',
    presets: [{ strategies: ['report-slow', 'report-fixed'], params: REPORT_PARAMS }],
    conclude: ([slow, fixed]) => concludeFrozen(slow, fixed),
  },
  {
    lab: LAB_ID,
    n: 2,
    title: 'toLocaleString builds a formatter every call',
    paragraphs: [
      'date.toLocaleString("en-US", { timeZone }) creates an Intl.DateTimeFormat, loading locale and time-zone data, on every call. ' +
        'The write-up’s fix keeps one formatter per options in a Map; toISOString skips Intl altogether.',
    ],
    watch: 'The report times in the results table: the same day counts, very different costs.',
    presets: [{ strategies: ['date-tolocale', 'date-cached-formatter', 'date-iso'], params: REPORT_PARAMS }],
    conclude: ([locale, cached, iso]) => concludeDates(locale, cached, iso),
  },
  {
    lab: LAB_ID,
    n: 3,
    title: 'How the cost grows: rows² against rows',
    paragraphs: [
      'A sweep times one report per step of 1e3, 2e3, 5e3 … rows and fits time ≈ c·rows^k on log–log axes. [...values, value] copies a ' +
        'group of k rows to add one, so one big group costs 1 + 2 + … + n ≈ n²/2 copies; push costs one.',
    ],
    watch: 'The sweep chart on each card: the spread’s points climb nearly twice as steeply as push’s; the conclusion gives this run’s k for each.',
    presets: [
      { strategies: ['groupby-spread'], params: SPREAD_SWEEP },
      { strategies: ['groupby-push'], params: PUSH_SWEEP },
    ],
    conclude: ([spread, push]) => concludeGrowth(spread, push),
  },
];
