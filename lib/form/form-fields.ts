/**
 * The experiment form's numeric fields as a person sees them: label, unit, whether a fraction makes
 * sense, and the one message a bad value gets, at the field and in a link's notes. Every function
 * takes the lab's form (lib/form/lab-forms.ts); the streams lab's is the default, as it was the
 * only one. Pure.
 */
import { formatCount } from '../readouts/format';
import { COMMON_TEXT_FIELDS, formOf, type FieldSpec, type LabForm } from './lab-forms';
import { DEFAULT_LAB } from '../labs';
import { labSchema } from '../../labs/schemas';

export type { FieldSpec, LabForm } from './lab-forms';

/** The default lab's numeric fields (the names its links and tests use). */
const DEFAULT_FORM = formOf(DEFAULT_LAB);
export const FIELD_SPECS: readonly FieldSpec[] = DEFAULT_FORM.fields;
export const NUMERIC_FIELDS = DEFAULT_FORM.linkOrder;
export type NumericFormField = (typeof NUMERIC_FIELDS)[number];

function specOf(field: string, form: LabForm): FieldSpec {
  const spec = form.fields.find((s) => s.field === field);
  if (!spec) throw new RangeError(`the ${form.lab} form has no field ${field}`);
  return spec;
}

/** "File size (MB)": the label with its unit, as the page shows it (a text field's label as is). */
export function fieldLabel(field: string, form: LabForm = DEFAULT_FORM): string {
  const text = COMMON_TEXT_FIELDS.find((s) => s.field === field);
  if (text) return text.label;
  const s = specOf(field, form);
  return s.unit ? `${s.label} (${s.unit})` : s.label;
}

/** Largest value the form accepts: the server may cap file sizes below the schema's limit. */
export function fieldMax(field: string, maxSizeMb: number, form: LabForm = DEFAULT_FORM): number {
  const max = form.limits[field].max;
  return field === form.cappedField ? Math.min(maxSizeMb, max) : max;
}

/** "1–2048", "1,000–1,000,000": a field's range as its hint shows it. */
export function fieldRange(field: string, maxSizeMb: number, form: LabForm = DEFAULT_FORM): string {
  return `${formatCount(form.limits[field].min)}–${formatCount(fieldMax(field, maxSizeMb, form))}`;
}

const WHOLE = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** "File size (MB) must be a whole number between 1 and 2048": what every bad value of this field is told. */
export function fieldRule(field: string, maxSizeMb: number, form: LabForm = DEFAULT_FORM): string {
  const s = specOf(field, form);
  const kind = s.integer ? 'a whole number' : 'a number';
  const orEmpty = s.empty ? `, or empty for ${s.empty}` : '';
  return `${fieldLabel(field, form)} must be ${kind} between ${form.limits[field].min} and ${fieldMax(field, maxSizeMb, form)}${orEmpty}`;
}

/** Null when the text is a valid value of the field (empty counts where it has a meaning), else the rule it breaks. */
export function fieldError(field: string, text: string, maxSizeMb: number, form: LabForm = DEFAULT_FORM): string | null {
  const s = specOf(field, form);
  const t = text.trim();
  if (t === '') return s.empty ? null : fieldRule(field, maxSizeMb, form);
  if (!(s.integer ? WHOLE : DECIMAL).test(t)) return fieldRule(field, maxSizeMb, form);
  const n = Number(t);
  return n >= form.limits[field].min && n <= fieldMax(field, maxSizeMb, form) ? null : fieldRule(field, maxSizeMb, form);
}

/** Null when the text is a valid value of the text field (empty is: the param is left out), else the message naming the field. */
export function textFieldError(field: string, text: string, form: LabForm = DEFAULT_FORM): string | null {
  const spec = COMMON_TEXT_FIELDS.find((s) => s.field === field);
  if (!spec) throw new RangeError(`the ${form.lab} form has no text field ${field}`);
  const t = text.trim();
  return t === '' ? null : spec.check(t, labSchema(form.lab)?.readings ?? []);
}

/** Every field's error, only for the fields that have one: the numeric fields in the form's link order, then the text fields. */
export function formFieldErrors(
  numbers: Readonly<Record<string, string>>,
  maxSizeMb: number,
  form: LabForm = DEFAULT_FORM,
  texts: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of form.linkOrder) {
    const error = fieldError(field, numbers[field] ?? '', maxSizeMb, form);
    if (error) errors[field] = error;
  }
  if (Object.keys(errors).length === 0 && form.crossCheck) {
    const values = Object.fromEntries(form.linkOrder.map((f) => [f, Number((numbers[f] ?? '').trim())]));
    const broken = form.crossCheck(values);
    if (broken) errors[broken.field] = broken.message;
  }
  for (const { field } of COMMON_TEXT_FIELDS) {
    const error = textFieldError(field, texts[field] ?? '', form);
    if (error) errors[field] = error;
  }
  return errors;
}

/** The strategy list's own message, shown under the picker. */
export const NO_STRATEGY = 'Pick at least one strategy to start';
