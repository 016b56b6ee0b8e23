/**
 * Summaries of recorded runs as GitHub-flavoured Markdown (memory in MB, like every view), under a
 * line saying MB means MiB, ready to paste into a wiki page: one table per lab, because the labs
 * measure different things. Pure.
 */
import { DEFAULT_LAB, LAB_IDS, labOf, LAB_NAMES } from '../labs';
import { labSchema } from '../../labs/schemas';
import { MB_NOTE } from '../readouts/format';
import { fixed, mb, type MarkdownTable } from './markdown-table';
import { summaryRow } from './summary-csv';
import type { RunRecord } from '.';

const mdCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A verdict's `expected` in words: yes, no, or – when it can't be told or there is no verdict. */
const expectedCell = (expected: boolean | null | undefined) => (expected === true ? 'yes' : expected === false ? 'no' : '–');

/** The columns every lab has, for a lab without a table of its own. */
const COMMON_TABLE: MarkdownTable = {
  head: ['Peak RSS (MB)', 'heapUsed (MB)', 'Duration (s)'],
  align: ['---:', '---:', '---:'],
  cells: (_r, row) => [mb(row.peakRss), mb(row.peakHeapUsed), fixed(typeof row.durationMs === 'number' ? row.durationMs / 1000 : null, 1)],
};

function labTable(lab: string, records: readonly RunRecord[], labels: Readonly<Record<string, string>>): string {
  const t = labSchema(lab)?.markdownTable ?? COMMON_TABLE;
  const head = ['Strategy', 'Outcome', ...t.head, 'Node', 'Date', 'Run', 'Verdict', 'As expected'];
  const align = ['---', '---', ...t.align, '---', '---', '---', '---', '---'];
  const rows = records.map((r) =>
    [
      labels[`${labOf(r.run)}/${r.run.strategy}`] ?? r.run.strategy,
      r.run.status,
      ...t.cells(r, summaryRow(r)),
      // The Node the run's own process reported (its runtime); records before runtimes: the server's.
      r.run.summary?.nodeVersion ?? r.versions.node,
      new Date(r.run.queuedAt).toISOString().slice(0, 16).replace('T', ' '),
      `\`${r.run.id}\``,
      // The verdict the API added to the summary; a record without one (interrupted) has neither.
      r.run.summary?.verdict?.text ?? '–',
      expectedCell(r.run.summary?.verdict?.expected),
    ].map(mdCell),
  );
  return [head, align, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/**
 * The runs as Markdown: one table per lab present, in the labs' order, each under the lab's name
 * when more than one lab is present. `labels` maps strategy ids to display names.
 */
/** `labels`: strategy labels keyed "<lab>/<id>" (ids repeat across labs). */
export function summariesToMarkdown(records: readonly RunRecord[], labels: Readonly<Record<string, string>> = {}): string {
  const labs = LAB_IDS.filter((lab) => records.some((r) => labOf(r.run) === lab));
  const tables = labs.map((lab) => {
    const table = labTable(
      lab,
      records.filter((r) => labOf(r.run) === lab),
      labels,
    );
    return labs.length > 1 ? `**${LAB_NAMES[lab]}**\n\n${table}` : table;
  });
  if (tables.length === 0) tables.push(labTable(DEFAULT_LAB, [], labels));
  return `${MB_NOTE}\n\n${tables.join('\n\n')}\n`;
}

const ALIGN_ROW = /^\|(\s*:?-{3,}:?\s*\|)+$/;

/** Parses Markdown tables back into cells (header and body rows), skipping other lines (tests; also handy for readers checking a paste). */
export function parseMarkdownTable(text: string): string[][] {
  return text
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('|') && !ALIGN_ROW.test(line))
    .map((line) =>
      line
        .replace(/^\|\s?|\s?\|$/g, '')
        .split(/\s\|\s/)
        .map((c) => c.replace(/\\\|/g, '|')),
    );
}
