/** The http lab's table in a Markdown export of recorded runs: its own columns, between a run's outcome and its Node version. */
import { mb, fixed, text, type MarkdownTable } from '../../../lib/history/markdown-table';

export const markdownTable: MarkdownTable = {
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
};
