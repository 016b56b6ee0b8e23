/**
 * Turns what the experiment form holds (strings, as inputs give them) into an `experiment.start`
 * message, or into the one-line error the server would have answered, and the form into a link and
 * back. The form knows its lab; each lab's fields are in lab-forms.ts. Pure.
 */
import { DEFAULT_LAB, isPageLab, LAB_NAMES, PAGE_LABS, type PageLabId } from '../labs';
import { clientMessageSchema, type ClientMessage, type LabParams } from '../protocol';
import { describeZodError } from '../protocol/params';
import { fieldError, formFieldErrors, NO_STRATEGY, NUMERIC_FIELDS, textFieldError, type NumericFormField } from './form-fields';
import { COMMON_TEXT_FIELDS, formOf, NULL_WORDS, type LabForm } from './lab-forms';
import { NODE_SPEC_PATTERN, NODE_SPEC_RULE } from '../runtimes';

export { NUMERIC_FIELDS, type NumericFormField };

/** The lab a form is for when nothing names one: links from before labs are streams links. */
export const DEFAULT_FORM_LAB: PageLabId = DEFAULT_LAB;

export interface ExperimentFormValues {
  /** The lab the form is for: which fields `numbers` holds, which strategies, which schema. */
  lab: PageLabId;
  /** Each numeric field's text as typed, keyed by param name. */
  numbers: Record<string, string>;
  /** The lab's own on/off params (lab-forms.ts `switches`), keyed by param name; empty for labs without. */
  switches: Record<string, boolean>;
  /** Each text field's text as typed (lab-forms.ts COMMON_TEXT_FIELDS), keyed by param name; "" = the param left out. */
  texts: Record<string, string>;
  /** The lab's named-value params (lab-forms.ts `choices`), keyed by param name; absent for labs without. */
  choices?: Record<string, string>;
  retained: boolean;
  parallel: boolean;
  /** Selected strategy ids, any order. */
  strategies: readonly string[];
  /** The runtime asked for ("22", "22.23.3"); absent or "" = the server's own Node. */
  node?: string;
}

/** The form's starting values for a lab: its defaults, with its first lesson's pair picked. */
export function defaultFormValues(lab: PageLabId = DEFAULT_FORM_LAB): ExperimentFormValues {
  const form = formOf(lab);
  return formValuesFromParams(form.defaults, form.defaultStrategies, false, lab);
}

/** "" → undefined (zod then names the field), otherwise the number the text spells (NaN if none). */
function readNumber(text: string | undefined): number | undefined {
  const trimmed = (text ?? '').trim();
  return trimmed === '' ? undefined : Number(trimmed);
}

/** Like `readNumber`, but "" is the field's null (sampler off, no budget, Node's heap default). */
function readNullable(text: string | undefined): number | null | undefined {
  return (text ?? '').trim() === '' ? null : readNumber(text);
}

export type BuildResult = { ok: true; message: Extract<ClientMessage, { type: 'experiment.start' }> & { params: LabParams } } | { ok: false; error: string };

/**
 * Validates each field as the page marks it (labels a person reads, whole numbers where the form
 * asks for them, the server's size cap), then the whole message with the server's own schemas.
 * `catalogOrder` fixes the order runs are queued in, whatever order boxes were ticked.
 */
export function buildStartMessage(values: ExperimentFormValues, catalogOrder: readonly string[], maxSizeMb: number): BuildResult {
  const form = formOf(values.lab);
  const fieldErrors = Object.values(formFieldErrors(values.numbers, maxSizeMb, form, values.texts));
  if (fieldErrors.length > 0) return { ok: false, error: fieldErrors.join('; ') };
  if (values.strategies.length === 0) return { ok: false, error: NO_STRATEGY };
  const params: Record<string, unknown> = { retained: values.retained };
  for (const field of form.linkOrder) params[field] = field in NULL_WORDS ? readNullable(values.numbers[field]) : readNumber(values.numbers[field]);
  for (const { field, optional } of form.switches) if (!optional || values.switches[field]) params[field] = values.switches[field] === true;
  for (const field of textFieldsSet(values)) params[field] = values.texts[field].trim();
  for (const { field } of form.choices ?? []) if (values.choices?.[field] !== undefined) params[field] = values.choices[field];
  if (values.node) params.node = values.node;
  const selected = new Set(values.strategies);
  const strategies = catalogOrder.filter((id) => selected.has(id));
  const checked = form.schema.strict().safeParse(params);
  if (!checked.success) return { ok: false, error: describeZodError(checked.error) };
  // A lab that runs one strategy at a time would refuse parallel: the form never asks for it there.
  const parallel = form.runsAlone === null && values.parallel;
  const parsed = clientMessageSchema.safeParse({ type: 'experiment.start', lab: values.lab, strategies, params: checked.data, parallel });
  if (!parsed.success) return { ok: false, error: describeZodError(parsed.error) };
  if (parsed.data.type !== 'experiment.start') return { ok: false, error: 'internal: wrong message type' };
  return { ok: true, message: { ...parsed.data, params: checked.data as LabParams } };
}

