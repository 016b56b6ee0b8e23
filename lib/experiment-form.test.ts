import { describe, expect, it } from 'vitest';
import { buildStartMessage, defaultFormValues } from './experiment-form';
import { DEFAULT_PARAMS } from './params';

const CATALOG = ['rxjs-fromEvent', 'rxjs-from', 'pipeline-generator'];

describe('buildStartMessage', () => {
  it('builds a strict experiment.start from the defaults, in catalog order', () => {
    const values = { ...defaultFormValues(), strategies: ['pipeline-generator', 'rxjs-from'] };
    const built = buildStartMessage(values, CATALOG, 2048);
    expect(built).toEqual({
      ok: true,
      message: { type: 'experiment.start', strategies: ['rxjs-from', 'pipeline-generator'], params: DEFAULT_PARAMS, parallel: false },
    });
  });

  it('names the field and its range for a value out of range', () => {
    const values = defaultFormValues();
    const built = buildStartMessage({ ...values, numbers: { ...values.numbers, delayMs: '5000' } }, CATALOG, 2048);
    expect(built).toEqual({ ok: false, error: 'delayMs must be between 0 and 1000' });
  });

  it('treats an empty budget as no budget but an empty size as an error', () => {
    const values = defaultFormValues();
    const noBudget = buildStartMessage({ ...values, numbers: { ...values.numbers, budgetMb: ' ' } }, CATALOG, 2048);
    expect(noBudget.ok && noBudget.message.params.budgetMb).toBeNull();
    const noSize = buildStartMessage({ ...values, numbers: { ...values.numbers, sizeMb: '' } }, CATALOG, 2048);
    expect(noSize).toEqual({ ok: false, error: 'sizeMb is required (1–2048)' });
  });

  it('rejects fractional whole-number fields and an empty selection', () => {
    const values = defaultFormValues();
    expect(buildStartMessage({ ...values, numbers: { ...values.numbers, chunkKb: '1.5' } }, CATALOG, 2048)).toEqual({
      ok: false,
      error: 'chunkKb must be a whole number',
    });
    expect(buildStartMessage({ ...values, strategies: [] }, CATALOG, 2048)).toEqual({
      ok: false,
      error: 'strategies must list between 1 and 16 ids',
    });
  });

  it('applies the server’s lower size cap', () => {
    const values = defaultFormValues();
    expect(buildStartMessage(values, CATALOG, 64)).toEqual({ ok: false, error: 'sizeMb must be between 1 and 64' });
  });
});
