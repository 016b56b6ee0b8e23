/**
 * Turns what the experiment form holds (strings, as inputs give them) into an `experiment.start`
 * message, or into the one-line error the server would have answered. Pure.
 */
import { clientMessageSchema, type ClientMessage } from '../protocol';
import { DEFAULT_PARAMS, describeZodError, rangeMessage, runParamsSchema, type RunParams } from '../params';
import { fieldError, formFieldErrors, NO_STRATEGY, NUMERIC_FIELDS, type NumericFormField } from './form-fields';

export { NUMERIC_FIELDS, type NumericFormField };

/**
 * Fields whose empty input means null in RunParams, with the word a link spells that null with
 * (an empty value in a URL reads like a mistake).
 */
const NULL_WORDS = { sampleMs: 'off', budgetMb: 'none', maxOldSpaceMb: 'none' } as const satisfies Partial<Record<NumericFormField, string>>;
type NullableFormField = keyof typeof NULL_WORDS;

function isNullable(field: NumericFormField): field is NullableFormField {
  return field in NULL_WORDS;
}

export interface ExperimentFormValues {
  numbers: Record<NumericFormField, string>;
  retained: boolean;
  parallel: boolean;
  /** Selected strategy ids, any order. */
  strategies: readonly string[];
}

/** The form's starting values: the shared defaults, with the article's push-vs-pull pair picked. */
export function defaultFormValues(): ExperimentFormValues {
  return formValuesFromParams(DEFAULT_PARAMS, ['rxjs-from', 'pipeline-generator'], false);
}

/** "" → undefined (zod then names the field), otherwise the number the text spells (NaN if none). */
function readNumber(text: string): number | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : Number(trimmed);
}

/** Like `readNumber`, but "" is the field's null (sampler off, no budget, Node's heap default). */
function readNullable(text: string): number | null | undefined {
  return text.trim() === '' ? null : readNumber(text);
}

export type BuildResult = { ok: true; message: Extract<ClientMessage, { type: 'experiment.start' }> & { params: RunParams } } | { ok: false; error: string };

/**
 * Validates each field as the page marks it (labels a person reads, whole numbers where the form
 * asks for them, the server's size cap), then the whole message with the server's own schema.
 * `catalogOrder` fixes the order runs are queued in, whatever order boxes were ticked.
 */
export function buildStartMessage(values: ExperimentFormValues, catalogOrder: readonly string[], maxSizeMb: number): BuildResult {
  const n = values.numbers;
  const fieldErrors = Object.values(formFieldErrors(n, maxSizeMb));
  if (fieldErrors.length > 0) return { ok: false, error: fieldErrors.join('; ') };
  if (values.strategies.length === 0) return { ok: false, error: NO_STRATEGY };
  const params: Record<keyof RunParams, unknown> = {
    sizeMb: readNumber(n.sizeMb),
    delayMs: readNumber(n.delayMs),
    cpuUs: readNumber(n.cpuUs),
    chunkKb: readNumber(n.chunkKb),
    sampleMs: readNullable(n.sampleMs),
    retained: values.retained,
    budgetMb: readNullable(n.budgetMb),
    maxOldSpaceMb: readNullable(n.maxOldSpaceMb),
    timeoutS: readNumber(n.timeoutS),
    seed: readNumber(n.seed),
  };
  const selected = new Set(values.strategies);
  const strategies = catalogOrder.filter((id) => selected.has(id));
  const checked = runParamsSchema.strict().safeParse(params);
  if (!checked.success) return { ok: false, error: describeZodError(checked.error) };
  const parsed = clientMessageSchema.safeParse({ type: 'experiment.start', lab: 'streams', strategies, params: checked.data, parallel: values.parallel });
  if (!parsed.success) return { ok: false, error: describeZodError(parsed.error) };
  if (parsed.data.type !== 'experiment.start') return { ok: false, error: 'internal: wrong message type' };
  if (checked.data.sizeMb > maxSizeMb) return { ok: false, error: rangeMessage('sizeMb', maxSizeMb) };
  return { ok: true, message: { ...parsed.data, params: checked.data } };
}

// ---------------------------------------------------------------- shareable links

const BOOLEAN_TEXT: Record<string, boolean> = { '1': true, true: true, '0': false, false: false };
/** Query keys a link may carry; anything else is reported as ignored. */
export const QUERY_KEYS = ['strategies', ...NUMERIC_FIELDS, 'retained', 'parallel', 'autostart'] as const;
/**
 * Written into every link, default or not (the lab's URL has always shown them). The other fields
 * are written only when they differ from the default, so everyday links stay short; a link read
 * back falls back to the same default, so leaving them out changes nothing.
 */
