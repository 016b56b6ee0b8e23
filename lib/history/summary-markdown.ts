/**
 * Summaries of recorded runs as GitHub-flavoured Markdown (memory in MB, like every view), under a
 * line saying MB means MiB, ready to paste into a wiki page: one table per lab, because the labs
 * measure different things. Pure.
 */
import { LAB_IDS, labOf, LAB_NAMES, paramsOfLab, type LabId } from '../labs';
import { formatMbNumber, MB_NOTE } from '../readouts/format';
import { summaryRow, type SummaryRow } from './summary-csv';
import type { RunRecord } from '.';

const mdCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const mb = (v: unknown) => (typeof v === 'number' ? formatMbNumber(v) : '–');
const fixed = (v: unknown, digits: number) => (typeof v === 'number' ? v.toFixed(digits) : '–');
const text = (v: unknown) => (v === null || v === undefined ? '–' : String(v));

interface LabTable {
  head: string[];
  align: string[];
  /** The lab's own cells of a run, between its outcome and the Node version. */
  cells(r: RunRecord, row: SummaryRow): string[];
}

/** The columns every lab has, for a lab without a table of its own. */
const COMMON_TABLE: LabTable = {
  head: ['Peak RSS (MB)', 'heapUsed (MB)', 'Duration (s)'],
  align: ['---:', '---:', '---:'],
  cells: (_r, row) => [mb(row.peakRss), mb(row.peakHeapUsed), fixed(typeof row.durationMs === 'number' ? row.durationMs / 1000 : null, 1)],
};

