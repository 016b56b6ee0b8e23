'use client';

/** Every numeric parameter of a run and the form's two switches, each with its range and a note. */
import { LIMITS } from '@/lib/params';
import type { ExperimentFormValues, NumericFormField } from '@/lib/experiment-form';

interface FieldSpec {
  field: NumericFormField;
  label: string;
  unit?: string;
  hint?: string;
}

const FIELDS: FieldSpec[] = [
  { field: 'sizeMb', label: 'File size', unit: 'MB' },
  { field: 'delayMs', label: 'Consumer delay per chunk', unit: 'ms' },
  { field: 'chunkKb', label: 'Chunk size (highWaterMark)', unit: 'KB' },
  { field: 'cpuUs', label: 'Consumer CPU per chunk', unit: 'µs' },
  { field: 'sampleMs', label: 'Sample every', unit: 'ms', hint: 'empty = sampler off' },
  { field: 'budgetMb', label: 'RSS budget', unit: 'MB', hint: 'empty = no budget' },
  { field: 'maxOldSpaceMb', label: 'V8 heap limit', unit: 'MB', hint: 'empty = Node’s default (--max-old-space-size)' },
  { field: 'timeoutS', label: 'Timeout per run', unit: 's' },
  { field: 'seed', label: 'Data seed', hint: 'picks the generated file’s bytes' },
];

export interface ParamFieldsProps {
  values: ExperimentFormValues;
  maxSizeMb: number;
  onChange(values: ExperimentFormValues): void;
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

/** Labelled inputs `input-<field>`; the form keeps their text as typed and validates on Start. */
export function ParamFields({ values, maxSizeMb, onChange }: ParamFieldsProps) {
  const setNumber = (field: NumericFormField, text: string) => onChange({ ...values, numbers: { ...values.numbers, [field]: text } });
  return (
    <>
      <div className="param-fields">
        {FIELDS.map(({ field, label, unit, hint }) => {
          // The server may cap file sizes below the schema's limit.
          const max = field === 'sizeMb' ? maxSizeMb : LIMITS[field].max;
          const id = `input-${field}`;
          return (
            <div className="field" key={field}>
              <label htmlFor={id}>
                {label}
                {unit && <span className="unit"> ({unit})</span>}
              </label>
              <input
                id={id}
                data-testid={id}
                type="number"
                inputMode="decimal"
                min={LIMITS[field].min}
                max={max}
                value={values.numbers[field]}
                onChange={(e) => setNumber(field, e.target.value)}
                aria-describedby={`${id}-hint`}
              />
              <span className="hint" id={`${id}-hint`}>
                {LIMITS[field].min}–{max}
                {hint ? `, ${hint}` : ''}
              </span>
            </div>
          );
        })}
      </div>
      <CheckField
        id="input-retained"
        label="Retained-memory mode"
        note="Forces a GC before every sample so only memory still referenced is counted. Slows the run down."
        checked={values.retained}
        onChange={(retained) => onChange({ ...values, retained })}
      />
      <CheckField
        id="input-parallel"
        label="Run strategies in parallel"
        note="Faster, but the runs share CPU and disk, so their figures disturb each other."
        checked={values.parallel}
        onChange={(parallel) => onChange({ ...values, parallel })}
      />
    </>
  );
}