/** The text fields with something typed in them: only those are sent and linked. */
function textFieldsSet(values: ExperimentFormValues): string[] {
  return COMMON_TEXT_FIELDS.map((s) => s.field).filter((field) => (values.texts[field] ?? '').trim() !== '');
}

// ---------------------------------------------------------------- shareable links

const BOOLEAN_TEXT: Record<string, boolean> = { '1': true, true: true, '0': false, false: false };

/** Query keys a link of the lab may carry; anything else is reported as ignored. */
export function queryKeys(form: LabForm): readonly string[] {
  return [
    'lab',
    'strategies',
    ...form.linkOrder,
    ...form.switches.map((s) => s.field),
    ...(form.choices ?? []).map((s) => s.field),
    ...COMMON_TEXT_FIELDS.map((s) => s.field),
    'retained',
    'parallel',
    'node',
    'autostart',
  ];
}
/** The streams lab's keys (the only lab links had before labs). */
export const QUERY_KEYS = queryKeys(formOf(DEFAULT_LAB));

/**
 * The form as a query string, e.g. "strategies=rxjs-from,pipeline-generator&sizeMb=32&…". The
 * default lab is not written (its links predate labs); another lab is written first ("lab=http&…").
 * Numbers are written as typed, so the link reproduces the form exactly; an empty nullable field is
 * its word ("sampleMs=off", "budgetMb=none").
 */
export function formToQuery(values: ExperimentFormValues, catalogOrder: readonly string[] = []): string {
  const form = formOf(values.lab);
  const selected = new Set(values.strategies);
  const ordered = [...catalogOrder.filter((id) => selected.has(id)), ...values.strategies.filter((id) => !catalogOrder.includes(id))];
  const defaults = defaultFormValues(values.lab).numbers;
  const q = new URLSearchParams();
  if (values.lab !== DEFAULT_FORM_LAB) q.set('lab', values.lab);
  q.set('strategies', ordered.join(','));
  for (const field of form.linkOrder) {
    const text = (values.numbers[field] ?? '').trim();
    if (!form.alwaysWritten.has(field) && text === defaults[field]) continue;
    q.set(field, field in NULL_WORDS && text === '' ? NULL_WORDS[field] : text);
  }
  // A lab's switches only when on: their defaults are off, and everyday links stay short.
  for (const { field } of form.switches) if (values.switches[field]) q.set(field, '1');
  // A choice only when not its default, like the numbers.
  for (const { field } of form.choices ?? []) {
    const value = values.choices?.[field];
    if (value !== undefined && value !== form.defaults[field as keyof typeof form.defaults]) q.set(field, value);
  }
  // Text fields only when set, like the switches.
  for (const field of textFieldsSet(values)) q.set(field, values.texts[field].trim());
  q.set('retained', values.retained ? '1' : '0');
  if (values.node) q.set('node', values.node);
  if (form.runsAlone === null) q.set('parallel', values.parallel ? '1' : '0');
  // Commas in the strategy list and a trigger's "at=5" stay readable: a value's "=" needs no escaping
  // (a query splits each pair at its first "="), and ids never contain characters that do.
  return q.toString().replace(/%2C/g, ',').replace(/%3D/g, '=');
}

/** The lab a link names (the default lab when it names none), and a note when it names one that does not exist. */
export function labFromQuery(query: URLSearchParams): { lab: PageLabId; note: string | null } {
  const raw = query.get('lab');
  if (raw === null || raw === '') return { lab: DEFAULT_FORM_LAB, note: null };
  if (isPageLab(raw)) return { lab: raw, note: null };
  return { lab: DEFAULT_FORM_LAB, note: `lab=${raw.slice(0, 20)} ignored: lab must be one of ${PAGE_LABS.join(', ')}` };
}

export interface QueryForm {
  values: ExperimentFormValues;
  /** One line per ignored value, shown to the visitor: a link never fails silently. */
  notes: string[];
  /** The link asks to start the experiment (the page still asks the visitor to confirm). */
  autostart: boolean;
  /** The query carried any experiment parameter at all. */
  present: boolean;
}

/**
 * Reads a shared link into form values of the lab it names (labFromQuery); `catalog` is that lab's
 * strategy ids. Each bad value is ignored (the default stays) and named in `notes` with the same
 * wording the form's own validation uses.
 */
