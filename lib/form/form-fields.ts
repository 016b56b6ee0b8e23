/**
 * The experiment form's numeric fields as a person sees them: label, unit, whether a fraction makes
 * sense, and the one message a bad value gets, at the field and in a link's notes. Pure.
 */
import { LIMITS } from '../params';

export const NUMERIC_FIELDS = ['sizeMb', 'delayMs', 'chunkKb', 'sampleMs', 'budgetMb', 'cpuUs', 'maxOldSpaceMb', 'timeoutS', 'seed'] as const;
export type NumericFormField = (typeof NUMERIC_FIELDS)[number];

export interface FieldSpec {
  field: NumericFormField;
  label: string;
  unit?: string;
  /** Shown after the range, e.g. what an empty field means. */
  hint?: string;
  /** Only whole numbers. The schema lets sizeMb be fractional, but data files are made in whole MiB, so the form asks for one. */
  integer: boolean;
  /** What an empty field means; absent when the field is required. */
  empty?: string;
}

export const FIELD_SPECS: readonly FieldSpec[] = [
  { field: 'sizeMb', label: 'File size', unit: 'MB', integer: true },
  { field: 'delayMs', label: 'Consumer delay per chunk', unit: 'ms', integer: false },
  { field: 'chunkKb', label: 'Chunk size', unit: 'KB', hint: 'the stream’s highWaterMark', integer: true },
  { field: 'cpuUs', label: 'Consumer CPU per chunk', unit: 'µs', integer: true },
  { field: 'sampleMs', label: 'Sample every', unit: 'ms', integer: true, empty: 'sampler off' },
  { field: 'budgetMb', label: 'RSS budget', unit: 'MB', integer: true, empty: 'no budget' },
  { field: 'maxOldSpaceMb', label: 'V8 heap limit', unit: 'MB', integer: true, empty: 'Node’s default (--max-old-space-size)' },
  { field: 'timeoutS', label: 'Timeout per run', unit: 's', integer: true },
  { field: 'seed', label: 'Data seed', hint: 'picks the generated file’s bytes', integer: true },
];

const SPEC_OF = new Map(FIELD_SPECS.map((s) => [s.field, s]));

function specOf(field: NumericFormField): FieldSpec {
  return SPEC_OF.get(field)!;
}

/** "File size (MB)": the label with its unit, as the page shows it. */
export function fieldLabel(field: NumericFormField): string {
  const s = specOf(field);
  return s.unit ? `${s.label} (${s.unit})` : s.label;
}

/** Largest value the form accepts: the server may cap file sizes below the schema's limit. */
export function fieldMax(field: NumericFormField, maxSizeMb: number): number {
  return field === 'sizeMb' ? Math.min(maxSizeMb, LIMITS.sizeMb.max) : LIMITS[field].max;
}

const WHOLE = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** "File size (MB) must be a whole number between 1 and 2048": what every bad value of this field is told. */
export function fieldRule(field: NumericFormField, maxSizeMb: number): string {
  const s = specOf(field);
  const kind = s.integer ? 'a whole number' : 'a number';
  const orEmpty = s.empty ? `, or empty for ${s.empty}` : '';
  return `${fieldLabel(field)} must be ${kind} between ${LIMITS[field].min} and ${fieldMax(field, maxSizeMb)}${orEmpty}`;
}

/** Null when the text is a valid value of the field (empty counts where it has a meaning), else the rule it breaks. */
export function fieldError(field: NumericFormField, text: string, maxSizeMb: number): string | null {
  const s = specOf(field);
  const t = text.trim();
  if (t === '') return s.empty ? null : fieldRule(field, maxSizeMb);
  if (!(s.integer ? WHOLE : DECIMAL).test(t)) return fieldRule(field, maxSizeMb);
  const n = Number(t);
  return n >= LIMITS[field].min && n <= fieldMax(field, maxSizeMb) ? null : fieldRule(field, maxSizeMb);
}

/** Every field's error, only for the fields that have one. */
export function formFieldErrors(numbers: Record<NumericFormField, string>, maxSizeMb: number): Partial<Record<NumericFormField, string>> {
  const errors: Partial<Record<NumericFormField, string>> = {};
  for (const field of NUMERIC_FIELDS) {
    const error = fieldError(field, numbers[field], maxSizeMb);
    if (error) errors[field] = error;
  }
  return errors;
}

/** The strategy list's own message, shown under the picker. */
export const NO_STRATEGY = 'Pick at least one strategy to start';
