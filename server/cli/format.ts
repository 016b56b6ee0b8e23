import type { RunSummary } from '../../lib/protocol';
import { findStrategy } from '../labs/registry';
import { flagOf } from './args';

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** The article-style table: one row per run, peaks in MB, the article's figure beside ours. */
export function formatTable(summaries: RunSummary[]): string {
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
