'use client';

/**
 * A run's heap snapshots: what asked for each, when, how long the run stood still for it, its size,
 * and from its analysis the largest holder's retainer path and the classes that retain the most;
 * the `.heapsnapshot` download of a recorded run.
 */
import type { HeapSnapshotSummary } from '@/lib/protocol';
import { snapshotAnalysisSchema, type SnapshotAnalysis } from '@/lib/heap/analysis';
import { formatCount, formatMb, formatMs, formatSeconds } from '@/lib/readouts/format';
import { RetainerPath } from './RetainerPath';
import { SNAPSHOT_BAND_COLOR } from './bands';

const GROUPS = 5;

function ClassGroups({ groups }: { groups: SnapshotAnalysis['groups'] }) {
  const top = [...groups].sort((a, b) => b.retainedBytes - a.retainedBytes).slice(0, GROUPS);
  if (top.length === 0) return null;
  return (
    <table className="profile-functions heap-groups" data-testid="heap-groups">
      <caption>Classes by retained size</caption>
      <thead>
        <tr>
          <th scope="col">Class</th>
          <th scope="col">Objects</th>
          <th scope="col">Self</th>
          <th scope="col">Retained</th>
        </tr>
      </thead>
      <tbody>
        {top.map((g) => (
          <tr key={g.className} data-class={g.className} data-retained={g.retainedBytes}>
            <td className="mono">{g.className}</td>
            <td className="num">{formatCount(g.count)}</td>
            <td className="num">{formatMb(g.selfBytes)}</td>
            <td className="num">{formatMb(g.retainedBytes)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Analysis({ analysis }: { analysis: SnapshotAnalysis }) {
  const [largest] = analysis.largest;
  return (
    <>
      <p className="muted heap-totals">
        {formatCount(analysis.nodeCount)} objects, {formatMb(analysis.totalBytes)} in all, {formatMb(analysis.arrayBufferBytes)} of it ArrayBuffer data (read in{' '}
        {formatMs(analysis.parseMs)}, analysed in {formatMs(analysis.analysisMs)})
      </p>
      {largest && (
        <div className="heap-largest">
          <span className="muted">Largest holder, and what holds it:</span>
          <RetainerPath holder={largest} />
        </div>
      )}
      <ClassGroups groups={analysis.groups} />
    </>
  );
}

function SnapshotItem({ snapshot: s, downloadUrl }: { snapshot: HeapSnapshotSummary; downloadUrl: string | null }) {
  // A record from before the analyzer (or of another shape) reads as no analysis, not a broken page.
  const parsed = snapshotAnalysisSchema.safeParse(s.analysis);
  const analysis = parsed.success ? parsed.data : null;
  return (
    <li className="heap-snapshot" data-testid="heap-snapshot" data-n={s.n} data-pause-ms={s.pauseMs} data-bytes={s.bytes}>
      <div className="heap-snapshot-head">
        <strong>#{s.n}</strong>
        {/* What asked for it: a press ("now"), or the run's trigger ("when arrayBuffers > 32 MB"). */}
        <span>{s.trigger === 'now' ? 'Snapshot now' : s.trigger}</span>
        <span>taken at {formatSeconds(s.atMs)}</span>
        {s.bytes > 0 && (
          <>
            <span>paused the run {formatMs(s.pauseMs)}</span>
            <span>{formatMb(s.bytes)} file</span>
          </>
        )}
        {downloadUrl && s.bytes > 0 && (
          <a className="button" href={downloadUrl} download data-testid="heapsnapshot-download">
            Download .heapsnapshot
          </a>
        )}
      </div>
      {s.error && (
        <p className="note" data-testid="heap-snapshot-error">
          {s.error}
        </p>
      )}
      {analysis ? <Analysis analysis={analysis} /> : s.bytes > 0 && !s.error && <p className="muted">No analysis of this snapshot.</p>}
    </li>
  );
}

export interface SnapshotListProps {
  snapshots: readonly HeapSnapshotSummary[];
  /** The run's own trigger in words ("when arrayBuffers > 32 MB"), if it has one. */
  trigger: string | null;
  /** Still going: more may come. */
  active: boolean;
  /** The download of snapshot n, once the run is recorded; null before. */
  downloadUrl(n: number): string | null;
}

export function SnapshotList({ snapshots, trigger, active, downloadUrl }: SnapshotListProps) {
  return (
    <section className="heap-snapshots" data-testid="heap-snapshots" aria-label="Heap snapshots">
      <header className="heap-header">
        <h4>Heap snapshots</h4>
        {trigger && <span className="muted">one taken {trigger}</span>}
        {snapshots.some((s) => s.pauseMs > 0) && (
          <span className="muted">
            <span className="heap-pause-swatch" style={{ background: SNAPSHOT_BAND_COLOR }} aria-hidden="true" /> pauses shaded on the charts
          </span>
        )}
      </header>
      {snapshots.length === 0 ? (
        <p className="muted">{active ? 'None yet.' : 'None was taken.'}</p>
      ) : (
        <ol>
          {snapshots.map((s) => (
            <SnapshotItem key={s.n} snapshot={s} downloadUrl={downloadUrl(s.n)} />
          ))}
        </ol>
      )}
    </section>
  );
}
