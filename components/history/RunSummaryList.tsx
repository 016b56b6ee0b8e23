/** The figures of a recorded run as a definition list: summary when it ended, stored samples otherwise; each lab's own. */
import { workerText } from '@/lib/readouts/workers';
import type { RunRecord } from '@/lib/history';
import { labOf } from '@/lib/labs';
import type { Memory } from '@/lib/protocol';
import type { Items } from '@/components/lab-view';
import { labView } from '@/labs/views';
import { formatMb, formatSeconds, longTasksText, MB_NOTE } from '@/lib/readouts/format';
import { peakRssOf } from '@/lib/readouts/outcome-text';

/** `rss`: the run's peak RSS as its card and the results tables give it (peakRssOf), when known. */
function memoryItems(peak: Memory | null, rss: number | null): Items {
  return [
    ['Peak RSS', formatMb(rss)],
    ['Peak heapUsed', formatMb(peak?.heapUsed ?? null)],
    ['Peak external', formatMb(peak?.external ?? null)],
    ['Peak arrayBuffers', formatMb(peak?.arrayBuffers ?? null)],
  ];
}

/** `role`: the strategy's declared role in its lab, when the catalog knows it (a baseline reads so). */
export function RunSummaryList({ record, storedSamples, role = null }: { record: RunRecord; storedSamples: number; role?: string | null }) {
  const s = record.run.summary;
  const o = record.observed;
  // A lab without a view half shows the figures every lab has.
  const own = labView(labOf(record.run))?.recordItems(s, o, role) ?? { figures: [], memory: [] };
  const items: Items = [
    ['Duration', s ? formatSeconds(s.durationMs) : o ? `${formatSeconds(o.lastT)} (until interrupted)` : '–'],
    ...own.figures,
    ...memoryItems(s?.peak ?? o?.peak ?? null, s ? peakRssOf(s) : o ? peakRssOf(o) : null),
    // Every lab's runs: synchronous stretches over 50 ms, named by the profile when there is one.
    ...(s?.longTasks ? ([['Long tasks', longTasksText(s.longTasks)]] as Items) : []),
    ['RSS from outside', formatMb(s ? s.procPeakRss : (o?.procPeakRss ?? null))],
    ...own.memory,
    ['Event-loop delay p99', s ? `${s.eventLoopDelayMs.p99.toFixed(1)} ms` : '–'],
    ['GC', s ? `${s.gc.count} × (${s.gc.totalMs.toFixed(0)} ms)` : '–'],
    ['Samples stored', String(storedSamples)],
    ['Node', record.versions.node],
    ...(record.run.worker ? ([['Worker', workerText(record.run.worker)!]] as Items) : []),
    ['Library', `${record.versions.library.name} ${record.versions.library.version}`],
  ];
  return (
    <>
      <dl className="run-summary" data-testid="run-summary">
        {items.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <p className="note">{MB_NOTE}</p>
    </>
  );
}
