import type { HttpSummary, LabSummary, RunSummary, StreamsSummary } from '../../lib/protocol';
import { findStrategy } from '../../labs/registry';
import { flagOf } from './args';

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** The article-style table: one row per run, peaks in MB, the article's figure beside ours (one table per lab). */
export function formatTable(summaries: RunSummary[]): string {
  const streams = summaries.filter((s): s is StreamsSummary => s.lab === 'streams');
  const http = summaries.filter((s): s is HttpSummary => s.lab === 'http');
  const cpu = summaries.filter((s): s is LabSummary<'cpu'> => s.lab === 'cpu');
  const deadline = summaries.filter((s): s is LabSummary<'deadline'> => s.lab === 'deadline');
  const hotcode = summaries.filter((s): s is LabSummary<'hotcode'> => s.lab === 'hotcode');
  return [
    streams.length ? streamsTable(streams) : null,
    http.length ? httpTable(http) : null,
    cpu.length ? cpuTable(cpu) : null,
    deadline.length ? deadlineTable(deadline) : null,
    hotcode.length ? hotcodeTable(hotcode) : null,
  ]
    .filter(Boolean)
    .join('\n\n');
}

function streamsTable(summaries: StreamsSummary[]): string {
  const header = ['strategy', 'mode', 'outcome', 'peak rss', 'heapUsed', 'external', 'arrayBuf', 'rss-idle', 'buffered', 'time s', 'MB/s', 'article'];
  const rows = summaries.map((s) => {
    const st = findStrategy(s.lab, s.strategy);
    return [
      s.strategy,
      st?.mode ?? '?',
      s.outcome,
      mb(s.peak.rss),
      mb(s.peak.heapUsed),
      mb(s.peak.external),
      mb(s.peak.arrayBuffers),
      s.aboveIdle ? mb(s.aboveIdle.rss) : '-',
      mb(s.peakBufferedBytes),
      (s.durationMs / 1000).toFixed(1),
      s.mbPerSec.toFixed(1),
      st?.article ? `${st.article.peakMb} MB` : '',
    ];
  });
  return table(header, rows);
}

/** The HTTP lab's table: the server under test's peaks, the load's throughput and latencies. */
function httpTable(summaries: HttpSummary[]): string {
  const header = ['strategy', 'outcome', 'peak rss', 'heapUsed', 'external', 'arrayBuf', 'socket buf', 'req/s', 'p50 ms', 'p99 ms', 'ttfb p50', 'xfer p50', 'ok', 'bad', 'el max ms', 'time s', 'article'];
  const rows = summaries.map((s) => {
    const st = findStrategy(s.lab, s.strategy);
    return [
      s.strategy,
      s.outcome,
      mb(s.peak.rss),
      mb(s.peak.heapUsed),
      mb(s.peak.external),
      mb(s.peak.arrayBuffers),
      mb(s.peakWritableBytes),
      s.reqPerSec.toFixed(2),
      s.latencyP50Ms.toFixed(0),
      s.latencyP99Ms.toFixed(0),
      s.ttfbP50Ms.toFixed(0),
      s.transferP50Ms.toFixed(0),
      String(s.responsesOk),
      String(s.badResponses),
      s.eventLoopDelayMs.max.toFixed(0),
      (s.durationMs / 1000).toFixed(1),
      st?.article ? `${st.article.peakMb} MB` : '',
    ];
  });
  return table(header, rows);
}

/** The CPU lab's table: when each request ended, the speed-up against the cores, what the extra processes/threads cost. */
function cpuTable(summaries: LabSummary<'cpu'>[]): string {
  const header = ['strategy', 'outcome', 'request ends s', 'makespan s', 'alone s', 'speed-up', 'cores', 'spawn ms', 'ping p50/max ms', 'tree RSS', 'procs', 'threads', 'listeners', 'el max ms'];
  const rows = summaries.map((s) => [
    s.strategy,
    s.outcome,
    s.timeline.map((b) => (b.endMs / 1000).toFixed(2)).join(' '),
    (s.makespanMs / 1000).toFixed(2),
    (s.computeMsAlone / 1000).toFixed(2),
    s.speedup.toFixed(2),
    String(s.cores),
    s.spawnP50Ms.toFixed(0),
    `${s.pingP50Ms.toFixed(0)}/${s.pingMaxMs.toFixed(0)}`,
    mb(s.peakTreeRss),
    String(s.peakProcesses),
    String(s.peakThreads),
    String(s.peakMessageListeners),
    s.eventLoopDelayMs.max.toFixed(0),
  ]);
  return table(header, rows);
}

