import { describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS as DEFAULT_PARAMS, LIMITS, streamsParamsSchema as runParamsSchema } from './params';
import { describeZodError, rangeMessageFor } from '../../../lib/protocol/params';

const rangeMessage = (field: 'delayMs' | 'sizeMb', max?: number) => rangeMessageFor(field, LIMITS[field], max);

/** The one-line error the schema gives for DEFAULT_PARAMS with `patch` applied, or 'ok'. */
function verdict(patch: Record<string, unknown>): string {
  const result = runParamsSchema.safeParse({ ...DEFAULT_PARAMS, ...patch });
  return result.success ? 'ok' : describeZodError(result.error);
}

describe('runParamsSchema', () => {
  it('accepts the defaults unchanged', () => {
    expect(runParamsSchema.parse(DEFAULT_PARAMS)).toEqual(DEFAULT_PARAMS);
  });

  it('accepts both ends of every numeric range', () => {
    for (const field of ['sizeMb', 'delayMs', 'cpuUs', 'chunkKb', 'sampleMs', 'budgetMb', 'maxOldSpaceMb', 'timeoutS', 'seed'] as const) {
      expect(verdict({ [field]: LIMITS[field].min }), `${field} = min`).toBe('ok');
      expect(verdict({ [field]: LIMITS[field].max }), `${field} = max`).toBe('ok');
    }
  });

  it('accepts null for the sampler, the budget and the heap limit (off / Node default)', () => {
    expect(verdict({ sampleMs: null, budgetMb: null, maxOldSpaceMb: null })).toBe('ok');
  });

  it.each([
    ['negative delayMs', { delayMs: -1 }, 'delayMs must be between 0 and 1000'],
    ['delayMs above the range', { delayMs: 1001 }, 'delayMs must be between 0 and 1000'],
    ['sizeMb 0', { sizeMb: 0 }, 'sizeMb must be between 1 and 2048'],
    ['absurd sizeMb', { sizeMb: 999_999 }, 'sizeMb must be between 1 and 2048'],
    ['sampleMs 5', { sampleMs: 5 }, 'sampleMs must be between 10 and 1000'],
    ['sampleMs 5000', { sampleMs: 5000 }, 'sampleMs must be between 10 and 1000'],
    ['budgetMb below the minimum', { budgetMb: 16 }, 'budgetMb must be between 32 and 16384'],
    ['maxOldSpaceMb below the minimum', { maxOldSpaceMb: 8 }, 'maxOldSpaceMb must be between 16 and 16384'],
    ['timeoutS 0', { timeoutS: 0 }, 'timeoutS must be between 1 and 3600'],
    ['non-numeric delayMs', { delayMs: 'abc' }, 'delayMs must be a number (0–1000)'],
    ['NaN delayMs', { delayMs: Number.NaN }, 'delayMs must be a number (0–1000)'],
    ['infinite sizeMb', { sizeMb: Number.POSITIVE_INFINITY }, 'sizeMb must be a number (1–2048)'],
    ['missing delayMs', { delayMs: undefined }, 'delayMs is required (0–1000)'],
    ['fractional chunkKb', { chunkKb: 1.5 }, 'chunkKb must be a whole number'],
    ['non-boolean retained', { retained: 'yes' }, 'retained must be true or false'],
  ])('rejects %s with a message naming the field and its range', (_name, patch, message) => {
    expect(verdict(patch)).toBe(message);
  });

  it('reports every bad field, joined in one line', () => {
    expect(verdict({ sizeMb: 0, delayMs: -1 })).toBe('sizeMb must be between 1 and 2048; delayMs must be between 0 and 1000');
  });

  it('names unknown fields when parsed strictly (as the WebSocket protocol does)', () => {
    const result = runParamsSchema.strict().safeParse({ ...DEFAULT_PARAMS, delay: 5 });
    expect(result.success).toBe(false);
    expect(describeZodError(result.error!)).toBe('unknown field(s): delay');
  });

  it('prefixes zod default messages with the path, since they do not name the field', () => {
    const result = runParamsSchema.safeParse(null);
    expect(result.success).toBe(false);
    expect(describeZodError(result.error!)).toBe('message: Invalid input: expected object, received null');
  });
});

describe('rangeMessage', () => {
  it('uses the LIMITS range, or a lower server maximum when given', () => {
    expect(rangeMessage('delayMs')).toBe('delayMs must be between 0 and 1000');
    expect(rangeMessage('sizeMb', 512)).toBe('sizeMb must be between 1 and 512');
  });
});
