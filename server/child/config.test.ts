import { describe, expect, it } from 'vitest';
import { parseChildConfig } from './config';

const good = {
  scenarioModule: 'labs/streams/child/scenario',
  strategyModule: 'labs/streams/child/strategies/for-await',
  scenario: {},
  sampleMs: 50,
  retained: false,
};

describe('parseChildConfig', () => {
  it('accepts a config the runner sends', () => {
    expect(parseChildConfig(JSON.stringify(good))).toEqual(good);
    expect(parseChildConfig(JSON.stringify({ ...good, sampleMs: null })).sampleMs).toBeNull();
  });

  it.each([
    ['a module outside the child build', { strategyModule: '../../etc/passwd' }, /^strategyModule must be a string matching/],
    ['a sampler interval out of range', { sampleMs: 5 }, /^sampleMs must be a whole number between 10 and 1000 or null \(got 5\)$/],
    ['retained that is not a boolean', { retained: 'yes' }, /^retained must be true or false/],
    ['no scenario part', { scenario: null }, /^scenario must be an object$/],
  ])('refuses %s, naming the field', (_name, patch, message) => {
    expect(() => parseChildConfig(JSON.stringify({ ...good, ...patch }))).toThrow(message);
  });

  it('refuses a missing or non-JSON argument', () => {
    expect(() => parseChildConfig(undefined)).toThrow('config: the child was started without a JSON config argument');
  });
});