export function formFromQuery(query: URLSearchParams, catalog: readonly string[], maxSizeMb: number): QueryForm {
  const { lab, note } = labFromQuery(query);
  const form = formOf(lab);
  const values = defaultFormValues(lab);
  const notes: string[] = note ? [note] : [];
  const known = queryKeys(form);
  let present = false;
  for (const key of new Set(query.keys())) {
    if (!known.includes(key)) notes.push(`unknown parameter "${key.slice(0, 40)}" ignored`);
    else if (key !== 'autostart') present = true;
  }
  const list = query.get('strategies');
  if (list !== null) {
    const ids = list
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = ids.filter((id) => !catalog.includes(id));
    for (const id of unknown) notes.push(`strategies: unknown strategy "${id.slice(0, 64)}" ignored`);
    const found = catalog.filter((id) => ids.includes(id));
    if (found.length > 0) values.strategies = found;
    else notes.push('strategies: no known strategy in the link, the default pair is selected');
  }
  for (const field of form.linkOrder) {
    const raw = query.get(field);
    if (raw === null) continue;
    if (field in NULL_WORDS && (raw === NULL_WORDS[field] || raw.trim() === '')) {
      values.numbers[field] = '';
      continue;
    }
    const error = fieldError(field, raw, maxSizeMb, form);
    if (error) notes.push(`${field}=${raw.slice(0, 20)} ignored: ${error}`);
    else values.numbers[field] = raw.trim();
  }
  for (const { field } of form.switches) {
    const raw = query.get(field);
    if (raw === null) continue;
    if (!(raw in BOOLEAN_TEXT)) notes.push(`${field}=${raw.slice(0, 20)} ignored: ${field} must be 1 or 0`);
    else values.switches[field] = BOOLEAN_TEXT[raw];
  }
  for (const { field, options } of form.choices ?? []) {
    const raw = query.get(field);
    if (raw === null) continue;
    const allowed = options.map((o) => o.value);
    if (allowed.includes(raw)) values.choices = { ...values.choices, [field]: raw };
    else notes.push(`${field}=${raw.slice(0, 20)} ignored: ${field} must be one of ${allowed.join(', ')}`);
  }
  for (const { field } of COMMON_TEXT_FIELDS) {
    const raw = query.get(field);
    if (raw === null || raw.trim() === '') continue;
    const error = textFieldError(field, raw, form);
    if (error) notes.push(`${field}=${raw.slice(0, 40)} ignored: ${error}`);
    else values.texts[field] = raw.trim();
  }
  for (const key of ['retained', 'parallel'] as const) {
    const raw = query.get(key);
    if (raw === null) continue;
    if (!(raw in BOOLEAN_TEXT)) notes.push(`${key}=${raw.slice(0, 20)} ignored: ${key} must be 1 or 0`);
    else if (key === 'parallel' && form.runsAlone !== null && BOOLEAN_TEXT[raw])
      notes.push(`parallel=${raw} ignored: ${LAB_NAMES[lab]} runs one strategy at a time`);
    else values[key] = BOOLEAN_TEXT[raw];
  }
  const node = query.get('node');
  if (node !== null && node !== '') {
    if (NODE_SPEC_PATTERN.test(node)) values.node = node;
    else notes.push(`node=${node.slice(0, 20)} ignored: ${NODE_SPEC_RULE}`);
  }
  return { values, notes, autostart: query.get('autostart') === '1', present };
}

/**
 * The form that would start these parameters again (a recorded run's "open this experiment" link,
 * a running experiment's form). Every field is carried, null as an empty input, so the link reopens
 * exactly the same run.
 */
export function formValuesFromParams(
  params: LabParams,
  strategies: readonly string[],
  parallel: boolean,
  lab: PageLabId = DEFAULT_FORM_LAB,
): ExperimentFormValues {
  const p = params as unknown as Record<string, unknown>;
  const form = formOf(lab);
  const defaults = form.defaults as unknown as Record<string, unknown>;
  // A param a run was recorded without (one added since) reopens at its default, not as an empty field.
  const text = (field: string) => {
    const v = p[field] === undefined ? defaults[field] : p[field];
    return typeof v === 'number' ? String(v) : '';
  };
  const choices = form.choices && Object.fromEntries(form.choices.map(({ field }) => [field, String(p[field] ?? defaults[field])]));
  return {
    lab,
    numbers: Object.fromEntries(form.linkOrder.map((field) => [field, text(field)])),
    switches: Object.fromEntries(form.switches.map(({ field }) => [field, p[field] === true])),
    texts: Object.fromEntries(COMMON_TEXT_FIELDS.map(({ field }) => [field, typeof p[field] === 'string' ? p[field] : ''])),
    ...(choices && { choices }),
    retained: params.retained,
    parallel: form.runsAlone === null && parallel,
    strategies: [...strategies],
    ...(typeof p.node === 'string' && { node: p.node }),
  };
}
