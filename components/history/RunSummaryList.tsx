/** The figures of a recorded run as a definition list: summary when it ended, stored samples otherwise; each lab's own. */
import { workerText } from '@/lib/readouts/workers';
import type { RunRecord } from '@/lib/history';
import { labOf } from '@/lib/labs';
import type { CpuSummary, DeadlineSummary, HotcodeSummary, HttpSummary, Memory, StreamsSummary } from '@/lib/protocol';
import { speedupText } from '@/labs/cpu/view/verdict';
import { coresText, outcomesText, recoveryText } from '@/labs/deadline/view/verdict';
import { exponentText } from '@/labs/hotcode/view/verdict';
import { longTasksText } from '@/labs/hotcode/view/card';
import { formatCount, formatMb, formatMs, formatSeconds, MB_NOTE } from '@/lib/readouts/format';

type Items = Array<[string, string]>;

/** What the streams lab measured: how much of the file got through, how fast, how far the reader ran ahead. */
function streamsItems(s: StreamsSummary | null, o: RunRecord['observed']): Items {
  return [
    ['Processed', s ? `${formatMb(s.bytesProcessed)} of ${formatMb(s.fileBytes)}` : o?.readings.bytesProcessed !== undefined ? formatMb(o.readings.bytesProcessed) : '–'],
    ['Throughput', s ? `${s.mbPerSec.toFixed(1)} MB/s` : '–'],
  ];
}

/** What the HTTP lab measured at the load: responses, their pace and latencies. */
function httpItems(s: HttpSummary | null, o: RunRecord['observed']): Items {
  const ok = o?.readings.responsesOk;
  return [
    ['Responses', s ? `${formatCount(s.responsesOk)} of ${formatCount(s.requestsPlanned)} right, ${formatCount(s.badResponses)} wrong` : ok !== undefined ? `${formatCount(ok)} right (until interrupted)` : '–'],
    ['Throughput', s ? `${s.reqPerSec.toFixed(1)} responses/s` : '–'],
    ['Latency p50 / p99', s ? `${formatMs(s.latencyP50Ms)} / ${formatMs(s.latencyP99Ms)}` : '–'],
    ['First byte p50', s ? formatMs(s.ttfbP50Ms) : '–'],
    ['Transfer p50', s ? formatMs(s.transferP50Ms) : '–'],
    ['Bytes received', s ? formatMb(s.bytesReceived) : '–'],
    ...(s && s.params.slowClients > 0 ? ([['Slow client p50', formatMs(s.slowP50Ms)]] as Items) : []),
  ];
}

/** What the CPU lab measured: requests, makespan against the cores, worker start, ping, and the process tree. */
function cpuItems(s: CpuSummary | null, o: RunRecord['observed']): Items {
  const ok = o?.readings.requestsOk;
  return [
    ['Requests', s ? `${formatCount(s.requestsOk)} of ${formatCount(s.requestsPlanned)} right, ${formatCount(s.badRequests)} wrong` : ok !== undefined ? `${formatCount(ok)} right (until interrupted)` : '–'],
    ['Makespan', s ? formatSeconds(s.makespanMs) : '–'],
    ['Speed-up', s ? speedupText(s) : '–'],
    ['Latency p50 / max', s ? `${formatMs(s.latencyP50Ms)} / ${formatMs(s.latencyMaxMs)}` : '–'],
    ['fib(n) alone', s ? formatMs(s.computeMsAlone) : '–'],
    ['Worker start p50', s ? formatMs(s.spawnP50Ms) : '–'],
    ['/ping p50 / max', s ? `${formatMs(s.pingP50Ms)} / ${formatMs(s.pingMaxMs)}` : '–'],
    ['Process tree RSS peak', s ? formatMb(s.peakTreeRss) : '–'],
    ['Processes / threads peak', s ? `${s.peakProcesses} / ${s.peakThreads}` : '–'],
    ["'message' listeners peak", s ? formatCount(s.peakMessageListeners) : '–'],
  ];
}

/** What the hot-code lab measured: the reports' synchronous time, what /health waited, a sweep's exponent. */
function hotcodeItems(s: HotcodeSummary | null): Items {
  return [
    ['Reports', s ? `${formatCount(s.reportsOk)} of ${formatCount(s.reportsPlanned)} right, ${formatCount(s.badReports)} wrong` : '–'],
    ['Report min / max', s ? `${formatMs(s.reportMsMin)} / ${formatMs(s.reportMsMax)}` : '–'],
    ['/health p50 / max', s ? `${formatMs(s.probeP50Ms)} / ${formatMs(s.probeMaxMs)} (${formatCount(s.probes)} probes)` : '–'],
    ...(s && s.sweep.length > 1 ? ([['Time ∝ rows^k', exponentText(s.sweepExponent)]] as Items) : []),
  ];
}

