import type { RunSummary } from '../../lib/protocol';
import { LABS, userStrategyEntries } from '../../labs/registry';
import { flagOf } from './args';
import { formatMb } from '../../lib/readouts/format';
import { formatRetainerPath, shortScriptName } from '../../lib/heap/analysis';

/** The article-style table: one row per run, one table per lab, each lab's columns its own (labs/<lab>/parent/bench-table.ts). */
export function formatTable(summaries: RunSummary[]): string {
  return LABS.map((lab) => {
    const ofLab = summaries.filter((s) => s.lab === lab.schema.id);
    if (!ofLab.length) return null;
    const yours = userStrategyEntries(lab.schema.id).flatMap((e) => (e.strategy ? [e.strategy] : []));
    const { header, rows } = lab.benchTable(ofLab, [...lab.strategies, ...yours]);
    return table(header, rows);
  })
    .filter(Boolean)
    .join('\n\n');
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

/**
 * A run's heap findings as text: the functions that allocated most (a heap-profiled run) and each
 * snapshot's largest holder with its retainer path; nothing for a run without them.
 */
export function heapLines(s: RunSummary): string[] {
  const lines: string[] = [];
  const p = s.heapProfile;
  if (p?.error) lines.push(`${s.strategy}: no heap profile: ${p.error}`);
  else if (p) {
    const top = p.top
      .slice(0, 3)
      .map((f) => `${f.name} ${formatMb(f.selfBytes)} (${Math.round(f.selfShare * 100)}%)${f.url ? ` ${shortScriptName(f.url)}:${f.line}` : ''}`);
    lines.push(`${s.strategy}: allocated most (sampled every ${p.intervalKb} KB): ${top.join(', ')}`);
  }
  for (const snap of s.heapSnapshots ?? []) {
    const head = `${s.strategy}: snapshot ${snap.n} (${snap.trigger}, ${(snap.atMs / 1000).toFixed(1)} s in, ${snap.pauseMs} ms pause, ${formatMb(snap.bytes)})`;
    const top = snap.analysis?.largest[0];
    lines.push(snap.error ? `${head}: ${snap.error}` : top ? `${head}: ${formatRetainerPath(top.path)}` : `${head}: no holder listed`);
  }
  return lines;
}
