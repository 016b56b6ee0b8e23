/**
 * The hot-code lab's verdict: what a finished run showed about synchronous work in a request
 * handler, from its figures, measured against the same experiment's fixed counterpart when there is
 * one (date-tolocale against date-cached-formatter or date-iso, groupby-spread against
 * groupby-push, report-slow against report-fixed). A sweep says how the time grew with the rows and
 * whether that is the growth the strategy is there to show. Pure.
 */
import type { HotcodeSummary } from '../shared/schema';
import type { Role } from '../shared/roles';
import type { Measured, Verdict } from '../../../lib/protocol';
import type { LabVerdict, StrategyTraits } from '../../../components/lab-view';
import { counterpartOf } from '../../../lib/readouts/counterpart';
import { formatCount, formatMedian, formatMs, formatSeconds, formatTimes } from '../../../lib/readouts/format';
import { commonVerdict, completedExpected, outcomeExpected, reasonSuffix } from '../../../lib/readouts/outcome-text';

type Figures = Verdict['figures'];

/** How a strategy's cost should grow with the rows, from its declared role; undefined when the role is unknown. */
export function expectedGrowth(traits: StrategyTraits | undefined): 'linear' | 'quadratic' | undefined {
  const role = (traits?.role ?? undefined) as Role | undefined;
  if (role === undefined) return undefined;
  return role === 'slow-quadratic' ? 'quadratic' : 'linear';
}

/** Below this ratio a "slow" strategy reads as no slower than its fix. */
export const NO_LOSS = 2;
/** A sweep's exponent above this reads as faster than linear. */
export const SUPERLINEAR = 1.5;

/** "k ≈ 1.95 (quadratic: 2× the rows, 3.9× the time)". */
export function exponentText(k: number): string {
  const kind = k >= SUPERLINEAR ? (k >= 1.75 && k <= 2.25 ? 'quadratic' : 'faster than linear') : k >= 0.75 ? 'linear' : 'slower than linear';
  return `k ≈ ${k.toFixed(2)} (${kind}: 2× the rows, ${formatTimes(2 ** k)} the time)`;
}

/** "from 10,000 to 20,000 rows the cost grew at least 27× (k ≈ 4.7 there)". */
export function cliffText(c: NonNullable<HotcodeSummary['sweepCliff']>): string {
  return `from ${formatCount(c.fromRows)} to ${formatCount(c.toRows)} rows the cost grew ${c.atLeast ? 'at least ' : ''}${formatTimes(c.growth)} (local slope ${c.atLeast ? '≥ ' : ''}${c.slope.toFixed(1)})`;
}

/** What happened to the steps that were not measured: "20,000 rows stopped after 6.8 s; 1 larger step skipped (projected 41 min)". */
function unmeasuredText(s: HotcodeSummary): string {
  const parts: string[] = [];
  for (const st of s.sweepSteps.filter((x) => x.status === 'stopped'))
    parts.push(`${formatCount(st.rows)} rows stopped after ${formatSeconds(st.wallMs ?? 0)} (the time left)`);
  if (s.sweepSkipped) {
    const skipped = s.sweepSteps.filter((x) => x.status === 'skipped');
    const first = skipped[0]?.projectedMs;
    const projection = first ? `, ${formatCount(skipped[0].rows)} rows projected at ${formatSeconds(first)}` : '';
    parts.push(`${s.sweepSkipped} larger step${s.sweepSkipped === 1 ? '' : 's'} skipped (would not fit the ${s.params.timeoutS} s timeout${projection})`);
  }
  return parts.length ? `; ${parts.join('; ')}` : '';
}

/** The figures unmeasuredText quotes. */
function unmeasuredFigures(s: HotcodeSummary): Figures {
  const stopped = s.sweepSteps.filter((x) => x.status === 'stopped');
  const out: Figures = Object.fromEntries(stopped.flatMap((st) => [[`stopped.${st.rows}.wallMs`, st.wallMs ?? 0]]));
  if (s.sweepSkipped) {
    const first = s.sweepSteps.find((x) => x.status === 'skipped');
    Object.assign(out, { sweepSkipped: s.sweepSkipped, 'params.timeoutS': s.params.timeoutS });
    if (first?.projectedMs) Object.assign(out, { [`skipped.${first.rows}.projectedMs`]: first.projectedMs });
  }
  return out;
}

function sweepVerdict(s: HotcodeSummary, traits: StrategyTraits | undefined): Verdict {
  if (s.sweep.length < 2) {
    return {
      text: `The sweep timed ${s.sweep.length} step${s.sweep.length === 1 ? '' : 's'}: too few to fit how time grows${unmeasuredText(s)}.`,
      figures: { sweepSteps: s.sweep.length, ...unmeasuredFigures(s) },
      expected: null,
    };
  }
  const first = s.sweep[0];
  const last = s.sweep[s.sweep.length - 1];
  const facts = `From ${formatCount(first.rows)} to ${formatCount(last.rows)} rows the report's CPU time went from ${formatMs(first.ms)} to ${formatMs(last.ms)}: ${exponentText(s.sweepExponent)}${unmeasuredText(s)}`;
  // One exponent hides where the cost jumps: a cliff is named beside it.
  const cliff = s.sweepCliff ? `. A cliff: ${cliffText(s.sweepCliff)}, far above the fit` : '';
  const figures: Figures = {
    firstRows: first.rows,
    firstMs: first.ms,
    lastRows: last.rows,
    lastMs: last.ms,
    sweepExponent: s.sweepExponent,
    ...unmeasuredFigures(s),
    ...(s.sweepCliff && {
      'sweepCliff.fromRows': s.sweepCliff.fromRows,
      'sweepCliff.toRows': s.sweepCliff.toRows,
      'sweepCliff.growth': s.sweepCliff.growth,
      'sweepCliff.slope': s.sweepCliff.slope,
    }),
  };
  const growth = expectedGrowth(traits);
  const superlinear = s.sweepExponent >= SUPERLINEAR || s.sweepCliff !== null;
  if (growth === 'quadratic' && !superlinear)
    return { text: `Not the quadratic growth ${s.strategy} should show: ${facts}${cliff}. Try more rows.`, figures, expected: false };
  if (growth === 'linear' && superlinear) return { text: `Not the linear growth ${s.strategy} should show: ${facts}${cliff}.`, figures, expected: false };
  // Without a declared role there is no growth to hold the fit to.
  return { text: `${facts}${cliff}.`, figures, expected: growth === undefined ? null : true };
}