const ALWAYS_WRITTEN: ReadonlySet<NumericFormField> = new Set(['sizeMb', 'delayMs', 'chunkKb', 'sampleMs', 'budgetMb', 'cpuUs']);

/**
 * The form as a query string, e.g. "strategies=rxjs-from,pipeline-generator&sizeMb=32&…".
 * Numbers are written as typed, so the link reproduces the form exactly; an empty nullable field is
 * its word ("sampleMs=off", "budgetMb=none").
 */
export function formToQuery(values: ExperimentFormValues, catalogOrder: readonly string[] = []): string {
  const selected = new Set(values.strategies);
  const ordered = [...catalogOrder.filter((id) => selected.has(id)), ...values.strategies.filter((id) => !catalogOrder.includes(id))];
  const defaults = defaultFormValues().numbers;
  const q = new URLSearchParams();
  q.set('strategies', ordered.join(','));
  for (const field of NUMERIC_FIELDS) {
    const text = values.numbers[field].trim();
    if (!ALWAYS_WRITTEN.has(field) && text === defaults[field]) continue;
    q.set(field, isNullable(field) && text === '' ? NULL_WORDS[field] : text);
  }
  q.set('retained', values.retained ? '1' : '0');
  q.set('parallel', values.parallel ? '1' : '0');
  // Commas in the strategy list stay readable: ids never contain characters that need escaping.
  return q.toString().replace(/%2C/g, ',');
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
 * Reads a shared link into form values. Each bad value is ignored (the default stays) and named
 * in `notes` with the same wording the form's own validation uses.
 */
export function formFromQuery(query: URLSearchParams, catalog: readonly string[], maxSizeMb: number): QueryForm {
  const values = defaultFormValues();
  const notes: string[] = [];
  let present = false;
  for (const key of new Set(query.keys())) {
    if (!(QUERY_KEYS as readonly string[]).includes(key)) notes.push(`unknown parameter "${key.slice(0, 40)}" ignored`);
    else if (key !== 'autostart') present = true;
  }
  const list = query.get('strategies');
  if (list !== null) {
    const ids = list.split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = ids.filter((id) => !catalog.includes(id));
    for (const id of unknown) notes.push(`strategies: unknown strategy "${id.slice(0, 64)}" ignored`);
    const known = catalog.filter((id) => ids.includes(id));
    if (known.length > 0) values.strategies = known;
    else notes.push('strategies: no known strategy in the link, the default pair is selected');
  }
  for (const field of NUMERIC_FIELDS) {
    const raw = query.get(field);
    if (raw === null) continue;
    if (isNullable(field) && (raw === NULL_WORDS[field] || raw.trim() === '')) {
      values.numbers[field] = '';
      continue;
    }
    const error = fieldError(field, raw, maxSizeMb);
    if (error) notes.push(`${field}=${raw.slice(0, 20)} ignored: ${error}`);
    else values.numbers[field] = raw.trim();
  }
  for (const key of ['retained', 'parallel'] as const) {
    const raw = query.get(key);
    if (raw === null) continue;
    if (raw in BOOLEAN_TEXT) values[key] = BOOLEAN_TEXT[raw];
    else notes.push(`${key}=${raw.slice(0, 20)} ignored: ${key} must be 1 or 0`);
  }
  return { values, notes, autostart: query.get('autostart') === '1', present };
}

/**
 * The form that would start these parameters again (a recorded run's "open this experiment" link).
 * Every field is carried, null as an empty input, so the link reopens exactly the same run.
 */
export function formValuesFromParams(params: RunParams, strategies: readonly string[], parallel: boolean): ExperimentFormValues {
  const text = (n: number | null) => (n === null ? '' : String(n));
  return {
    numbers: {
      sizeMb: text(params.sizeMb),
      delayMs: text(params.delayMs),
      chunkKb: text(params.chunkKb),
      sampleMs: text(params.sampleMs),
      budgetMb: text(params.budgetMb),
      cpuUs: text(params.cpuUs),
      maxOldSpaceMb: text(params.maxOldSpaceMb),
      timeoutS: text(params.timeoutS),
      seed: text(params.seed),
    },
    retained: params.retained,
    parallel,
    strategies: [...strategies],
  };
}
