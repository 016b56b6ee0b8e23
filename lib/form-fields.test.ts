import { describe, expect, it } from 'vitest';
import { fieldError, fieldLabel, formFieldErrors } from './form/form-fields';
import { defaultFormValues } from './form/experiment-form';
import { formOf } from './form/lab-forms';

describe('fieldError', () => {
  it('refuses the values a new user tried, naming the field as the page labels it and its range', () => {
    const size = 'File size (MB) must be a whole number between 1 and 2048';
    expect(fieldError('sizeMb', '0', 2048)).toBe(size);
    expect(fieldError('sizeMb', '99999', 2048)).toBe(size);
    expect(fieldError('delayMs', '-1', 2048)).toBe('Consumer delay per call (ms) must be a number between 0 and 1000');
    expect(fieldError('chunkKb', '0', 2048)).toBe('Chunk size (KB) must be a whole number between 1 and 4096');
  });

  it('refuses a fractional file size (files are made in whole MiB) but accepts a fractional delay', () => {
    expect(fieldError('sizeMb', '2.5', 2048)).toBe('File size (MB) must be a whole number between 1 and 2048');
    expect(fieldError('delayMs', '2.5', 2048)).toBeNull();
    expect(fieldError('delayMs', '.5', 2048)).toBeNull();
  });

  it('refuses text that is not a plain number, which Number() would have read (hex, exponent, blanks)', () => {
    expect(fieldError('sizeMb', '0x10', 2048)).not.toBeNull();
    expect(fieldError('sizeMb', '1e2', 2048)).not.toBeNull();
    expect(fieldError('delayMs', 'abc', 2048)).not.toBeNull();
    expect(fieldError('sizeMb', ' 16 ', 2048)).toBeNull();
  });

  it('accepts empty only where it means something, and says what', () => {
    expect(fieldError('budgetMb', '', 2048)).toBeNull();
    expect(fieldError('sizeMb', '', 2048)).toBe('File size (MB) must be a whole number between 1 and 2048');
    expect(fieldError('sampleMs', '5', 2048)).toBe('Sample every (ms) must be a whole number between 10 and 1000, or empty for sampler off');
  });

  it('applies the server’s lower size cap', () => {
    expect(fieldError('sizeMb', '600', 512)).toBe('File size (MB) must be a whole number between 1 and 512');
    expect(fieldError('sizeMb', '512', 512)).toBeNull();
  });
});

describe('formFieldErrors', () => {
  it('finds nothing wrong with the defaults and names each bad field once', () => {
    const values = defaultFormValues();
    expect(formFieldErrors(values.numbers, 2048)).toEqual({});
    expect(Object.keys(formFieldErrors({ ...values.numbers, sizeMb: '0', chunkKb: '0' }, 2048))).toEqual(['sizeMb', 'chunkKb']);
    expect(fieldLabel('seed')).toBe('Data seed');
  });
});

describe('rules across fields (issue 26: nothing refused only by the server, in code names)', () => {
  it('marks a deadline spike that ends after the schedule at Spike lasts, in the fields’ labels, and only once every field is valid', () => {
    const form = formOf('deadline');
    const values = defaultFormValues('deadline');
    expect(formFieldErrors(values.numbers, 2048, form)).toEqual({});
    const late = { ...values.numbers, spikeStartS: '50', spikeS: '20', durationS: '60' };
    expect(formFieldErrors(late, 2048, form)).toEqual({
      spikeS: 'The spike must end within the schedule: Spike starts at (50 s) + Spike lasts (20 s) = 70 s, more than Schedule length (60 s)',
    });
    // A field broken on its own is told first; the rule across fields waits for it.
    expect(Object.keys(formFieldErrors({ ...late, objects: '0' }, 2048, form))).toEqual(['objects']);
  });
});
