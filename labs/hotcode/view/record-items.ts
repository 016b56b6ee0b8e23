/** The hotcode lab's figures on a recorded run's page (beside every lab's memory and event-loop figures). */
import type { HotcodeSummary } from '../shared/schema';
import type { RunRecord } from '@/lib/history';
import type { Items } from '@/components/lab-view';
import { formatCount, formatCountOf, formatMs } from '@/lib/readouts/format';
import { exponentText } from './verdict';

/** What the hot-code lab measured: the reports' synchronous time, what /health waited, a sweep's exponent. */
export function recordFigures(s: HotcodeSummary | null, _o: RunRecord['observed']): Items {
  return [
    ['Reports', s ? `${formatCount(s.reportsOk)} of ${formatCount(s.reportsPlanned)} right, ${formatCount(s.badReports)} wrong` : '–'],
    ['Report min / max', s ? `${formatMs(s.reportMsMin)} / ${formatMs(s.reportMsMax)}` : '–'],
    ['/health p50 / max', s ? `${formatMs(s.probeP50Ms)} / ${formatMs(s.probeMaxMs)} (${formatCountOf(s.probes, 'probe')})` : '–'],
    ...(s && s.sweep.length > 1 ? ([['Time ∝ rows^k', exponentText(s.sweepExponent)]] as Items) : []),
  ];
}
