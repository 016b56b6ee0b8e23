'use client';

/**
 * A heap-profiled run's allocations in brief: the functions that allocated the most in their own
 * frame, from V8's sampling heap profiler (live while the run goes, the final profile once it has
 * ended), their call paths as a flame graph, and the `.heapprofile` download of a recorded run.
 */
import type { HeapProfileSummary } from '@/lib/protocol';
import { shortScriptName } from '@/lib/heap/analysis';
import { formatMb, formatPercent, formatSeconds } from '@/lib/readouts/format';
import { FlameGraph } from '@/components/profile/FlameGraph';
import { HarnessBadge } from './HarnessBadge';

const ROWS = 5;

/** "node:buffer:834", "node_modules/rxjs/…/mergeInternals.js:12": where a function is, as the snapshots' paths say it. */
const whereText = (url: string, line: number) => (line > 0 ? `${shortScriptName(url)}:${line}` : shortScriptName(url));

export interface AllocationsPanelProps {
  /** The run as the page names it (the flame graph's label). */
  label: string;
  /** The latest profile; null until the first read (about a second in). */
  profile: HeapProfileSummary | null;
  /** Still changing: the profile is the latest read, not the run's whole. */
  live: boolean;
  /** The recorded profile's download, once the run has ended; null before. */
  downloadUrl: string | null;
}

export function AllocationsPanel({ label, profile, live, downloadUrl }: AllocationsPanelProps) {
  const top = profile ? profile.top.slice(0, ROWS) : [];
  return (
    <section className="heap-allocations" data-testid="heap-allocations" data-live={live ? 'true' : 'false'} aria-label="Allocations">
      <header className="heap-header">
        <h4>Allocations</h4>
        {profile && !profile.error && (
          <span className="muted" data-testid="heap-allocations-sampled" data-bytes={profile.sampledBytes}>
            {formatMb(profile.sampledBytes)} sampled (every {profile.intervalKb} KB on average) {live ? `by ${formatSeconds(profile.atMs)}` : 'over the run'}
          </span>
        )}
        {downloadUrl && (
          <a className="button" href={downloadUrl} download data-testid="heapprofile-download">
            Download .heapprofile
          </a>
        )}
      </header>
      {profile?.error ? (
        <p className="note" data-testid="heap-profile-error">
          No heap profile: {profile.error}.
        </p>
      ) : !profile ? (
        <p className="muted">{live ? 'Waiting for the first heap profile…' : 'No heap profile was read.'}</p>
      ) : top.length === 0 ? (
        <p className="muted">No allocation sampled yet.</p>
      ) : (
        <table className="profile-functions heap-functions" data-testid="heap-functions">
          <caption>Functions by bytes allocated in their own frame (sampled; collected objects included)</caption>
          <thead>
            <tr>
              <th scope="col">Function (file:line)</th>
              <th scope="col">Allocated</th>
              <th scope="col">Share</th>
            </tr>
          </thead>
          <tbody>
            {top.map((f) => (
              <tr
                key={`${f.name}|${f.url}|${f.line}|${f.harness ? 'h' : ''}`}
                data-function={f.name}
                data-bytes={f.selfBytes}
                data-harness={f.harness ? 'true' : undefined}
              >
                <td>
                  {f.name}
                  {f.harness && <HarnessBadge what="allocated" />}
                  {f.url && (
                    <span className="heap-where mono" title={f.url}>
                      {whereText(f.url, f.line)}
                    </span>
                  )}
                </td>
                <td className="num">{formatMb(f.selfBytes)}</td>
                <td className="num">{formatPercent(f.selfShare)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {/* Who allocated, by call path: the same tree DevTools' Memory panel draws, growing with each read. */}
      {profile?.tree && profile.tree.total > 0 && (
        // Folded by default: module loading alone makes the tree dozens of frames deep.
        <details className="heap-flame" data-testid="heap-flame">
          <summary>Allocations by call path (flame graph)</summary>
          <FlameGraph tree={profile.tree} label={label} kind="heap" />
        </details>
      )}
    </section>
  );
}
