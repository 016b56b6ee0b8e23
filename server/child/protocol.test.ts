import { describe, expect, it } from 'vitest';
import { makeSample } from '../../lib/test-fixtures';
import { parseChildMessage } from './protocol';

const memory = { rss: 1, heapTotal: 2, heapUsed: 3, external: 4, arrayBuffers: 5 };

describe('parseChildMessage', () => {
  it.each([
    ['ready', { type: 'ready', idle: memory, at: 1 }],
    ['sample', { type: 'sample', sample: makeSample({ rss: 10 }) }],
    [
      'done',
      {
        type: 'done',
        final: makeSample(),
        elP50Ms: 0,
        elP99Ms: 0,
        elMaxMs: 0,
        cpu: { userMs: 5, systemMs: 1 },
        extras: { peakInFlight: 1 },
        note: null,
        details: {},
      },
    ],
    ['error', { type: 'error', message: 'boom' }],
  ])('accepts a well-formed %s message', (_type, message) => {
    expect(parseChildMessage(message)).toEqual({ ok: true, message });
  });

  it.each([
    ['null', null, 'message: '],
    ['a string', 'ready', 'message: '],
    ['no type', { idle: memory }, 'type: '],
    ['an unknown type', { type: 'hello' }, 'type: '],
    ['ready without idle', { type: 'ready', idle: null, at: 1 }, 'idle: '],
    ['a sample without rss', { type: 'sample', sample: { ...makeSample(), rss: undefined } }, 'sample.rss: '],
    ['a sample with a string where a number goes', { type: 'sample', sample: { ...makeSample(), heapUsed: '3' } }, 'sample.heapUsed: '],
    ['done without final', { type: 'done', final: 3, elP50Ms: 0, elP99Ms: 0, elMaxMs: 0, cpu: { userMs: 0, systemMs: 0 }, extras: {} }, 'final: '],
    [
      'done with a non-numeric extra',
      { type: 'done', final: makeSample(), elP50Ms: 0, elP99Ms: 0, elMaxMs: 0, cpu: { userMs: 0, systemMs: 0 }, extras: { peakInFlight: 'x' } },
      'extras.peakInFlight: ',
    ],
    ['error without a message string', { type: 'error', message: { text: 'boom' } }, 'message: '],
  ])('rejects %s, naming the field', (_name, message, field) => {
    const result = parseChildMessage(message);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.startsWith(field)).toBe(true);
  });
});
