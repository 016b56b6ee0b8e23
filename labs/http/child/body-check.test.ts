import { describe, expect, it } from 'vitest';
import { checkBody } from './body-check';

const rows = [
  { id: 1, first_name: 'Anna', last_name: 'Müller', year_of_birth: 1937 },
  { id: 2, first_name: 'Ben', last_name: 'Weber', year_of_birth: 1974 },
];
const expected = { rows: 2, idSum: 3, yearSum: 1937 + 1974 };
const ndjson = rows.map((r) => `${JSON.stringify(r)}\n`).join('');

describe('checkBody', () => {
  it('accepts complete bodies in both formats', () => {
    expect(checkBody(JSON.stringify(rows), 'json-array', expected)).toBeNull();
    expect(checkBody(ndjson, 'ndjson', expected)).toBeNull();
  });

  it('names what is wrong: a cut body, a missing row, a changed value', () => {
    expect(checkBody(JSON.stringify(rows).slice(0, -1), 'json-array', expected)).toMatch(/not a complete JSON array/);
    expect(checkBody(ndjson.slice(0, -5), 'ndjson', expected)).toMatch(/cut off mid-line/);
    expect(checkBody(`${JSON.stringify(rows[0])}\n`, 'ndjson', expected)).toBe('1 rows instead of 2');
    expect(checkBody(ndjson.replace('1974', '1975'), 'ndjson', expected)).toMatch(/checksum is wrong/);
    expect(checkBody('[]', 'json-array', expected)).toBe('0 rows instead of 2');
  });
});
