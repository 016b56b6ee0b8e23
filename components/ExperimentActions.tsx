'use client';

/**
 * The experiment form's action bar, at its top and kept in view while the form scrolls: Start (and
 * Stop mine / Stop all), "Run the write-up's experiment", and what Start would run — the strategies
 * picked, the experiment's size in words and about how long it takes — with the reasons it can't.
 */
import type { StrategyInfo } from '@/lib/protocol';
import { buildStartMessage, type ExperimentFormValues } from '@/lib/form/experiment-form';
import { formOf } from '@/lib/form/lab-forms';
import { experimentParamsText } from '@/lib/readouts/params-text';
import { formatSeconds } from '@/lib/readouts/format';

export interface ExperimentActionsProps {
  values: ExperimentFormValues;
  /** The strategies of the form's lab, in catalog order. */
  strategies: readonly StrategyInfo[];
  maxSizeMb: number;
  connected: boolean;
  /** Why Start is off (the bad fields, or no strategy), in the fields' labels; null when it is on. */
  blockedText: string | null;
  error: string | null;
  onDismiss(): void;
  stoppable: boolean;
  operator: boolean;
  onStopAll(): void;
  /** Fills the form with the lab's write-up experiment and starts it; absent when the lab has none. */
  onWriteUp?(): void;
}

/** What Start would run: the strategies' labels, the params in words, and the time the runs take (one after another, or the longest when parallel). */
export function experimentPreview(
  values: ExperimentFormValues,
  strategies: readonly StrategyInfo[],
  maxSizeMb: number,
): { strategies: string; size: string | null; estimateMs: number | null } {
  const picked = strategies.filter((s) => values.strategies.includes(s.id));
  const names = picked.length === 0 ? 'no strategy picked' : picked.map((s) => s.label).join(', ');
  const built = buildStartMessage(
    values,
    strategies.map((s) => s.id),
    maxSizeMb,
  );
  if (!built.ok) return { strategies: names, size: null, estimateMs: null };
  const { params, parallel = false } = built.message;
  const size = experimentParamsText({ lab: values.lab, params, parallel });
  const one = formOf(values.lab).estimateMs?.(params as unknown as Record<string, unknown>);
  const estimateMs = one === undefined ? null : parallel ? one : one * picked.length;
  return { strategies: names, size, estimateMs };
}

/** "48 s", "2 min 24 s": an estimate needs no tenths. */
function aboutText(ms: number): string {
  return ms < 59_500 ? `${Math.max(1, Math.round(ms / 1000))} s` : formatSeconds(ms);
}

export function ExperimentActions(props: ExperimentActionsProps) {
  const { values, strategies, maxSizeMb, connected, blockedText, error, onDismiss, stoppable, operator, onStopAll, onWriteUp } = props;
  const writeUp = formOf(values.lab).writeUp;
  const preview = experimentPreview(values, strategies, maxSizeMb);
  return (
    <div className="action-bar" data-testid="action-bar">
      <div className="actions">
        <button
          type="submit"
          className="primary"
          data-testid="start-button"
          disabled={!connected || blockedText !== null}
          aria-describedby={blockedText !== null ? 'start-blocked experiment-preview' : 'experiment-preview'}
        >
          Start
        </button>
        {stoppable && (
          <button
            type="button"
            data-testid="stop-all-button"
            onClick={onStopAll}
            disabled={!connected}
            title={
              operator
                ? 'Stops every run in the room (you hold the operator token)'
                : 'Stops every run this browser started; others’ runs are theirs (or the operator’s) to stop'
            }
          >
            {operator ? 'Stop all' : 'Stop mine'}
          </button>
        )}
        {writeUp && onWriteUp && (
          <button
            type="button"
            data-testid="writeup-button"
            onClick={onWriteUp}
            disabled={!connected || strategies.length === 0}
            aria-describedby="writeup-what"
          >
            Run the write-up’s experiment
          </button>
        )}
      </div>
      <p className="experiment-preview" id="experiment-preview" data-testid="experiment-preview">
        <span data-testid="preview-strategies">{preview.strategies}</span>
        {preview.size && <span data-testid="preview-size"> · {preview.size}</span>}
        {preview.estimateMs !== null && (
          <span data-testid="preview-estimate" data-ms={Math.round(preview.estimateMs)}>
            {' '}
            · about {aboutText(preview.estimateMs)}
          </span>
        )}
      </p>
      {writeUp && onWriteUp && (
        <p className="note" id="writeup-what" data-testid="writeup-what">
          The write-up’s experiment: {writeUp.what}.
        </p>
      )}
      {blockedText !== null && (
        <p className="field-error" id="start-blocked" data-testid="start-blocked">
          Start is off until these are fixed: {blockedText}.
        </p>
      )}
      {error && (
        <div className="form-error" role="alert">
          <p data-testid="form-error">{error}</p>
          <button type="button" className="link" onClick={onDismiss}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
