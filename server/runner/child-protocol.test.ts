import { describe, expect, it } from 'vitest';
import { isChildMessage } from './child-protocol';

describe('isChildMessage', () => {
  it.each([
    ['ready', { type: 'ready', idle: {}, at: 1 }],
    ['sample', { type: 'sample', sample: {} }],
    ['done', { type: 'done', final: {}, elP50Ms: 0, elP99Ms: 0, elMaxMs: 0 }],
    ['error', { type: 'error', message: 'boom' }],
  ])('accepts a well-formed %s message', (_type, message) => {
    expect(isChildMessage(message)).toBe(true);
  });

  it.each([
    ['null', null],
    ['a string', 'ready'],
    ['no type', { idle: {} }],
    ['an unknown type', { type: 'hello' }],
    ['ready without idle', { type: 'ready', idle: null }],
    ['sample without sample', { type: 'sample' }],
    ['done without final', { type: 'done', final: 3 }],
    ['error without a message string', { type: 'error', message: { text: 'boom' } }],
  ])('ignores %s', (_name, message) => {
    expect(isChildMessage(message)).toBe(false);
  });
});
