/** The figures of a recorded run as a definition list: summary when it ended, stored samples otherwise. */
import type { RunRecord } from '@/lib/history';
import { formatMb, formatSeconds, MB_NOTE } from '@/lib/readouts/format';

export function RunSummaryList({ record, storedSamples }: { record: RunRecord; storedSamples: number }) {
  const s = record.run.summary;
  const o = record.observed;
  const peak = s?.peak ?? o?.peak ?? null;
  const items: Array<[string, string]> = [
    ['Duration', s ? formatSeconds(s.durationMs) : o ? `${formatSeconds(o.lastT)} (until interrupted)` : '–'],
    ['Processed', s ? `${formatMb(s.bytesProcessed)} of ${formatMb(s.fileBytes)}` : o?.readings.bytesProcessed !== undefined ? formatMb(o.readings.bytesProcessed) : '–'],
    ['Throughput', s ? `${s.mbPerSec.toFixed(1)} MB/s` : '–'],
    ['Peak RSS', peak ? formatMb(peak.rss) : '–'],
    ['Peak heapUsed', peak ? formatMb(peak.heapUsed) : '–'],
    ['Peak external', peak ? formatMb(peak.external) : '–'],
    ['Peak arrayBuffers', peak ? formatMb(peak.arrayBuffers) : '–'],
    ['RSS from outside', s ? formatMb(s.procPeakRss) : o ? formatMb(o.procPeakRss) : '–'],
    ['Reader ahead by', s ? formatMb(s.peakBufferedBytes) : '–'],
    ['Event-loop delay p99', s ? `${s.eventLoopDelayMs.p99.toFixed(1)} ms` : '–'],
    ['GC', s ? `${s.gc.count} × (${s.gc.totalMs.toFixed(0)} ms)` : '–'],
    ['Samples stored', String(storedSamples)],
    ['Node', record.versions.node],
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
