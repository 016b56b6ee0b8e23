'use client';

/**
 * A CPU card's threads: which threads of the server's process tree are computing, read from
 * /proc/<pid>/task by the load process. While the run goes: the busiest now (% of one core over
 * the last read); once it has ended: each thread's CPU time over the run. A thread that answered
 * requests (a process's main thread, or a worker thread by its kernel id) has its timeline colour.
 */
import { memo } from 'react';
import type { ThreadCpuRow } from '../shared/schema';
import { formatMs, formatPercent, formatSeconds } from '@/lib/readouts/format';

/** Rows shown; the rest are summed in one line (a fork-per-request run has a process per request). */
const ROWS = 8;

function threadText(t: ThreadCpuRow): string {
  return t.tid === t.pid ? `pid ${t.pid} · main thread` : `pid ${t.pid} · thread ${t.tid}`;
}

function ThreadCpuListImpl({ threads, live, colorOf }: { threads: readonly ThreadCpuRow[]; live: boolean; colorOf?: ReadonlyMap<string, string> }) {
  const value = (t: ThreadCpuRow) => (live ? (t.cpuPct ?? 0) : t.cpuMs);
  const max = Math.max(...threads.map(value), live ? 100 : 1);
  const shown = threads.slice(0, ROWS);
  const rest = threads.length - shown.length;
  return (
    <figure className="thread-cpu" data-testid="thread-cpu" data-live={live ? 'true' : 'false'} data-threads={threads.length}>
      <figcaption className="muted">{live ? 'Busiest threads now, % of one core (from /proc)' : 'CPU time per thread over the run (from /proc)'}</figcaption>
      {threads.length === 0 ? (
        <p className="note">No thread used measurable CPU (/proc counts in 10 ms ticks).</p>
      ) : (
        <ul>
          {shown.map((t) => (
            <li key={`${t.pid}/${t.tid}`} data-testid="thread-cpu-row" data-pid={t.pid} data-tid={t.tid}>
              <span className="thread-name">{threadText(t)}</span>
              <span className="thread-bar">
                <span style={{ width: `${(value(t) / max) * 100}%`, background: colorOf?.get(t.tid === t.pid ? String(t.pid) : `${t.pid}/${t.tid}`) }} />
              </span>
              <span className="thread-value">
                {live ? `${formatPercent((t.cpuPct ?? 0) / 100)}` : t.cpuMs < 1000 ? formatMs(t.cpuMs) : formatSeconds(t.cpuMs)}
              </span>
            </li>
          ))}
          {rest > 0 && (
            <li className="muted">
              +{rest} more thread{rest === 1 ? '' : 's'}
            </li>
          )}
        </ul>
      )}
    </figure>
  );
}

export const ThreadCpuList = memo(ThreadCpuListImpl);
