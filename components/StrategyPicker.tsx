'use client';

/**
 * Strategy checkboxes, grouped by whether the reader waits for the consumer (pull) or not (push);
 * a lab where that question does not arise (CPU: strategies have no mode) shows one group. The
 * strategies of yours (files in the server's strategies folder) follow under "Yours", each with
 * its source; one that failed to compile or load is listed with its problem and can't be picked.
 */
import { codeProblemText, type StrategyInfo } from '@/lib/protocol';
import { DEFAULT_LAB, type PageLabId } from '@/lib/labs';
import { labView } from '@/labs/views';

export interface StrategyPickerProps {
  /** The lab whose strategies these are (how its groups are explained). */
  lab?: PageLabId;
  strategies: readonly StrategyInfo[];
  selected: readonly string[];
  /** Shown under the legend when the selection cannot start (none picked). */
  error: string | null;
  onChange(ids: string[]): void;
}

/** Checkbox list of every strategy with its one-line explanation. */
export function StrategyPicker({ lab = DEFAULT_LAB, strategies, selected, error, onChange }: StrategyPickerProps) {
  const chosen = new Set(selected);
  const toggle = (id: string, on: boolean) => onChange(on ? [...selected, id] : selected.filter((s) => s !== id));

  return (
    <fieldset className="strategies" aria-invalid={error ? true : undefined} aria-describedby={error ? 'strategies-error' : undefined}>
      <legend>Strategies</legend>
      {error && (
        <p className="field-error" id="strategies-error" data-testid="error-strategies">
          {error}
        </p>
      )}
      {strategies.length === 0 ? (
        <p className="muted">Loading strategies from the server…</p>
      ) : (
        <div className="strategy-groups">
          {(labView(lab)?.pickerGroups ?? [{ mode: null, title: 'Strategies', blurb: '' }]).map((group) => (
            <div className="strategy-group" key={group.mode ?? 'all'}>
              <h3>
                {group.mode ? <span className={`badge mode-${group.mode}`}>{group.title}</span> : group.title} <span className="muted">{group.blurb}</span>
              </h3>
              <ul>
                {strategies
                  .filter((s) => s.mode === group.mode && s.origin !== 'yours')
                  .map((s) => {
                    const id = `strategy-${s.id}`;
                    return (
                      <li key={s.id} className="strategy-option">
                        <input
                          type="checkbox"
                          id={id}
                          data-testid={`strategy-checkbox-${s.id}`}
                          checked={chosen.has(s.id)}
                          onChange={(e) => toggle(s.id, e.target.checked)}
                          aria-describedby={`${id}-explanation`}
                        />
                        <div>
                          <label htmlFor={id}>{s.label}</label>
                          <p className="explanation" id={`${id}-explanation`} title={s.explanation}>
                            {s.explanation}
                          </p>
                        </div>
                      </li>
                    );
                  })}
              </ul>
            </div>
          ))}
          <YoursGroup lab={lab} strategies={strategies.filter((s) => s.origin === 'yours')} chosen={chosen} toggle={toggle} />
        </div>
      )}
    </fieldset>
  );
}

/**
 * The strategies of yours: each with its mode, file and source; one with a problem shows it instead
 * of a checkbox. None: no group (the form stays short; docs/strategies.md says where files go).
 */
function YoursGroup({
  lab,
  strategies,
  chosen,
  toggle,
}: {
  lab: PageLabId;
  strategies: readonly StrategyInfo[];
  chosen: ReadonlySet<string>;
  toggle(id: string, on: boolean): void;
}) {
  if (strategies.length === 0) return null;
  return (
    <div className="strategy-group strategy-group-yours" data-testid="strategies-yours">
      <h3>
        Yours <span className="muted">strategy files in the server’s strategies folder, run fenced</span>
      </h3>
      <ul>
        {strategies.map((s) => {
          const id = `strategy-${s.id}`;
          return (
            <li key={`${s.file}/${s.id}`} className="strategy-option" data-testid={`strategy-yours-${s.id}`} data-problem={s.problem ? 'true' : undefined}>
              <input
                type="checkbox"
                id={id}
                data-testid={`strategy-checkbox-${s.id}`}
                checked={!s.problem && chosen.has(s.id)}
                disabled={s.problem !== null}
                onChange={(e) => toggle(s.id, e.target.checked)}
                aria-describedby={`${id}-explanation`}
              />
              <div>
                <label htmlFor={id}>
                  {s.label} {s.mode && <span className={`badge mode-${s.mode}`}>{s.mode === 'push' ? 'Push' : 'Pull'}</span>}{' '}
                  <span className="muted">{s.file}</span>
                </label>
                {s.problem ? (
                  <p className="field-error" id={`${id}-explanation`} data-testid={`strategy-problem-${s.id}`}>
                    Can’t run: {codeProblemText(s.problem)}
                  </p>
                ) : (
                  <p className="explanation" id={`${id}-explanation`} title={s.explanation}>
                    {s.explanation}
                  </p>
                )}
                <details className="strategy-source">
                  <summary>Source</summary>
                  <pre data-testid={`strategy-source-${s.id}`}>
                    <code>{s.code}</code>
                  </pre>
                </details>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
