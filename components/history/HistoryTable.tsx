'use client';

/** The table of recorded runs on /runs: select for comparison, open, delete; every lab's runs, told apart by lab and by their parameters in words. */
import Link from 'next/link';
import { HISTORY_LIMITS, type RunListItem } from '@/lib/history';
import { LAB_NAMES, labOf } from '@/lib/labs';
import { formatCount, formatMbNumber, formatMs, formatTimes } from '@/lib/readouts/format';
import { labSchema, type HistoryColumn } from '@/labs/schemas';
import { runParamsText } from '@/lib/readouts/params-text';
import { peakRssOf } from '@/lib/readouts/outcome-text';
import type { StrategyInfo } from '@/lib/protocol';
import { StatusBadge } from '@/components/StatusBadge';
import { formatDateTime, strategyLabel } from './labels';

const { max: MAX_SELECTED } = HISTORY_LIMITS.compare;

/** A lab column's cell text. */
function cellText(value: number | null | undefined, unit: HistoryColumn['unit']): string {
  if (value === null || value === undefined) return '–';
  switch (unit) {
    case 'bytes':
      return formatMbNumber(value);
    case 'ms':
      return formatMs(value);
    case 'count':
      return formatCount(value);
    case 'times':
      return formatTimes(value);
    case 'number':
      return value.toFixed(2);
  }
}

interface HistoryTableProps {
  runs: readonly RunListItem[];
  /** The lab the list is filtered to ('' for every lab): its own columns are shown, from its schema. */
  lab: string;
  strategies: readonly StrategyInfo[];
  selected: readonly string[];
  onToggle(id: string, on: boolean): void;
  onDelete(run: RunListItem): void;
}

export function HistoryTable({ runs, lab, strategies, selected, onToggle, onDelete }: HistoryTableProps) {
  const full = selected.length >= MAX_SELECTED;
  // One lab's list shows its own figures; a list of every lab only what every run has.
  const own = lab ? (labSchema(lab)?.historyColumns ?? []) : [];
  return (
    <>
      <div className="table-scroll history-scroll" tabIndex={0} role="region" aria-label="Recorded runs table">
        <table data-testid="history-table" className="history-table">
          <caption className="visually-hidden">Recorded runs, newest first; memory in MB (MiB)</caption>
          <thead>
            <tr>
              <th scope="col" aria-label="Select" />
              <th scope="col">Strategy</th>
              <th scope="col">Lab</th>
              <th scope="col">Outcome</th>
              <th scope="col">Parameters</th>
              <th scope="col" className="num">
                Peak RSS
              </th>
              {own.map((c) => (
                <th key={c.key} scope="col" className="num" data-testid="history-lab-column">
                  {c.header}
                  {c.unit === 'bytes' ? ' (MB)' : ''}
                </th>
              ))}
              <th scope="col" className="num">
                Duration (s)
              </th>
              <th scope="col">Date</th>
              <th scope="col" aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {runs.length === 0 && (
              <tr>
                <td colSpan={9 + own.length} className="muted">
                  No recorded runs match. Runs started in the lab are recorded here automatically.
                </td>
              </tr>
            )}
            {runs.map((r) => {
              const label = strategyLabel(strategies, r.lab, r.strategy);
              const checked = selected.includes(r.id);
              return (
                <tr key={r.id} data-testid="history-row" data-run-id={r.id} data-strategy={r.strategy} data-status={r.status} className={`outcome-${r.status}`}>
                  <td>
                    <input
                      type="checkbox"
                      data-testid="history-select"
                      aria-label={`Select the ${label} run of ${formatDateTime(r.queuedAt)}`}
                      checked={checked}
                      disabled={!checked && full}
                      onChange={(e) => onToggle(r.id, e.target.checked)}
                    />
                  </td>
                  <th scope="row">
                    <Link href={`/runs/${r.id}`} data-testid="history-open">
                      {label}
                    </Link>
                  </th>
                  <td data-testid="history-lab" data-lab={labOf(r)} data-label="Lab">
                    {LAB_NAMES[labOf(r)] ?? labOf(r)}
                  </td>
                  <td className="history-outcome" data-label="Outcome">
                    <StatusBadge status={r.status} />
                  </td>
                  <td className="params-text" data-testid="history-params" data-label="Parameters">
                    {runParamsText(r)}
                  </td>
                  <td className="num" data-field="peakRss" data-label="Peak RSS (MB)">
                    {r.peak ? formatMbNumber(peakRssOf({ peak: r.peak, procPeakRss: r.procPeakRss ?? 0 })) : '–'}
                  </td>
                  {own.map((c) => (
                    <td
                      key={c.key}
                      className="num"
                      data-field={c.key}
                      data-value={r.figures[c.key] ?? ''}
                      data-label={`${c.header}${c.unit === 'bytes' ? ' (MB)' : ''}`}
                    >
                      {cellText(r.figures[c.key], c.unit)}
                    </td>
                  ))}
                  <td className="num" data-label="Duration (s)">
                    {r.durationMs === null ? '–' : (r.durationMs / 1000).toFixed(1)}
                  </td>
                  <td data-label="Date">{formatDateTime(r.queuedAt)}</td>
                  <td className="history-actions">
                    {/* Offered only where the server said it would allow it (null: it was not asked, so the server decides on the click). */}
                    {r.mayDelete !== false && (
                      <button
                        type="button"
                        className="link"
                        data-testid="history-delete"
                        onClick={() => onDelete(r)}
                        aria-label={`Delete the ${label} run of ${formatDateTime(r.queuedAt)}`}
                      >
                        Delete
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