/** "/health up to 110 ms", or that no probe was answered while the run went (it ended within one probe interval). */
export function healthText(s: Pick<HotcodeSummary, 'probes' | 'probeMaxMs' | 'params'>): string {
  if (s.params.probeMs <= 0) return '/health not probed (probe interval 0)';
  return s.probes > 0 ? `/health up to ${formatMs(s.probeMaxMs)}` : `/health not probed: the run ended within one ${formatMs(s.params.probeMs)} probe interval`;
}

/** The figures healthText quotes, under the run's strategy id. */
function healthFigures(s: HotcodeSummary): Figures {
  if (s.params.probeMs <= 0) return { [`${s.strategy}.params.probeMs`]: 0 };
  return s.probes > 0 ? { [`${s.strategy}.probeMaxMs`]: s.probeMaxMs } : { [`${s.strategy}.params.probeMs`]: s.params.probeMs };
}

function reportsVerdict(s: HotcodeSummary, fix: HotcodeSummary | undefined): Verdict {
  const reports = `${formatCount(s.reportsOk)} report${s.reportsOk === 1 ? '' : 's'} of ${formatCount(s.params.rows)} rows`;
  const probe = s.params.probeMs > 0 ? `; /health waited up to ${formatMs(s.probeMaxMs)} meanwhile (${formatMedian(s.probeP50Ms, s.probes, 'probe')})` : '';
  const facts = `${reports} took ${formatMs(s.reportMsMin)}–${formatMs(s.reportMsMax)} each of synchronous work${probe}`;
  const figures: Figures = {
    reportsOk: s.reportsOk,
    'params.rows': s.params.rows,
    reportMsMin: s.reportMsMin,
    reportMsMax: s.reportMsMax,
    ...(s.params.probeMs > 0 && { probeMaxMs: s.probeMaxMs, probeP50Ms: s.probeP50Ms, probes: s.probes }),
  };
  // The lesson is the comparison with its fix; without one (or for a fix itself) it can't be told.
  if (!fix || fix.reportMsMin <= 0) return { text: `${facts}.`, figures, expected: null };
  const ratio = s.reportMsMin / fix.reportMsMin;
  const against = `${fix.strategy}: ${formatMs(fix.reportMsMin)}, ${healthText(fix)}`;
  const compared = { ...figures, [`${fix.strategy}.reportMsMin`]: fix.reportMsMin, ...healthFigures(fix), slowerRatio: ratio };
  if (ratio < NO_LOSS)
    return { text: `Not the hot spot ${s.strategy} should show: ${facts}, only ${formatTimes(ratio)} the ${against}.`, figures: compared, expected: false };
  return { text: `${facts}: ${formatTimes(ratio)} slower than ${against}.`, figures: compared, expected: true };
}

/**
 * The verdict for a finished hot-code run. `others` are the experiment's other finished hot-code
 * runs: a slow strategy is measured against its fix when that ran too.
 */
export function hotcodeVerdict(s: Measured<HotcodeSummary>, others: readonly HotcodeSummary[], traits: StrategyTraits | undefined): Verdict {
  const expected = outcomeExpected(s.outcome, traits);
  const reports = { reportsOk: s.reportsOk, reportsPlanned: s.reportsPlanned };
  switch (s.outcome) {
    case 'completed': {
      // Its fix is what its file declares in comparedWith, run on as many rows. A fix is not held to
      // the hot-spot rule, whatever it names (a file of yours may compare itself with the slow one).
      const fix = traits?.role === 'fix' ? undefined : counterpartOf(s, others, traits, (o) => !o.params.sweep && o.params.rows === s.params.rows);
      const judged = s.params.sweep ? sweepVerdict(s, traits) : reportsVerdict(s, fix);
      return { ...judged, expected: completedExpected(traits, judged.expected) };
    }
    case 'data-lost':
      return {
        text: `Only ${formatCount(s.reportsOk)} of ${formatCount(s.reportsPlanned)} reports counted every row${reasonSuffix(s.reason)}.`,
        figures: reports,
        expected,
      };
    case 'timed-out':
      return {
        text: `Timed out after ${s.params.timeoutS} s with ${formatCount(s.reportsOk)} of ${formatCount(s.reportsPlanned)} reports done${s.reportMsMax > 0 ? ` (the slowest took ${formatSeconds(s.reportMsMax)})` : ''}: try fewer rows, or a sweep, which skips what would not fit.`,
        figures: { 'params.timeoutS': s.params.timeoutS, ...reports, ...(s.reportMsMax > 0 && { reportMsMax: s.reportMsMax }) },
        expected,
      };
    default:
      return commonVerdict(s, traits);
  }
}

/** What the lab registry picks up from this folder (scripts/lab-index.mjs). */
export const verdict: LabVerdict = (s, siblings, traits) => hotcodeVerdict(s as Measured<HotcodeSummary>, siblings as readonly HotcodeSummary[], traits);
