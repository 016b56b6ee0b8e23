/**
 * Exports of recorded runs: samples as CSV, summaries as CSV and Markdown. Pure text in, text out,
 * shared by the API (downloads) and the pages (copy to clipboard); parsers exist so tests can prove
 * an export reads back to the very numbers that were stored.
 */
import { labSchema } from '../../server/labs/schemas';
import { LEGACY_LAB, MEMORY_FIELDS } from '../protocol/common';
import { sampleSchema, type Sample } from '../protocol';
import { formatMbNumber, MB_NOTE } from '../readouts/format';
import type { RunRecord } from '.';

/**
 * Sample columns of a lab's runs in a fixed order, time first (what a spreadsheet wants as x):
 * the CSV header is this list. Memory, then the lab's readings, then the loop, GC and CPU.
 */
export function sampleColumns(lab: string = LEGACY_LAB): string[] {
  const common = Object.keys(sampleSchema.shape).filter((k) => k !== 't' && k !== 'at' && !(MEMORY_FIELDS as readonly string[]).includes(k));
  return ['t', 'at', ...MEMORY_FIELDS, ...(labSchema(lab)?.readings ?? []), ...common];
}
const OPTIONAL_COLUMNS = new Set(['cpuPct', 'elu']);
/** The streams lab's columns (the lab every page and export so far was made for). */
export const SAMPLE_COLUMNS = sampleColumns();

// String(n) of a JS number is the shortest text that parses back to the same double, so a CSV of
// String()s round-trips exactly; toFixed() would not.
const num = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

/** One header line, then one line per sample; numbers written in full precision. */
export function samplesToCsv(samples: readonly Sample[]): string {
  const lines = [SAMPLE_COLUMNS.join(',')];
  for (const s of samples) lines.push(SAMPLE_COLUMNS.map((c) => num(s[c] as number | undefined)).join(','));
  return `${lines.join('\n')}\n`;
}

/** Reads samplesToCsv's output back; throws naming the line and column of the first bad value. */
export function parseSamplesCsv(text: string): Sample[] {
  const lines = text.split(/\r?\n/).filter((l) => l !== '');
  const header = lines.shift()?.split(',') ?? [];
  const missing = SAMPLE_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length) throw new Error(`CSV header lacks column(s): ${missing.join(', ')}`);
  return lines.map((line, i) => {
    const cells = line.split(',');
    const row: Record<string, number> = {};
    header.forEach((name, j) => {
      // Readings a run recorded before they existed (CPU) are empty cells: absent, not zero.
      if (cells[j] === '' && OPTIONAL_COLUMNS.has(name)) return;
      const n = Number(cells[j]);
      if (cells[j] === '' || !Number.isFinite(n)) throw new Error(`CSV line ${i + 2}, column ${name}: "${cells[j] ?? ''}" is not a number`);
      row[name] = n;
    });
    return sampleSchema.parse(row);
  });
}

const SUMMARY_COLUMNS = [
  'id', 'experimentId', 'strategy', 'status', 'sizeMb', 'delayMs', 'chunkKb', 'cpuUs', 'sampleMs', 'retained', 'budgetMb',
  'fileBytes', 'bytesProcessed', 'durationMs', 'mbPerSec', 'peakRss', 'peakHeapTotal', 'peakHeapUsed', 'peakExternal',
  'peakArrayBuffers', 'procPeakRss', 'peakBufferedBytes', 'peakInFlight', 'eventLoopDelayP50Ms', 'eventLoopDelayP99Ms',
  'eventLoopDelayMaxMs', 'gcCount', 'gcTotalMs', 'queuedAt', 'startedAt', 'endedAt', 'nodeVersion', 'library', 'libraryVersion',
] as const;

