/** The streams lab's view half, as the page asks for it (components/lab-view.ts). */
import type { StreamsSummary } from '@/labs/streams/shared/schema';
import type { LabView } from '@/components/lab-view';
import { streamsCard } from './card';
import { StreamsCharts } from './Charts';
import { streamsVerdict } from './verdict';
import { ARTICLE_RUN, ResultsTable } from './ResultsTable';
import { ModesExplorer } from './ModesExplorer';
import { BackpressureWalkthrough } from './Walkthrough';
import { recordFigures, recordMemory } from './record-items';

export const view: LabView = {
  id: 'streams',
  tagline: (
    <>
      Push readers buffer the whole file; pull readers stay flat. Watch <code>process.memoryUsage()</code> while a slow consumer reads.
    </>
  ),
  lessons: [
    {
      slug: 'modes',
      nav: 'Stream modes',
      heading: 'Stream modes: flowing or paused?',
      title: 'Stream modes · Stream Lab',
      blurb: (
        <>
          What <code>readableFlowing</code> is after each way of touching a stream: a &apos;data&apos; listener, an async iterator,
          pipe, pipeline, pause, unpipe and more, measured in a fresh Node process every time.
        </>
      ),
      Page: ModesExplorer,
    },
    {
      slug: 'backpressure',
      nav: 'Push vs pull',
      heading: 'Push vs pull, step by step',
      title: 'Push vs pull, step by step · Stream Lab',
      blurb: (
        <>
          Five short live runs: push vs pull, where the file goes in memory, how fromEvent + takeUntil loses data, garbage vs
          retained memory, and the out-of-memory failure under a memory budget.
        </>
      ),
      Page: BackpressureWalkthrough,
    },
  ],
  pickerGroups: [
    { mode: 'push', title: 'Push', blurb: 'the source emits without waiting' },
    { mode: 'pull', title: 'Pull', blurb: 'the consumer asks for each chunk' },
  ],
  card: streamsCard,
  RunCharts: StreamsCharts,
  ResultsTable: ResultsTable,
  resultsNote:
    `Peak memory in MB (MiB). The Article column is the peak the source article published for that strategy, for a ${ARTICLE_RUN.sizeMb} MB ` +
    `file at ${ARTICLE_RUN.delayMs} ms per chunk; it is shown only beside runs with those parameters.`,
  comparesSiblings: false,
  recordChart: null,
  RecordPanels: null,
  recordItems: (s, o) => ({ figures: recordFigures((s?.lab === 'streams' ? s : null), o), memory: recordMemory((s?.lab === 'streams' ? s : null)) }),
  verdict: (s, _siblings, info) => streamsVerdict(s as StreamsSummary, info),
};
