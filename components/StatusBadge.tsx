/** A run's status (or outcome) as a small badge; failures stand out by colour and by an icon. */
import type { RunStatus } from '@/lib/protocol';

const ICONS: Partial<Record<RunStatus, string>> = {
  'data-lost': '⚠',
  'out-of-memory': '⚠',
  crashed: '✖',
  'timed-out': '⏱',
  refused: '⛔',
  completed: '✓',
};

/** Status text with a class per status for colour. */
export function StatusBadge({ status }: { status: RunStatus }) {
  const icon = ICONS[status];
  return (
    <span className={`status-badge status-${status}`}>
      {icon && <span aria-hidden="true">{icon} </span>}
      {status}
    </span>
  );
}
