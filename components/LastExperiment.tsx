'use client';

/**
 * The way back after a server restart (or in a new tab): the dashboard holds no experiment of this
 * browser's, so it points to the newest one History recorded for the lab.
 */
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { HISTORY_LIMITS, runListResponseSchema } from '@/lib/history';
import { formatClock } from '@/lib/readouts/format';
import { fetchJson } from '@/components/history/api';

interface Found {
  ids: string[];
  queuedAt: number;
}

/** A line naming this browser's last recorded experiment of `lab`, with a link to it; nothing when there is none. */
export function LastExperiment({ lab, owner }: { lab: string; owner: string | null }) {
  const [found, setFound] = useState<Found | null>(null);
  useEffect(() => {
    if (owner === null) return;
    const abort = new AbortController();
    fetchJson(`/api/runs?lab=${encodeURIComponent(lab)}&owner=${encodeURIComponent(owner)}`, runListResponseSchema, abort.signal)
      .then(({ runs }) => {
        // Only this browser's runs, newest first: the first names its latest experiment.
        const mine = runs.at(0);
        const ids = mine ? runs.filter((r) => r.experimentId === mine.experimentId).map((r) => r.id) : [];
        setFound(mine ? { ids: ids.reverse(), queuedAt: mine.queuedAt } : null);
      })
      // No history to point to (the store is off or unreachable): the empty dashboard says what to do anyway.
      .catch(() => setFound(null));
    return () => abort.abort();
  }, [lab, owner]);
  if (!found) return null;
  const { ids, queuedAt } = found;
  const compare = ids.length >= HISTORY_LIMITS.compare.min && ids.length <= HISTORY_LIMITS.compare.max;
  const href = compare ? `/runs/compare?ids=${ids.join(',')}` : ids.length === 1 ? `/runs/${ids[0]}` : `/runs?lab=${lab}`;
  return (
    <p className="muted" data-testid="last-experiment">
      Your last experiment here ({formatClock(queuedAt)}, {ids.length} run{ids.length === 1 ? '' : 's'}) is recorded:{' '}
      <Link href={href} data-testid="last-experiment-link">
        {compare ? 'compare its runs' : ids.length === 1 ? 'open its run' : 'find it in History'}
      </Link>
      .
    </p>
  );
}
