/**
 * A run's or an experiment's parameters in words, per lab: the few a reader needs to tell runs
 * apart. Each lab's params are read only from something that says it is of that lab. Pure.
 */
import { paramsOfLab } from '../labs';
import type { LabParams } from '../protocol';
import { formatCount } from './format';

type Tagged = { lab: string; params: LabParams };

/** "1,000-row table · 20 requests · 4 clients at once": the HTTP lab's load, long or short. */
function httpLoad(x: Tagged, short: boolean): string[] | null {
  const p = paramsOfLab(x, 'http');
  if (!p) return null;
  const parts = short
    ? [`${formatCount(p.rows)} rows`, `${formatCount(p.requests)} requests`, `${p.concurrency} at once`]
    : [`${formatCount(p.rows)}-row table`, `${formatCount(p.requests)} requests`, `${p.concurrency} clients at once`, `${formatCount(p.batchRows)} rows per write`];
  if (p.slowClients > 0) parts.push(`${p.slowClients} slow client${p.slowClients === 1 ? '' : 's'} at ${formatCount(p.slowKbps)} KB/s`);
  return parts;
}

/** "fib(40) · 4 requests · 4 at once": the CPU lab's work, in its runs' headers, lists and legends. */
function cpuLoad(x: Tagged): string[] | null {
  const p = paramsOfLab(x, 'cpu');
  if (!p) return null;
  const parts = [`fib(${p.n})`, `${formatCount(p.requests)} requests`, `${p.concurrency} at once`];
  if (p.workers !== null) parts.push(`${p.workers} workers`);
  if (p.keepAlive) parts.push('keep-alive');
  return parts;
}

/** "2 → 8 req/s · K 50 · 3 ms/object · deadline 1200 ms": the deadlines lab's schedule and work. */
function deadlineLoad(x: Tagged): string[] | null {
  const p = paramsOfLab(x, 'deadline');
  if (!p) return null;
  return [`${p.baselineRps} → ${p.spikeRps} req/s`, `K ${p.objects}`, `${p.cpuMs} ms/object`, `deadline ${formatCount(p.deadlineMs)} ms`];
}

/** "20,000 rows · 3 reports", "sweep to 100,000 rows": the hot-code lab's work. */
function hotcodeLoad(x: Tagged): string[] | null {
  const p = paramsOfLab(x, 'hotcode');
  if (!p) return null;
  return p.sweep ? [`sweep to ${formatCount(p.rows)} rows`] : [`${formatCount(p.rows)} rows`, `${formatCount(p.requests)} report${p.requests === 1 ? '' : 's'}`];
}

/** What the Runs header says about an experiment: "150 MB file · 10 ms/chunk · 64 KB chunks · budget 1024 MB · one at a time". */
export function experimentParamsText(e: Tagged & { parallel: boolean }): string {
  const p = e.params;
  const streams = paramsOfLab(e, 'streams');
  const parts = httpLoad(e, false) ?? cpuLoad(e) ?? deadlineLoad(e) ?? hotcodeLoad(e) ?? [];
  if (streams) {
    parts.push(`${streams.sizeMb} MB file`, `${streams.delayMs} ms/chunk`, `${streams.chunkKb} KB chunks`);
    if (streams.cpuUs > 0) parts.push(`${streams.cpuUs} µs CPU/chunk`);
  }
  parts.push(p.budgetMb === null ? 'no budget' : `budget ${p.budgetMb} MB`);
  if (p.retained) parts.push('retained mode');
  parts.push(e.parallel ? 'parallel' : 'one at a time');
  return parts.join(' · ');
}

/** "32 MB · 2 ms/chunk · 64 KB chunks", "1,000 rows · 20 requests · 4 at once": a run's parameters in lists and titles. */
export function runParamsText(run: Tagged): string {
  const streams = paramsOfLab(run, 'streams');
  const parts = httpLoad(run, true) ?? cpuLoad(run) ?? deadlineLoad(run) ?? hotcodeLoad(run) ?? [];
  if (streams) {
    parts.push(`${streams.sizeMb} MB`, `${streams.delayMs} ms/chunk`, `${streams.chunkKb} KB chunks`);
    if (streams.cpuUs > 0) parts.push(`${streams.cpuUs} µs CPU`);
  }
  if (run.params.retained) parts.push('retained');
  return parts.join(' · ');
}

/** "32 MB, 2 ms", "1,000 rows, 4 at once": the two figures a comparison's legend tells runs apart by. */
export function legendParamsText(run: Tagged): string {
  const streams = paramsOfLab(run, 'streams');
  if (streams) return `${streams.sizeMb} MB, ${streams.delayMs} ms`;
  const http = paramsOfLab(run, 'http');
  if (http) return `${formatCount(http.rows)} rows, ${http.concurrency} at once`;
  return (cpuLoad(run) ?? deadlineLoad(run) ?? hotcodeLoad(run))?.slice(0, 2).join(', ') ?? '';
}
