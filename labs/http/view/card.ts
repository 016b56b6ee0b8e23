/**
 * The HTTP lab's part of a run card: responses received right of those planned, the server's heap
 * and socket buffers, its pace and tail latency, and its CPU apart from the load generator's.
 */
import { paramsOfLab, progressReadingOf } from '@/lib/labs';
import { runProgress } from '@/lib/readouts/progress';
import { formatCount, formatMb, formatMs, formatPercent, formatSeconds } from '@/lib/readouts/format';
import { cpuFigures, eventLoopFigure, latencyText, paceText, type CardLab, type Figure } from '../../../components/run-card/figures';
import { LAB_ID } from '../shared/id';

/** The reading that counts responses done, as the lab's schema names it. */
const DONE = progressReadingOf(LAB_ID);

export const httpCard: CardLab = {
  preparing(run) {
    const rows = paramsOfLab(run, LAB_ID)?.rows;
    return `Preparing: starting PostgreSQL and the ${rows === undefined ? '' : `${formatCount(rows)}-row `}author table`;
  },

  progress(run, samples, active) {
    const s = run.summary?.lab === LAB_ID ? run.summary : null;
    const p = paramsOfLab(run, LAB_ID);
    // The queue's total is the responses planned (the load's requests plus one per slow client).
    const planned = s?.requestsPlanned ?? run.preparedUnits ?? (p ? p.requests + p.slowClients : 0);
    const live = runProgress(samples, planned, DONE);
    const done = s?.responsesOk ?? live.done;
    const fraction = planned > 0 ? Math.min(1, done / planned) : 0;
    const rate = live.perSec === null ? null : `${live.perSec.toFixed(1)} responses/s`;
    return {
      fraction,
      text: `${formatCount(done)} of ${formatCount(planned)} responses (${formatPercent(fraction)})${paceText(rate, live.etaMs, fraction, active)}`,
      label: 'share of the responses received',
    };
  },

  figures(summary, last, lastProc) {
    const s = summary?.lab === LAB_ID ? summary : null;
    if (summary && s) {
      const loadCpu: Figure = {
        id: 'load-cpu',
        term: 'Load generator CPU',
        value: s.loadCpuMs,
        text: s.loadCpuMs === null ? '–' : formatSeconds(s.loadCpuMs),
        kind: 'total',
      };
      return [
        { id: 'heap-used', term: 'heapUsed', value: s.peak?.heapUsed ?? null, text: formatMb(s.peak?.heapUsed ?? null), kind: 'peak' },
        { id: 'socket-buffers', term: 'Socket buffers', value: s.peakWritableBytes, text: formatMb(s.peakWritableBytes), kind: 'peak' },
        { id: 'req-per-sec', term: 'Responses/s', value: s.reqPerSec, text: s.reqPerSec?.toFixed(1) ?? '–', kind: 'overall' },
        {
          id: 'latency-p99',
          term: 'Latency p50 / p99',
          value: s.latencyP99Ms,
          text: s.latencyP50Ms === null ? '–' : `${formatMs(s.latencyP50Ms)} / ${formatMs(s.latencyP99Ms)}`,
          kind: 'overall',
        },
        eventLoopFigure(summary, last),
        ...cpuFigures(summary, last, lastProc, 'Server CPU'),
        loadCpu,
      ];
    }
    const now = (id: string, term: string, value: number | undefined, text: string): Figure => ({
      id,
      term,
      value: value ?? null,
      text: value === undefined ? '–' : text,
      kind: 'now',
    });
    const loadPct = last?.loadCpuPct;
    return [
      now('heap-used', 'heapUsed', last?.heapUsed, formatMb(last?.heapUsed ?? 0)),
      now('socket-buffers', 'Socket buffers', last?.writableBytes, formatMb(last?.writableBytes ?? 0)),
      now('req-per-sec', 'Responses/s', last?.reqPerSec, (last?.reqPerSec ?? 0).toFixed(1)),
      now('latency-p99', 'Latency p50 / p99', last?.latencyP99Ms, `${latencyText(last?.latencyP50Ms)} / ${latencyText(last?.latencyP99Ms)}`),
      eventLoopFigure(null, last),
      ...cpuFigures(null, last, lastProc, 'Server CPU'),
      now('load-cpu', 'Load generator CPU', loadPct, `${(loadPct ?? 0).toFixed(0)}% of a core`),
    ];
  },
};