/** A flat row per run: summary figures when the run ended, stored-sample figures when it was interrupted. */
export function summaryRow(r: RunRecord): Record<(typeof SUMMARY_COLUMNS)[number], string | number | boolean | null> {
  const { run, observed } = r;
  const s = run.summary;
  const peak = s?.peak ?? observed?.peak ?? null;
  return {
    id: run.id,
    experimentId: run.experimentId,
    strategy: run.strategy,
    status: run.status,
    sizeMb: run.params.sizeMb,
    delayMs: run.params.delayMs,
    chunkKb: run.params.chunkKb,
    cpuUs: run.params.cpuUs,
    sampleMs: run.params.sampleMs,
    retained: run.params.retained,
    budgetMb: run.params.budgetMb,
    fileBytes: s?.fileBytes ?? run.fileBytes,
    bytesProcessed: s?.bytesProcessed ?? observed?.readings.bytesProcessed ?? null,
    durationMs: s?.durationMs ?? observed?.lastT ?? null,
    mbPerSec: s?.mbPerSec ?? null,
    peakRss: peak?.rss ?? null,
    peakHeapTotal: peak?.heapTotal ?? null,
    peakHeapUsed: peak?.heapUsed ?? null,
    peakExternal: peak?.external ?? null,
    peakArrayBuffers: peak?.arrayBuffers ?? null,
    procPeakRss: s?.procPeakRss ?? observed?.procPeakRss ?? null,
    peakBufferedBytes: s?.peakBufferedBytes ?? null,
    // An interrupted run has no summary, so no event-loop or GC totals: empty cells, not zeros.
    peakInFlight: s?.peakInFlight ?? null,
    eventLoopDelayP50Ms: s?.eventLoopDelayMs.p50 ?? null,
    eventLoopDelayP99Ms: s?.eventLoopDelayMs.p99 ?? null,
    eventLoopDelayMaxMs: s?.eventLoopDelayMs.max ?? null,
    gcCount: s?.gc.count ?? null,
    gcTotalMs: s?.gc.totalMs ?? null,
    queuedAt: run.queuedAt,
    startedAt: run.startedAt,
    endedAt: r.endedAt,
    nodeVersion: r.versions.node,
    library: r.versions.library.name,
    libraryVersion: r.versions.library.version,
  };
}

/** Quotes a CSV cell only when it needs it (RFC 4180). */
function csvCell(v: string | number | boolean | null): string {
  if (v === null) return '';
  const text = String(v);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One row per run; bytes stay bytes and times stay epoch ms, so a spreadsheet can compute with them. */
export function summariesToCsv(records: readonly RunRecord[]): string {
  const lines = [SUMMARY_COLUMNS.join(',')];
  for (const r of records) {
    const row = summaryRow(r);
    lines.push(SUMMARY_COLUMNS.map((c) => csvCell(row[c])).join(','));
  }
  return `${lines.join('\n')}\n`;
}

const mdCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * A GitHub-flavoured Markdown table of the runs (memory in MB, like every view), under a line
 * saying MB means MiB, ready to paste into a wiki page. `labels` maps strategy ids to display names.
 */
export function summariesToMarkdown(records: readonly RunRecord[], labels: Readonly<Record<string, string>> = {}): string {
  const head = ['Strategy', 'Outcome', 'File (MB)', 'Delay (ms)', 'Peak RSS (MB)', 'heapUsed (MB)', 'arrayBuffers (MB)', 'Duration (s)', 'MB/s', 'Node', 'Date', 'Run'];
  const align = ['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---', '---', '---'];
  const rows = records.map((r) => {
    const row = summaryRow(r);
    const mb = (v: unknown) => (typeof v === 'number' ? formatMbNumber(v) : '–');
    return [
      labels[r.run.strategy] ?? r.run.strategy,
      r.run.status,
      String(r.run.params.sizeMb),
      String(r.run.params.delayMs),
      mb(row.peakRss),
      mb(row.peakHeapUsed),
      mb(row.peakArrayBuffers),
      typeof row.durationMs === 'number' ? (row.durationMs / 1000).toFixed(1) : '–',
      typeof row.mbPerSec === 'number' ? row.mbPerSec.toFixed(1) : '–',
      r.versions.node,
      new Date(r.run.queuedAt).toISOString().slice(0, 16).replace('T', ' '),
      `\`${r.run.id}\``,
    ].map(mdCell);
  });
  return `${MB_NOTE}\n\n${[head, align, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n')}\n`;
}

/** Parses a Markdown table back into cells, skipping lines around it (tests; also handy for readers checking a paste). */
export function parseMarkdownTable(text: string): string[][] {
  return text
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .filter((line, i) => i !== 1)
    .map((line) =>
      line
        .replace(/^\|\s?|\s?\|$/g, '')
        .split(/\s\|\s/)
        .map((c) => c.replace(/\\\|/g, '|')),
    );
}
