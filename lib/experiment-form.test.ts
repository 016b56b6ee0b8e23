import { describe, expect, it } from 'vitest';
import { buildStartMessage, defaultFormValues, formFromQuery, formToQuery } from './experiment-form';
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

describe('shareable links', () => {
  it('a form read back from its own link is the same form', () => {
    const values = {
      ...defaultFormValues(),
      strategies: ['pipeline-generator', 'rxjs-from'],
      numbers: { ...defaultFormValues().numbers, sizeMb: '32', delayMs: '2.5', budgetMb: '' },
      retained: true,
      parallel: true,
    };
    const query = formToQuery(values, CATALOG);
    expect(query).toBe('strategies=rxjs-from,pipeline-generator&sizeMb=32&delayMs=2.5&chunkKb=64&sampleMs=50&budgetMb=none&cpuUs=0&retained=1&parallel=1');
    const back = formFromQuery(new URLSearchParams(query), CATALOG, 2048);
    expect(back).toEqual({ values: { ...values, strategies: ['rxjs-from', 'pipeline-generator'] }, notes: [], autostart: false, present: true });
  });

  it('ignores each bad value with a note naming it, keeping the default there', () => {
    const q = new URLSearchParams('strategies=rxjs-from,nope&sizeMb=4096&delayMs=abc&retained=maybe&colour=red&autostart=1');
    const back = formFromQuery(q, CATALOG, 2048);
    expect(back.values).toEqual({ ...defaultFormValues(), strategies: ['rxjs-from'] });
    expect(back.notes).toEqual([
      'unknown parameter "colour" ignored',
      'strategies: unknown strategy "nope" ignored',
      'sizeMb=4096 ignored: sizeMb must be between 1 and 2048',
      'delayMs=abc ignored: delayMs must be a number (0–1000)',
      'retained=maybe ignored: retained must be 1 or 0',
    ]);
    expect(back.autostart).toBe(true);
  });

  it('applies the server size cap and reports a link without parameters as absent', () => {
    expect(formFromQuery(new URLSearchParams('sizeMb=600'), CATALOG, 512).notes).toEqual(['sizeMb=600 ignored: sizeMb must be between 1 and 512']);
    expect(formFromQuery(new URLSearchParams(''), CATALOG, 512)).toEqual({ values: defaultFormValues(), notes: [], autostart: false, present: false });
  });
});
