'use client';

/** Every numeric parameter of a run, the lab's own switches, the common text fields and the form's two common switches, each with its range or note and, when bad, its error. */
import { fieldRange } from '@/lib/form/form-fields';
import { COMMON_TEXT_FIELDS, formOf, type TextFieldSpec } from '@/lib/form/lab-forms';
import { MB_NOTE } from '@/lib/readouts/format';
import type { ExperimentFormValues } from '@/lib/form/experiment-form';
import type { StrategyInfo } from '@/lib/protocol';

export interface ParamFieldsProps {
  values: ExperimentFormValues;
  maxSizeMb: number;
  /** The message of each field whose text is not a valid value (shown under it, and the field marked invalid). */
  errors: Readonly<Record<string, string>>;
  onChange(values: ExperimentFormValues): void;
  /** The strategies picked, as the catalog has them: a field only some strategies read is shown when one of them is picked. */
  picked?: readonly StrategyInfo[];
}

function CheckField({ id, label, note, checked, onChange }: { id: string; label: string; note: string; checked: boolean; onChange(on: boolean): void }) {
  return (
    <div className="check-field">
      <input id={id} data-testid={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} aria-describedby={`${id}-note`} />
      <label htmlFor={id}>{label}</label>
      <p className="note" id={`${id}-note`}>
        {note}
      </p>
    </div>
  );
}

/** A text param (`input-<field>`): empty leaves it out; a bad value gets its message under it, as a numeric field does. */
function TextField({ spec, value, error, onChange }: { spec: TextFieldSpec; value: string; error: string | undefined; onChange(text: string): void }) {
  const id = `input-${spec.field}`;
  return (
    <div className={`field text-field${error ? ' invalid' : ''}`}>
      <label htmlFor={id}>{spec.label}</label>
      <input
        id={id}
        data-testid={id}
        type="text"
        autoComplete="off"
        spellCheck={false}
        placeholder={spec.placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error ${id}-hint` : `${id}-hint`}
      />
      {error && (
        <span className="field-error" id={`${id}-error`} data-testid={`error-${spec.field}`}>
          {error}
        </span>
      )}
      <span className="hint" id={`${id}-hint`}>
        {spec.note}
      </span>
    </div>
  );
}

/**
 * Labelled inputs `input-<field>`, kept as typed. Text inputs, not type="number": a number input
 * reports "" for text it cannot read, which would pass for an empty (null) field unseen.
 */
export function ParamFields({ values, maxSizeMb, errors, onChange, picked = [] }: ParamFieldsProps) {
  // The fields of the lab the form is for: switching labs shows the other lab's.
  const form = formOf(values.lab);
  const setNumber = (field: string, text: string) => onChange({ ...values, numbers: { ...values.numbers, [field]: text } });
  // A field that changes nothing for the consumer or strategies chosen is hidden (its value is still sent);
  // one with a bad value stays, so Start's "off until fixed" never names a field that can't be seen.
  const context = { choices: values.choices ?? {}, switches: values.switches, numbers: values.numbers, strategies: picked };
  const shown = form.fields.filter((f) => !f.appliesWhen || f.appliesWhen(context) || errors[f.field] !== undefined);
  return (
    <>
      <p className="note" id="unit-note" data-testid="unit-note">
        {MB_NOTE} KB = KiB.
      </p>
      {(form.choices ?? []).map(({ field, label, options, note }) => {
        const id = `input-${field}`;
        const defaults = form.defaults as unknown as Record<string, unknown>;
        return (
          <div className="field choice-field" key={field}>
            <label htmlFor={id}>{label}</label>
            <select
              id={id}
              data-testid={id}
              value={values.choices?.[field] ?? String(defaults[field])}
              onChange={(e) => onChange({ ...values, choices: { ...values.choices, [field]: e.target.value } })}
              aria-describedby={`${id}-hint`}
            >
              {options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
            <span className="hint" id={`${id}-hint`}>
              {note}
            </span>
          </div>
        );
      })}
      <div className="param-fields">
        {shown.map(({ field, label, unit, hint, integer, empty }) => {
          const id = `input-${field}`;
          const error = errors[field];
          const note = [hint, empty ? `empty = ${empty}` : null].filter(Boolean).join(', ');
          return (
            <div className={`field${error ? ' invalid' : ''}`} key={field}>
              <label htmlFor={id}>
                {label}
                {unit && <span className="unit"> ({unit})</span>}
              </label>
              <input
                id={id}
                data-testid={id}
                type="text"
                inputMode={integer ? 'numeric' : 'decimal'}
                autoComplete="off"
                value={values.numbers[field] ?? ''}
                onChange={(e) => setNumber(field, e.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error ${id}-hint` : `${id}-hint`}
              />
              {error && (
                <span className="field-error" id={`${id}-error`} data-testid={`error-${field}`}>
                  {error}
                </span>
              )}
              <span className="hint" id={`${id}-hint`}>
                {integer ? 'whole number ' : ''}
                {fieldRange(field, maxSizeMb, form)}
                {note ? `, ${note}` : ''}
              </span>
            </div>
          );
        })}
      </div>
      {form.switches.map(({ field, label, note }) => (
        <CheckField
          key={field}
          id={`input-${field}`}
          label={label}
          note={note}
          checked={values.switches[field] === true}
          onChange={(on) => onChange({ ...values, switches: { ...values.switches, [field]: on } })}
        />
      ))}
      {COMMON_TEXT_FIELDS.map((spec) => (
        <TextField
          key={spec.field}
          spec={spec}
          value={values.texts[spec.field] ?? ''}
          error={errors[spec.field]}
          onChange={(text) => onChange({ ...values, texts: { ...values.texts, [spec.field]: text } })}
        />
      ))}
      <CheckField
        id="input-retained"
        label="Retained-memory mode"
        note="Forces a GC before every sample so only memory still referenced is counted. Slows the run down."
        checked={values.retained}
        onChange={(retained) => onChange({ ...values, retained })}
      />
      {form.runsAlone === null ? (
        <CheckField
          id="input-parallel"
          label="Run strategies in parallel"
          note="Faster, but the runs share CPU and disk, so their figures disturb each other."
          checked={values.parallel}
          onChange={(parallel) => onChange({ ...values, parallel })}
        />
      ) : (
        <p className="note" data-testid="one-at-a-time-note">
          Strategies run one at a time: {form.runsAlone}.
        </p>
      )}
    </>
  );
}