const TABLES: Partial<Record<LabId, LabTable>> = {
  streams: {
    head: ['File (MB)', 'Delay (ms)', 'Peak RSS (MB)', 'heapUsed (MB)', 'arrayBuffers (MB)', 'Duration (s)', 'MB/s'],
    align: ['---:', '---:', '---:', '---:', '---:', '---:', '---:'],
    cells: (r, row) => {
      const p = paramsOfLab(r.run, 'streams');
      return [text(p?.sizeMb), text(p?.delayMs), mb(row.peakRss), mb(row.peakHeapUsed), mb(row.peakArrayBuffers), fixed(typeof row.durationMs === 'number' ? row.durationMs / 1000 : null, 1), fixed(row.mbPerSec, 1)];
    },
  },
  http: {
    head: ['Rows', 'Clients', 'Requests', 'Slow clients', 'Peak RSS (MB)', 'heapUsed (MB)', 'Socket buffers (MB)', 'req/s', 'p50 (ms)', 'p99 (ms)', 'OK', 'Bad'],
    align: ['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
    cells: (_r, row) => [
      text(row.rows),
      text(row.concurrency),
      text(row.requests),
      text(row.slowClients),
      mb(row.peakRss),
      mb(row.peakHeapUsed),
      mb(row.peakWritableBytes),
      fixed(row.reqPerSec, 1),
      fixed(row.latencyP50Ms, 1),
      fixed(row.latencyP99Ms, 1),
      text(row.responsesOk),
      text(row.badResponses),
    ],
  },
  cpu: {
    head: ['n', 'Requests', 'At once', 'Workers', 'Makespan (s)', 'Speed-up', 'p50 (ms)', 'Spawn p50 (ms)', 'Ping max (ms)', 'Tree RSS (MB)', 'Processes', 'Threads', 'Listeners', 'OK'],
    align: ['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
    cells: (r) => {
      const p = paramsOfLab(r.run, 'cpu');
      // The CSV row has no CPU columns (yet): these come from the summary, '–' for an interrupted run.
      const s = r.run.summary?.lab === 'cpu' ? r.run.summary : null;
      return [
        text(p?.n),
        text(p?.requests),
        text(p?.concurrency),
        p ? (p.workers === null ? 'cores' : String(p.workers)) : '–',
        fixed(s ? s.makespanMs / 1000 : null, 2),
        s ? `${fixed(s.speedup, 2)} of ${s.cores}` : '–',
        fixed(s?.latencyP50Ms, 0),
        fixed(s?.spawnP50Ms, 0),
        fixed(s?.pingMaxMs, 0),
        mb(s?.peakTreeRss),
        text(s?.peakProcesses),
        text(s?.peakThreads),
        text(s?.peakMessageListeners),
        s ? `${s.requestsOk} / ${s.requestsPlanned}` : '–',
      ];
    },
  },
  deadline: {
    head: ['Baseline → spike (req/s)', 'K', 'CPU/object (ms)', 'Deadline (ms)', 'On time', 'Late', 'Timed out', 'Refused', 'Errors', 'Lateness p99 / max (ms)', 'Recovery (s)'],
    align: ['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
    cells: (r) => {
      const p = paramsOfLab(r.run, 'deadline');
      const s = r.run.summary?.lab === 'deadline' ? r.run.summary : null;
      return [
        p ? `${p.baselineRps} → ${p.spikeRps} for ${p.spikeS} s` : '–',
        text(p?.objects),
        text(p?.cpuMs),
        text(p?.deadlineMs),
        text(s?.onTime),
        text(s?.late),
        text(s?.timedOut),
        text(s?.refused),
        text(s?.errors),
        s ? `${fixed(s.latenessP99Ms, 0)} / ${fixed(s.latenessMaxMs, 0)}` : '–',
        s ? (s.recoveryMs < 0 ? 'not by the end' : fixed(s.recoveryMs / 1000, 1)) : '–',
      ];
    },
  },
  hotcode: {
    head: ['Rows', 'Reports', 'Sweep', 'Report min (ms)', 'Report max (ms)', '/health p50 (ms)', '/health max (ms)', 'Exponent', 'OK'],
    align: ['---:', '---:', '---', '---:', '---:', '---:', '---:', '---:', '---:'],
    cells: (r) => {
      const p = paramsOfLab(r.run, 'hotcode');
      const s = r.run.summary?.lab === 'hotcode' ? r.run.summary : null;
      return [
        text(p?.rows),
        text(p?.requests),
        p ? (p.sweep ? 'yes' : 'no') : '–',
        fixed(s?.reportMsMin, 1),
        fixed(s?.reportMsMax, 1),
        fixed(s?.probeP50Ms, 0),
        fixed(s?.probeMaxMs, 0),
        s && s.sweep.length > 1 ? fixed(s.sweepExponent, 2) : '–',
        s ? `${s.reportsOk} / ${s.reportsPlanned}` : '–',
      ];
    },
  },
};

function labTable(lab: LabId, records: readonly RunRecord[], labels: Readonly<Record<string, string>>): string {
  const t = TABLES[lab] ?? COMMON_TABLE;
  const head = ['Strategy', 'Outcome', ...t.head, 'Node', 'Date', 'Run'];
  const align = ['---', '---', ...t.align, '---', '---', '---'];
  const rows = records.map((r) =>
    [
      labels[r.run.strategy] ?? r.run.strategy,
      r.run.status,
      ...t.cells(r, summaryRow(r)),
      // The Node the run's own process reported (its runtime); records before runtimes: the server's.
      r.run.summary?.nodeVersion ?? r.versions.node,
      new Date(r.run.queuedAt).toISOString().slice(0, 16).replace('T', ' '),
      `\`${r.run.id}\``,
    ].map(mdCell),
  );
  return [head, align, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/**
 * The runs as Markdown: one table per lab present, in the labs' order, each under the lab's name
 * when more than one lab is present. `labels` maps strategy ids to display names.
 */
export function summariesToMarkdown(records: readonly RunRecord[], labels: Readonly<Record<string, string>> = {}): string {
  const labs = LAB_IDS.filter((lab) => records.some((r) => labOf(r.run) === lab));
  const tables = labs.map((lab) => {
    const table = labTable(lab, records.filter((r) => labOf(r.run) === lab), labels);
    return labs.length > 1 ? `**${LAB_NAMES[lab]}**\n\n${table}` : table;
  });
  if (tables.length === 0) tables.push(labTable('streams', [], labels));
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
