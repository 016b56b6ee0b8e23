/**
 * Experiment parameters: defaults, allowed ranges and their validation.
 * Shared by the CLI, the server and the browser, so it imports nothing from `node:`.
 */
import { z } from 'zod';

export const MIB = 1024 * 1024;

/** Upper bound for generated files; the server may lower it with STREAM_LAB_MAX_SIZE_MB. */
export const DEFAULT_MAX_SIZE_MB = 2048;

export const LIMITS = {
  sizeMb: { min: 1, max: DEFAULT_MAX_SIZE_MB, default: 150 },
  delayMs: { min: 0, max: 1000, default: 10 },
  cpuUs: { min: 0, max: 100_000, default: 0 },
  chunkKb: { min: 1, max: 4096, default: 64 },
  sampleMs: { min: 10, max: 1000, default: 50 },
  budgetMb: { min: 32, max: 16_384, default: 1024 },
  maxOldSpaceMb: { min: 16, max: 16_384 },
  timeoutS: { min: 1, max: 3600, default: 600 },
  seed: { min: 0, max: 2 ** 31 - 1, default: 1 },
  strategies: { min: 1, max: 16 },
} as const;

type NumericField = Exclude<keyof typeof LIMITS, 'strategies'>;

/** "delayMs must be between 0 and 1000": the one wording every boundary uses. */
export function rangeMessage(field: NumericField, max: number = LIMITS[field].max): string {
  return `${field} must be between ${LIMITS[field].min} and ${max}`;
}

function ranged(field: NumericField, opts: { int?: boolean } = {}) {
  const msg = rangeMessage(field);
  const range = `${LIMITS[field].min}–${LIMITS[field].max}`;
  let n = z.number({
    error: (issue) => (issue.input === undefined ? `${field} is required (${range})` : `${field} must be a number (${range})`),
  });
  if (opts.int) n = n.int({ error: `${field} must be a whole number` });
  return n.min(LIMITS[field].min, { error: msg }).max(LIMITS[field].max, { error: msg });
}

/** Parameters shared by every run of an experiment. */
export const runParamsSchema = z.object({
  sizeMb: ranged('sizeMb'),
  delayMs: ranged('delayMs'),
  cpuUs: ranged('cpuUs', { int: true }),
  chunkKb: ranged('chunkKb', { int: true }),
  /** null turns the sampler off (used to measure its overhead). */
  sampleMs: ranged('sampleMs', { int: true }).nullable(),
  retained: z.boolean({ error: (issue) => (issue.input === undefined ? 'retained is required (true or false)' : 'retained must be true or false') }),
  /** RSS budget, like a container memory limit; null = no budget. */
  budgetMb: ranged('budgetMb', { int: true }).nullable(),
  /** V8 old-space limit (--max-old-space-size); null = Node's default. */
  maxOldSpaceMb: ranged('maxOldSpaceMb', { int: true }).nullable(),
  timeoutS: ranged('timeoutS', { int: true }),
  seed: ranged('seed', { int: true }),
});

export type RunParams = z.infer<typeof runParamsSchema>;

export const DEFAULT_PARAMS: RunParams = {
  sizeMb: LIMITS.sizeMb.default,
  delayMs: LIMITS.delayMs.default,
  cpuUs: LIMITS.cpuUs.default,
  chunkKb: LIMITS.chunkKb.default,
  sampleMs: LIMITS.sampleMs.default,
  retained: false,
  budgetMb: LIMITS.budgetMb.default,
  maxOldSpaceMb: null,
  timeoutS: LIMITS.timeoutS.default,
  seed: LIMITS.seed.default,
};

/** Turns a zod error into one line naming the field, e.g. "delayMs must be between 0 and 1000". */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.join('.');
      if (issue.code === 'unrecognized_keys') return `unknown field(s): ${issue.keys.join(', ')}`;
      // Custom messages already name the field; zod's defaults do not.
      return issue.message.includes(String(issue.path[issue.path.length - 1] ?? '\u0000'))
        ? issue.message
        : `${path || 'message'}: ${issue.message}`;
    })
    .join('; ');
}