/** What the deadlines lab measured: the answers by outcome, latency at the load, the service's timer lateness, recovery and the capacity arithmetic. */
function deadlineItems(s: DeadlineSummary | null, o: RunRecord['observed']): Items {
  const sent = o?.readings.sent;
  return [
    ['Answers', s ? outcomesText(s) : sent !== undefined ? `${formatCount(sent)} sent (until interrupted)` : '–'],
    ['Latency p50 / p99 / max', s ? `${formatMs(s.latencyP50Ms)} / ${formatMs(s.latencyP99Ms)} / ${formatMs(s.latencyMaxMs)}` : '–'],
    ['Timer lateness p50 / p99 / max', s ? `${formatMs(s.latenessP50Ms)} / ${formatMs(s.latenessP99Ms)} / ${formatMs(s.latenessMaxMs)}` : '–'],
    ['Timer lateness in the spike p99', s ? formatMs(s.spikeLatenessP99Ms) : '–'],
    ['Deadline timers fired', s ? `${formatCount(s.deadlineTimersFired)}${s.deadlineTimersFired > 0 ? `, the latest ${formatMs(s.deadlineLatenessMaxMs)} late` : ''}` : '–'],
    ['After the spike', s ? recoveryText(s) : '–'],
    ['Work per object', s ? formatMs(s.workMsPerObject) : '–'],
    ['Work asked: baseline / spike', s ? `${coresText(s.baselineDemandCores)} / ${coresText(s.spikeDemandCores)} (${s.cores} cores)` : '–'],
    ['In flight peak', s ? formatCount(s.peakInFlight) : '–'],
  ];
}

function memoryItems(peak: Memory | null): Items {
  return [
    ['Peak RSS', peak ? formatMb(peak.rss) : '–'],
    ['Peak heapUsed', peak ? formatMb(peak.heapUsed) : '–'],
    ['Peak external', peak ? formatMb(peak.external) : '–'],
    ['Peak arrayBuffers', peak ? formatMb(peak.arrayBuffers) : '–'],
  ];
}

export function RunSummaryList({ record, storedSamples }: { record: RunRecord; storedSamples: number }) {
  const s = record.run.summary;
  const o = record.observed;
  const streams = s?.lab === 'streams' ? s : null;
  const http = s?.lab === 'http' ? s : null;
  const cpu = s?.lab === 'cpu' ? s : null;
  const deadline = s?.lab === 'deadline' ? s : null;
  const lab = labOf(record.run);
  const isHttp = lab === 'http';
  const items: Items = [
    ['Duration', s ? formatSeconds(s.durationMs) : o ? `${formatSeconds(o.lastT)} (until interrupted)` : '–'],
    ...(isHttp
      ? httpItems(http, o)
      : lab === 'streams'
        ? streamsItems(streams, o)
        : lab === 'cpu'
          ? cpuItems(cpu, o)
          : lab === 'deadline'
            ? deadlineItems(deadline, o)
            : s?.lab === 'hotcode'
              ? hotcodeItems(s)
              : []),
    ...memoryItems(s?.peak ?? o?.peak ?? null),
    // Every lab's runs: synchronous stretches over 50 ms, named by the profile when there is one.
    ...(s?.longTasks ? ([['Long tasks', longTasksText(s.longTasks)]] as Items) : []),
    ['RSS from outside', s ? formatMb(s.procPeakRss) : o ? formatMb(o.procPeakRss) : '–'],
    ...(isHttp
      ? ([
          ['Socket buffers peak', http ? formatMb(http.peakWritableBytes) : '–'],
          ['Open responses peak', http ? String(http.peakOpenResponses) : '–'],
          ['Load generator CPU', http ? formatSeconds(http.loadCpuMs) : '–'],
        ] as Items)
      : lab === 'streams'
        ? ([['Reader ahead by', streams ? formatMb(streams.peakBufferedBytes) : '–']] as Items)
        : []),
    ['Event-loop delay p99', s ? `${s.eventLoopDelayMs.p99.toFixed(1)} ms` : '–'],
    ['GC', s ? `${s.gc.count} × (${s.gc.totalMs.toFixed(0)} ms)` : '–'],
    ['Samples stored', String(storedSamples)],
    ['Node', record.versions.node],
    ...(record.run.worker ? ([['Worker', workerText(record.run.worker)!]] as Items) : []),
    ['Library', `${record.versions.library.name} ${record.versions.library.version}`],
  ];
  return (
    <>
      <dl className="run-summary" data-testid="run-summary">
        {items.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <p className="note">{MB_NOTE}</p>
    </>
  );
}
