'use client';

/**
 * /runs: every recorded run, newest first, with filters, delete, and selection of 2–8 runs to
 * compare. Filters are applied by the server (GET /api/runs?lab=&strategy=&outcome=).
 */
import Link from 'next/link';
import { identityHeaders } from '@/components/hooks/browser-identity';
import { useEffect, useMemo, useState } from 'react';
import { HISTORY_LIMITS, runListResponseSchema, type RunListItem } from '@/lib/history';
import { formatMb } from '@/lib/readouts/format';
import { runStatusSchema } from '@/lib/protocol';
import { strategiesSchema } from './api';
import { HistoryHeader } from './HistoryHeader';
import { HistoryTable } from './HistoryTable';
import { LAB_IDS, LAB_NAMES } from '@/lib/labs';
import { formatDateTime, strategyLabel } from './labels';
import { useFetched } from './useFetched';

const OUTCOMES = runStatusSchema.options.filter((s) => s !== 'queued' && s !== 'preparing');
const { max: MAX_SELECTED, min: MIN_SELECTED } = HISTORY_LIMITS.compare;

export interface RunHistoryProps {
  /** Filters from the page's URL (/runs?strategy=…&outcome=…), already validated. */
  initialLab?: string;
  initialStrategy?: string;
  initialOutcome?: string;
  /** Why the URL's filters were dropped, if they were. */
  linkError?: string | null;
}

/** The history list page; its filters live in the URL, so a link reopens the same list. */
export function RunHistory({ initialLab = '', initialStrategy = '', initialOutcome = '', linkError = null }: RunHistoryProps) {
  const [lab, setLab] = useState(initialLab);
  const [strategy, setStrategy] = useState(initialStrategy);
  const [outcome, setOutcome] = useState(initialOutcome);
  const [selected, setSelected] = useState<string[]>([]);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const query = new URLSearchParams({ ...(lab && { lab }), ...(strategy && { strategy }), ...(outcome && { outcome }) }).toString();
  // Identified: each run says whether this browser may delete it, so Delete is offered only where it would be allowed.
  const list = useFetched(`/api/runs${query ? `?${query}` : ''}`, runListResponseSchema, true);
  const catalog = useFetched('/api/strategies', strategiesSchema);
  const strategies = useMemo(() => (catalog.state === 'ready' ? catalog.data : []), [catalog]);
  const unknownStrategy = strategy !== '' && catalog.state === 'ready' && !strategies.some((s) => s.id === strategy);

  useEffect(() => {
    // replaceState: a filter change is not worth a Back-button step.
    const url = `${window.location.pathname}${query ? `?${query}` : ''}`;
    if (url !== `${window.location.pathname}${window.location.search}`) window.history.replaceState(window.history.state, '', url);
  }, [query]);

  const toggle = (id: string, on: boolean) => setSelected((s) => (on ? [...s.filter((x) => x !== id), id] : s.filter((x) => x !== id)));

  const remove = async (run: RunListItem) => {
    if (
      !window.confirm(`Delete the recorded ${strategyLabel(strategies, run.lab, run.strategy)} run of ${formatDateTime(run.queuedAt)}? This cannot be undone.`)
    )
      return;
    const res = await fetch(`/api/runs/${run.id}`, { method: 'DELETE', headers: identityHeaders() });
    if (!res.ok) setDeleteError(((await res.json().catch(() => null)) as { message?: string } | null)?.message ?? `delete failed (${res.status})`);
    else setDeleteError(null);
    setSelected((s) => s.filter((x) => x !== run.id));
    list.reload();
  };

  const canCompare = selected.length >= MIN_SELECTED && selected.length <= MAX_SELECTED;
  const ids = selected.join(',');

  return (
    <>
      <HistoryHeader title="Run history" />
      <main className="layout">
        <section className="panel" aria-labelledby="history-heading">
          <header className="panel-header history-toolbar">
            <h2 id="history-heading">Recorded runs</h2>
            <label>
              Lab{' '}
              <select
                data-testid="history-filter-lab"
                value={lab}
                onChange={(e) => {
                  setLab(e.target.value);
                  // A strategy of another lab would empty the list: the lab filter wins.
                  if (e.target.value && strategy && !strategies.some((s) => s.id === strategy && s.lab === e.target.value)) setStrategy('');
                }}
              >
                <option value="">any</option>
                {LAB_IDS.map((l) => (
                  <option key={l} value={l}>
                    {LAB_NAMES[l]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Strategy{' '}
              <select data-testid="history-filter-strategy" value={strategy} onChange={(e) => setStrategy(e.target.value)}>
                <option value="">any</option>
                {unknownStrategy && <option value={strategy}>{strategy} (unknown)</option>}
                {LAB_IDS.filter((l) => !lab || l === lab).map((l) => (
                  <optgroup key={l} label={LAB_NAMES[l]}>
                    {strategies
                      .filter((s) => s.lab === l)
                      .map((s) => (
                        <option key={s.id} value={s.id}>
                          {s.label}
                        </option>
                      ))}
                  </optgroup>
                ))}
              </select>
            </label>
            <label>
              Outcome{' '}
              <select data-testid="history-filter-outcome" value={outcome} onChange={(e) => setOutcome(e.target.value)}>
                <option value="">any</option>
                {OUTCOMES.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            </label>
            <span className="spacer" />
            <span className="muted" data-testid="selection-count">
              {selected.length} selected (compare {MIN_SELECTED}–{MAX_SELECTED})
            </span>
            {canCompare ? (
              <Link className="button primary" data-testid="compare-button" href={`/runs/compare?ids=${ids}`}>
                Compare
              </Link>
            ) : (
              <button type="button" className="primary" data-testid="compare-button" disabled>
                Compare
              </button>
            )}
            {selected.length > 0 && selected.length <= MAX_SELECTED && (
              <>
                <a className="button" href={`/api/summaries.csv?ids=${ids}`} download data-testid="selected-csv">
                  Summaries CSV
                </a>
                <a className="button" href={`/api/summaries.md?ids=${ids}`} download data-testid="selected-md">
                  Markdown
                </a>
              </>
            )}
          </header>
          {linkError && (
            <p className="note" data-testid="history-link-error">
              {linkError}
            </p>
          )}
          {deleteError && (
            <p className="form-error" role="alert">
              {deleteError}
            </p>
          )}
          {list.state === 'error' && (
            <p className="form-error" role="alert" data-testid="history-error">
              {list.error}
            </p>
          )}
          {list.state === 'loading' && <p className="muted">Loading recorded runs…</p>}
          {list.state === 'ready' && (
            <>
              <Warnings warnings={list.data.warnings} />
              <HistoryTable runs={list.data.runs} lab={lab} strategies={strategies} selected={selected} onToggle={toggle} onDelete={(r) => void remove(r)} />
              <p className="note" data-testid="storage-info">
                {list.data.storage.runs} runs recorded, {formatMb(list.data.storage.bytes)} on disk; the oldest are deleted past {list.data.storage.keepRuns}{' '}
                runs or {formatMb(list.data.storage.keepBytes)} (STREAM_LAB_KEEP_RUNS, STREAM_LAB_KEEP_MB).
              </p>
            </>
          )}
        </section>
      </main>
    </>
  );
}

/** Problems the store met (skipped records, failed writes), shown rather than logged only. */
export function Warnings({ warnings }: { warnings: readonly string[] }) {
  if (warnings.length === 0) return null;
  return (
    <div className="history-warnings" role="status" data-testid="history-warnings">
      <p>
        <strong>Some records could not be read or saved:</strong>
      </p>
      <ul>
        {warnings.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
    </div>
  );
}
