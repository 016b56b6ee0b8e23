/**
 * Exports of recorded runs: samples as CSV here, summaries as CSV (summary-csv.ts) and Markdown
 * (summary-markdown.ts). Pure text in, text out, shared by the API (downloads) and the pages (copy
 * to clipboard); parsers exist so tests can prove an export reads back to the very numbers stored.
 */
import { LAB_SCHEMAS, labSchema } from '../../labs/schemas';
import { LEGACY_LAB, MEMORY_FIELDS } from '../protocol/common';
import { sampleSchema, type Sample } from '../protocol';

/**
 * Sample columns of a lab's runs in a fixed order, time first (what a spreadsheet wants as x):
 * the CSV header is this list. Memory, then the lab's readings, then the loop, GC and CPU.
 */
export function sampleColumns(lab: string = LEGACY_LAB): string[] {
  const common = Object.keys(sampleSchema.shape).filter((k) => k !== 't' && k !== 'at' && !(MEMORY_FIELDS as readonly string[]).includes(k));
  return ['t', 'at', ...MEMORY_FIELDS, ...(labSchema(lab)?.readings ?? []), ...common];
}
// Readings added after runs were recorded: empty in those runs' CSV (the streams lab's consumer readings came with #30),
// or in samples that had none to give (the streams lab's gcLeft*, present only where a full GC ran: issue 38).
const OPTIONAL_COLUMNS = new Set([
  'cpuPct',
  'elu',
  'longTaskMs',
  'records',
  'apiInFlight',
  'apiQueued',
  'apiErrors',
  'dbRows',
  'gcLeftArrayBuffers',
  'gcLeftHeapUsed',
  'gcLeftBytesRead',
]);
/** The streams lab's columns (the lab every page and export so far was made for). */
export const SAMPLE_COLUMNS = sampleColumns();

/**
 * The lab whose readings a run's samples (or a CSV header) carry: callers that know the record's
 * lab pass it; samples alone still say it, because each lab adds its own named readings.
 */
export function labOfColumns(columns: readonly string[]): string {
  const has = new Set(columns);
  // A sample may lack an optional reading (no full GC in its interval): the lab's others still say it.
  return LAB_SCHEMAS.find((l) => l.readings.length > 0 && l.readings.every((r) => has.has(r) || OPTIONAL_COLUMNS.has(r)))?.id ?? LEGACY_LAB;
}

// String(n) of a JS number is the shortest text that parses back to the same double, so a CSV of
// String()s round-trips exactly; toFixed() would not.
const num = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

/** One header line (the lab's columns), then one line per sample; numbers written in full precision. */
export function samplesToCsv(samples: readonly Sample[], lab: string = labOfColumns(Object.keys(samples[0] ?? {}))): string {
  const columns = sampleColumns(lab);
  const lines = [columns.join(',')];
  for (const s of samples) lines.push(columns.map((c) => num(s[c] as number | undefined)).join(','));
  return `${lines.join('\n')}\n`;
}

/** Reads samplesToCsv's output back; throws naming the line and column of the first bad value. */
export function parseSamplesCsv(text: string): Sample[] {
  const lines = text.split(/\r?\n/).filter((l) => l !== '');
  const header = lines.shift()?.split(',') ?? [];
  const missing = sampleColumns(labOfColumns(header)).filter((c) => !header.includes(c));
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

export { summaryRow, summariesToCsv, SUMMARY_COLUMNS } from './summary-csv';
export { summariesToMarkdown, parseMarkdownTable } from './summary-markdown';
