/**
 * The streams lab's part of a run card: bytes of the file processed, arrayBuffers and RSS from
 * outside, records per second, and the consumer's own figures for a run with the http or postgres
 * consumer (calls in flight and queued, API latency and errors; inserts and rows checked).
 */
import { MIB } from '@/lib/protocol/params';
import type { Sample } from '@/lib/protocol';
import { paramsOfLab } from '@/lib/labs';
import { runProgress } from '@/lib/readouts/progress';
import { formatCount, formatMb, formatMs, formatPercent, formatPerSec } from '@/lib/readouts/format';
import { paceText, processFigures, type CardLab, type Figure, type FigureContext } from '../../../components/run-card/figures';
import { streamsKnobs, type ConsumerKind } from '../shared/params';
import type { StreamsSummary } from '../shared/schema';
import { LAB_ID } from '../shared/id';

/** A figure whose value may be missing (a reading or figure the run has none of): "–" then. */
function figure(id: string, term: string, value: number | null | undefined, text: (v: number) => string, kind: Figure['kind']): Figure {
  return { id, term, value: value ?? null, text: value === null || value === undefined ? '–' : text(value), kind };
}

/** A reading's rate per second over the card's recent samples (runProgress's window); null until two samples span some time. */
function recentRate(samples: readonly Sample[], reading: string): number | null {
  return runProgress(samples, 0, reading).perSec;
}

/** Records per second: the whole run's once ended (none for a run recorded before records were counted), the recent rate while it runs. */
function recordsFigures(s: StreamsSummary | null, samples: readonly Sample[]): Figure[] {
  if (s) return s.recordsPerSec === undefined ? [] : [figure('records-per-sec', 'Records/s', s.recordsPerSec, formatPerSec, 'overall')];
  return [figure('records-per-sec', 'Records/s', recentRate(samples, 'records'), formatPerSec, 'now')];
}

/** The http consumer's calls: in flight and waiting for a pool connection, the API's latency (known at the end) and its errors. */
function httpFigures(s: StreamsSummary | null, last: Sample | undefined): Figure[] {
  const count = (v: number) => formatCount(v);
  if (s)
    return [
      // The summary's peak counts every consumer call started and not finished, those waiting for a connection too.
      figure('api-in-flight', 'Calls in flight', s.peakInFlight, count, 'peak'),
      figure('api-queued', 'Pool queue', s.peakApiQueued, count, 'peak'),
      {
        id: 'api-latency',
        term: 'API latency p50 / p99',
        value: s.apiP99Ms ?? null,
        text: s.apiP50Ms === undefined || s.apiP99Ms === undefined ? '–' : `${formatMs(s.apiP50Ms)} / ${formatMs(s.apiP99Ms)}`,
        kind: 'overall',
      },
      figure('api-errors', 'API errors', s.apiErrors, (v) => (s.apiCalls === undefined ? count(v) : `${count(v)} of ${count(s.apiCalls)}`), 'total'),
    ];
  return [
    figure('api-in-flight', 'Calls in flight', last?.apiInFlight, count, 'now'),
    figure('api-queued', 'Pool queue', last?.apiQueued, count, 'now'),
    figure('api-errors', 'API errors', last?.apiErrors, count, 'now'),
  ];
}

/** The postgres consumer's inserts per second and the rows in its table (checked against those sent once ended). */
function postgresFigures(s: StreamsSummary | null, samples: readonly Sample[]): Figure[] {
  if (s)
    return [
      figure('inserts-per-sec', 'Inserts/s', s.insertsPerSec, formatPerSec, 'overall'),
      figure('db-rows', 'Rows checked', s.dbRows, formatCount, 'total'),
    ];
  return [
    figure('inserts-per-sec', 'Inserts/s', recentRate(samples, 'dbRows'), formatPerSec, 'now'),
    figure('db-rows', 'Rows committed', samples.at(-1)?.dbRows, formatCount, 'now'),
  ];
}

/** The run's consumer: its summary's params once ended, the run's while it runs (the sleep consumer when neither says). */
function consumerOf(s: StreamsSummary | null, context: FigureContext | undefined): ConsumerKind {
  const params = s?.params ?? (context ? paramsOfLab(context.run, LAB_ID) : null);
  return params ? streamsKnobs(params).consumer : 'sleep';
}

export const streamsCard: CardLab = {
  preparing: () => 'Preparing the data file',

  progress(run, samples, active) {
    const s = run.summary?.lab === LAB_ID ? run.summary : null;
    const fileBytes = s?.fileBytes ?? run.preparedUnits ?? (paramsOfLab(run, LAB_ID)?.sizeMb ?? 0) * MIB;
    const p = runProgress(samples, fileBytes);
    const processed = s?.bytesProcessed ?? p.done;
    const fraction = fileBytes > 0 ? Math.min(1, processed / fileBytes) : 0;
    const rate = p.perSec === null ? null : `${(p.perSec / MIB).toFixed(1)} MB/s`;
    return {
      fraction,
      text: `${formatMb(processed).replace(/ MB$/, '')} of ${formatMb(fileBytes)} (${formatPercent(fraction)})${paceText(rate, p.etaMs, fraction, active)}`,
      label: 'share of the file processed',
    };
  },

  figures(summary, last, lastProc, _role, context) {
    const s = summary?.lab === LAB_ID ? summary : null;
    const samples = context?.samples ?? (last ? [last] : []);
    const consumer = consumerOf(s, context);
    return [
      ...processFigures('arrayBuffers', summary, last, lastProc),
      ...recordsFigures(s, samples),
      ...(consumer === 'http' ? httpFigures(s, last) : consumer === 'postgres' ? postgresFigures(s, samples) : []),
    ];
  },
};
