'use client';

/**
 * "Snapshot now" on a running run's card: asks the server for a heap snapshot of the run
 * (`run.snapshot`). It stays off, "taking…", until the run's next snapshot arrives or the server
 * refuses (an error answering run.snapshot, shown here).
 */
import { useState } from 'react';
import type { LabError } from '@/lib/lab-state';

export interface SnapshotButtonProps {
  runId: string;
  /** Snapshots the run has so far: one more means the one asked for arrived. */
  count: number;
  /** The page's latest server error (its seq tells a new one from an old one). */
  error: LabError | null;
  /** Sends the request; false when there is no connection. */
  onSnapshot(runId: string): boolean;
}

/** What a press is waiting for: a snapshot past `count`, or an error past `errorSeq`. */
interface Asked {
  count: number;
  errorSeq: number;
  /** Not sent: the page is not connected. */
  unsent: boolean;
}

export function SnapshotButton({ runId, count, error, onSnapshot }: SnapshotButtonProps) {
  const [asked, setAsked] = useState<Asked | null>(null);
  // Once the snapshot arrived, a later refusal is another press's (another card's).
  const arrived = asked !== null && count > asked.count;
  const refusal = asked && !arrived && error && error.requestType === 'run.snapshot' && error.seq > asked.errorSeq ? error.message : null;
  const taking = asked !== null && !asked.unsent && !arrived && refusal === null;
  const ask = () => setAsked({ count, errorSeq: error?.seq ?? 0, unsent: !onSnapshot(runId) });
  return (
    <div className="heap-snapshot-now">
      <button type="button" data-testid="snapshot-now" onClick={ask} disabled={taking} aria-describedby={`snapshot-now-note-${runId}`}>
        Snapshot now
      </button>
      <span className="muted" id={`snapshot-now-note-${runId}`} role="status" data-testid="snapshot-now-status">
        {taking ? 'taking…' : 'what holds the run’s memory now (it stands still meanwhile)'}
      </span>
      {(refusal || asked?.unsent) && (
        <p className="form-error" role="alert" data-testid="snapshot-now-error">
          {refusal ?? 'Not connected to the server: no snapshot was asked for.'}
        </p>
      )}
    </div>
  );
}