/** The deadlines lab's table: the outcomes (they sum to sent), latency, timer lateness, recovery and the capacity arithmetic. */
function deadlineTable(summaries: LabSummary<'deadline'>[]): string {
  const header = ['strategy', 'outcome', 'sent', 'on time', 'late', 'timed out', 'refused', 'errors', 'latency p99/max ms', 'lateness p99/max ms', 'spike p99 ms', 'recovery s', 'work/obj ms', 'spike cores', 'el max ms'];
  const rows = summaries.map((s) => [
    s.strategy,
    s.outcome,
    String(s.sent),
    String(s.onTime),
    String(s.late),
    String(s.timedOut),
    String(s.refused),
    String(s.errors),
    `${s.latencyP99Ms.toFixed(0)}/${s.latencyMaxMs.toFixed(0)}`,
    `${s.latenessP99Ms.toFixed(0)}/${s.latenessMaxMs.toFixed(0)}`,
    s.spikeLatenessP99Ms.toFixed(0),
    s.recoveryMs < 0 ? 'no' : (s.recoveryMs / 1000).toFixed(1),
    s.workMsPerObject.toFixed(2),
    s.spikeDemandCores.toFixed(1),
    s.eventLoopDelayMs.max.toFixed(0),
  ]);
  return table(header, rows);
}

/** A sweep's steps, "1000:1.72 … 20000:>6.8s(stopped) 50000:skipped", and its cliff. */
function sweepText(s: LabSummary<'hotcode'>): string {
  const steps = s.sweepSteps.length ? s.sweepSteps : s.sweep.map((p) => ({ ...p, status: 'measured' as const, wallMs: p.ms }));
  const text = steps
    .map((st) => `${st.rows}:${st.status === 'measured' ? st.ms!.toPrecision(3) : st.status === 'stopped' ? `>${((st.wallMs ?? 0) / 1000).toFixed(1)}s(stopped)` : 'skipped'}`)
    .join(' ');
  const c = s.sweepCliff;
  return c ? `${text}; cliff ${c.fromRows}→${c.toRows}: ${c.atLeast ? '≥' : ''}${c.growth.toFixed(0)}×` : text;
}

/** The hot-code lab's table: each report's synchronous time, what /health waited meanwhile, a sweep's steps and exponent. */
function hotcodeTable(summaries: LabSummary<'hotcode'>[]): string {
  const header = ['strategy', 'outcome', 'rows', 'report min/max ms', 'probe p50/max ms', 'el max ms', 'sweep rows:ms', 'exponent', 'local slopes'];
  const rows = summaries.map((s) => [
    s.strategy,
    s.outcome,
    String(s.params.rows),
    `${s.reportMsMin.toFixed(1)}/${s.reportMsMax.toFixed(1)}`,
    `${s.probeP50Ms.toFixed(0)}/${s.probeMaxMs.toFixed(0)}`,
    s.eventLoopDelayMs.max.toFixed(0),
    sweepText(s),
    s.sweep.length > 1 ? s.sweepExponent.toFixed(2) : '–',
    s.sweepSlopes.length ? s.sweepSlopes.map((l) => `${l.atLeast ? '≥' : ''}${l.slope.toFixed(1)}`).join(' ') : '–',
  ]);
  return table(header, rows);
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** The footer under the table: the run's knobs, as flags, so the command can be repeated. */
export function describeParams(lab: string, params: Record<string, unknown>): string {
  const knobs = Object.entries(params)
    .map(([k, v]) => (v === true ? flagOf(k) : v === false ? null : `${flagOf(k)} ${v === null ? 'off' : String(v)}`))
    .filter(Boolean)
    .join(' ');
  return `lab ${lab}: ${knobs}`;
}
