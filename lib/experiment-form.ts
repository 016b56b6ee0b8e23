/**
 * Turns what the experiment form holds (strings, as inputs give them) into an `experiment.start`
 * message, or into the one-line error the server would have answered. Pure.
 */
import { clientMessageSchema, type ClientMessage } from './protocol';
import { DEFAULT_PARAMS, describeZodError, rangeMessage, type RunParams } from './params';

export const NUMERIC_FIELDS = ['sizeMb', 'delayMs', 'chunkKb', 'sampleMs', 'budgetMb', 'cpuUs'] as const;
export type NumericFormField = (typeof NUMERIC_FIELDS)[number];

export interface ExperimentFormValues {
  numbers: Record<NumericFormField, string>;
  retained: boolean;
  parallel: boolean;
  /** Selected strategy ids, any order. */
  strategies: readonly string[];
}

/** The form's starting values: the shared defaults, with the article's push-vs-pull pair picked. */
export function defaultFormValues(): ExperimentFormValues {
  const text = (n: number | null) => (n === null ? '' : String(n));
  return {
    numbers: {
      sizeMb: text(DEFAULT_PARAMS.sizeMb),
      delayMs: text(DEFAULT_PARAMS.delayMs),
      chunkKb: text(DEFAULT_PARAMS.chunkKb),
      sampleMs: text(DEFAULT_PARAMS.sampleMs),
      budgetMb: text(DEFAULT_PARAMS.budgetMb),
      cpuUs: text(DEFAULT_PARAMS.cpuUs),
    },
    retained: DEFAULT_PARAMS.retained,
    parallel: false,
    strategies: ['rxjs-from', 'pipeline-generator'],
  };
}

/** "" → undefined (zod then names the field), otherwise the number the text spells (NaN if none). */
function readNumber(text: string): number | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : Number(trimmed);
}

export type BuildResult = { ok: true; message: Extract<ClientMessage, { type: 'experiment.start' }> } | { ok: false; error: string };

/**
 * Validates the form exactly as the server will (same schema), plus the server's own size cap.
 * `catalogOrder` fixes the order runs are queued in, whatever order boxes were ticked.
 */
export function buildStartMessage(values: ExperimentFormValues, catalogOrder: readonly string[], maxSizeMb: number): BuildResult {
  const n = values.numbers;
  const budget = n.budgetMb.trim() === '' ? null : readNumber(n.budgetMb);
  const params: Record<keyof RunParams, unknown> = {
    ...DEFAULT_PARAMS,
    sizeMb: readNumber(n.sizeMb),
    delayMs: readNumber(n.delayMs),
    chunkKb: readNumber(n.chunkKb),
    sampleMs: readNumber(n.sampleMs),
    budgetMb: budget,
    cpuUs: readNumber(n.cpuUs),
    retained: values.retained,
  };
  const selected = new Set(values.strategies);
  const strategies = catalogOrder.filter((id) => selected.has(id));
  const parsed = clientMessageSchema.safeParse({ type: 'experiment.start', strategies, params, parallel: values.parallel });
  if (!parsed.success) return { ok: false, error: describeZodError(parsed.error) };
  if (parsed.data.type !== 'experiment.start') return { ok: false, error: 'internal: wrong message type' };
  if (parsed.data.params.sizeMb > maxSizeMb) return { ok: false, error: rangeMessage('sizeMb', maxSizeMb) };
  return { ok: true, message: parsed.data };
}
