/**
 * The CPU lab's part of a run card: requests answered right of those planned (and how many wait),
 * the makespan and speed-up against the cores, what starting workers cost, what /ping waited, and
 * the process tree's size, with the leaky pool's listeners flagged when they outgrow the workers.
 */
import { paramsOfLab, progressReadingOf } from '@/lib/labs';
import { listenersLeaked, speedupFigureText } from './verdict';
import { runProgress } from '@/lib/readouts/progress';
import { formatCount, formatMb, formatMs, formatPercent, formatDuration } from '@/lib/readouts/format';
import { eventLoopFigure, latencyText, paceText, type CardLab, type Figure } from '../../../components/run-card/figures';
import { LAB_ID } from '../shared/id';

/** The reading that counts requests answered right, as the lab's schema names it. */
const DONE = progressReadingOf(LAB_ID);

export const cpuCard: CardLab = {
  preparing: () => 'Preparing: starting the server and its load generator',

  progress(run, samples, active) {
    const s = run.summary?.lab === LAB_ID ? run.summary : null;
    const planned = s?.requestsPlanned ?? run.preparedUnits ?? paramsOfLab(run, LAB_ID)?.requests ?? 0;
    const live = runProgress(samples, planned, DONE);
    const done = s?.requestsOk ?? live.done;
    const fraction = planned > 0 ? Math.min(1, done / planned) : 0;
    const inFlight = samples.at(-1)?.requestsInFlight;
    const waiting = active && inFlight ? ` · ${formatCount(inFlight)} in flight` : '';
    const rate = live.perSec === null ? null : `${live.perSec.toFixed(2)} requests/s`;
    return {
      fraction,
      text: `${formatCount(done)} of ${formatCount(planned)} requests (${formatPercent(fraction)})${waiting}${paceText(rate, live.etaMs, fraction, active)}`,
      label: 'share of the requests answered',
    };
  },

  figures(summary, last, _proc, role) {
    const s = summary?.lab === LAB_ID ? summary : null;
    if (summary && s) {
      // No /ping answered (a run shorter than pingMs): not measured, never "0.0 ms".
      const ping = s.params.pingMs === 0 ? 'off' : s.pingMaxMs === null ? 'none answered' : `${formatMs(s.pingP50Ms)} / ${formatMs(s.pingMaxMs)}`;
      return [
        { id: 'makespan', term: 'Makespan', value: s.makespanMs, text: formatDuration(s.makespanMs), kind: 'total' },
        { id: 'speedup', term: 'Speed-up', value: s.speedup, text: speedupFigureText(s, role), kind: 'overall' },
        {
          id: 'latency',
          term: 'Latency p50 / max',
          value: s.latencyMaxMs,
          text: s.latencyMaxMs === null ? '–' : `${formatMs(s.latencyP50Ms)} / ${formatMs(s.latencyMaxMs)}`,
          kind: 'overall',
        },
        {
          id: 'spawn',
          term: 'Start a worker (p50)',
          value: s.spawnP50Ms,
          // Null: no start was timed (0 in older records).
          text: s.spawnP50Ms !== null && s.spawnP50Ms > 0 ? formatMs(s.spawnP50Ms) : 'none per request',
          kind: 'overall',
        },
        { id: 'ping', term: '/ping p50 / max', value: s.pingMaxMs, text: ping, kind: 'overall' },
        { id: 'tree-rss', term: 'Tree RSS', value: s.peakTreeRss, text: formatMb(s.peakTreeRss), kind: 'peak' },
        { id: 'processes', term: 'Processes / threads', value: s.peakProcesses, text: `${s.peakProcesses} / ${s.peakThreads}`, kind: 'peak' },
        {
          id: 'listeners',
          term: '‘message’ listeners',
          value: s.peakMessageListeners,
          text: formatCount(s.peakMessageListeners),
          kind: 'peak',
          alert: listenersLeaked(s),
        },
        eventLoopFigure(summary, last),
      ];
    }
    const now = (id: string, term: string, value: number | undefined, text: string, alert = false): Figure => ({
      id,
      term,
      value: value ?? null,
      text: value === undefined ? '–' : text,
      kind: 'now',
      alert,
    });
    const leaking = last ? listenersLeaked({ peakMessageListeners: last.messageListeners ?? 0, peakProcesses: last.processes ?? 0 }) : false;
    return [
      now('tree-cpu', 'Tree CPU', last?.treeCpuPct, `${(last?.treeCpuPct ?? 0).toFixed(0)}% of a core`),
      now('ping', '/ping', last?.pingMs, latencyText(last?.pingMs)),
      now('tree-rss', 'Tree RSS', last?.treeRss, formatMb(last?.treeRss ?? 0)),
      now('processes', 'Processes / threads', last?.processes, `${last?.processes ?? 0} / ${last?.threads ?? 0}`),
      now('listeners', '‘message’ listeners', last?.messageListeners, formatCount(last?.messageListeners ?? 0), leaking),
      eventLoopFigure(null, last),
    ];
  },
};
