/** The streams lab's table in a Markdown export of recorded runs: its own columns, between a run's outcome and its Node version. */
import { mb, fixed, text, type MarkdownTable } from '../../../lib/history/markdown-table';
import { formatPerSec } from '../../../lib/readouts/format';
import { streamsKnobs, type StreamsParams } from './params';

export const markdownTable: MarkdownTable = {
  head: ['File (MB)', 'Delay (ms)', 'Consumer', 'Concurrency', 'Peak RSS (MB)', 'heapUsed (MB)', 'arrayBuffers (MB)', 'Duration (s)', 'MB/s', 'Records/s'],
  align: ['---:', '---:', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
  cells: (r, row) => {
    const p = r.run.params as StreamsParams;
    return [
      text(p?.sizeMb),
      text(p?.delayMs),
      p ? streamsKnobs(p).consumer : '–',
      // What the strategy ran with (the CSV's cell: "unbounded" for no bound), empty before it was recorded.
      text(row.concurrency),
      mb(row.peakRss),
      mb(row.peakHeapUsed),
      mb(row.peakArrayBuffers),
      fixed(typeof row.durationMs === 'number' ? row.durationMs / 1000 : null, 1),
      fixed(row.mbPerSec, 1),
      typeof row.recordsPerSec === 'number' ? formatPerSec(row.recordsPerSec) : '–',
    ];
  },
};
